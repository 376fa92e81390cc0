import type { Route } from "./+types/robots[.]txt";
import { etagOf, matchesEtag } from "~/services/etag.server";
import { publicUrl } from "~/services/env.server";

// /robots.txt: crawlers are welcome on the public pages and memorials and pointed to the
// sitemap at the site's own address (PUBLIC_URL); the members' and administrators' pages and the /api are
// nothing to index. Which memorials may be indexed is said by the sitemap and by each page's `noindex`, which
// follow a change of visibility at once; this file names no memorial, so it never goes stale.

/** Paths that are personal, or not pages at all. */
export const ROBOTS_DISALLOW = ["/api/", "/account", "/admin", "/basket", "/checkout", "/my-memorials", "/friends", "/vault", "/orders"] as const;

export function loader({ request }: Route.LoaderArgs) {
  const body = ["User-agent: *", "Allow: /", ...ROBOTS_DISALLOW.map((path) => `Disallow: ${path}`), "", `Sitemap: ${publicUrl()}/sitemap.xml`, ""].join("\n");
  const etag = etagOf(body);
  const headers = { "Cache-Control": "public, no-cache", ETag: etag };
  if (matchesEtag(request.headers.get("If-None-Match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}
