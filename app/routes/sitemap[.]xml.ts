import type { Route } from "./+types/sitemap[.]xml";
import { listSitemapMemorials } from "~/models/memorial.server";
import { etagOf, matchesEtag } from "~/services/etag.server";
import { publicUrl } from "~/services/env.server";

// /sitemap.xml (issue 29 item 2, docs/decisions/027-sharing-and-unlisted.md): the public pages and every
// published public memorial, by their PUBLIC_URL addresses; never an unlisted, friends-only, private or draft
// one. Read from the database on every request and kept by no cache without asking (`public, no-cache`
// with an ETag), so it is right the instant a memorial changes visibility.

/** The pages anyone may open that say something of their own (/market is /memorials under another name). */
export const SITEMAP_PAGES = ["/", "/memorials", "/products", "/news", "/endowment", "/help", "/contact", "/terms", "/privacy"] as const;

export async function loader({ request }: Route.LoaderArgs) {
  const site = publicUrl();
  const memorials = await listSitemapMemorials();
  const entries = [
    ...SITEMAP_PAGES.map((path) => `<url><loc>${escapeXml(`${site}${path}`)}</loc></url>`),
    ...memorials.map((m) => `<url><loc>${escapeXml(`${site}/memorials/${m.id}`)}</loc><lastmod>${m.updatedAt.toISOString().slice(0, 19)}Z</lastmod></url>`),
  ];
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</urlset>\n`;
  const etag = etagOf(body);
  const headers = { "Cache-Control": "public, no-cache", ETag: etag };
  if (matchesEtag(request.headers.get("If-None-Match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "Content-Type": "application/xml; charset=utf-8" } });
}

function escapeXml(text: string) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}
