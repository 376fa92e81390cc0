import type { Route } from "./+types/sitemaps.$file";
import { sitemapChildXml, sitemapResponse } from "./sitemap.server";

// The children of /sitemap.xml (docs/decisions/032-sitemap-index.md): /sitemaps/pages.xml (the public
// pages) and /sitemaps/memorials-N.xml (published public memorials, 10,000 to a child, oldest first, each
// with its lastmod), never an unlisted, friends-only, private, draft or deleted one. A name the index does
// not write, or a number past the end, is a plain 404; `public, no-cache` with an ETag otherwise.
export async function loader({ request, params }: Route.LoaderArgs) {
  return sitemapResponse(request, await sitemapChildXml(params.file));
}
