import { countSitemapChildren, listSitemapChild, SITEMAP_MAX_CHILDREN, SITEMAP_PAGE_SIZE } from "~/models/memorials/sitemap.server";
import { etagOf, matchesEtag } from "~/services/etag.server";
import { publicUrl } from "~/services/env.server";
import { resourceNotFound } from "~/request/not-found.server";

// The sitemap (docs/decisions/027-sharing-and-unlisted.md and 032-sitemap-index.md):
// /sitemap.xml is always a sitemap index naming /sitemaps/pages.xml and /sitemaps/memorials-1.xml …
// memorials-N.xml, SITEMAP_PAGE_SIZE memorials to a child. Every address is at PUBLIC_URL. Read from the
// database on every request and kept by no cache without asking (`public, no-cache` with an ETag), so it
// is right the instant a memorial changes visibility. The page size is a parameter so a test can split a
// handful of memorials over several children.

const NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";

/** The pages anyone may open that say something of their own (/market is /memorials under another name). */
export const SITEMAP_PAGES = ["/", "/memorials", "/products", "/news", "/endowment", "/help", "/contact", "/terms", "/privacy"] as const;

/** Which child a /sitemaps/<file> names: "pages", a memorials child's number (1 … SITEMAP_MAX_CHILDREN - 1), or null (404). */
export function parseSitemapChild(file: string | undefined): "pages" | number | null {
  if (file === "pages.xml") return "pages";
  // Only the names the index writes: no leading zero, no sign, no fraction, no more digits than a child can have.
  const match = /^memorials-([1-9][0-9]{0,4})\.xml$/.exec(file ?? "");
  const child = match ? Number(match[1]) : NaN;
  return child < SITEMAP_MAX_CHILDREN ? child : null;
}

/** /sitemap.xml: the index, naming the pages' child and one child per `size` listable memorials. */
export async function sitemapIndexXml(size = SITEMAP_PAGE_SIZE): Promise<string> {
  const site = publicUrl();
  const children = Math.min(await countSitemapChildren(size), SITEMAP_MAX_CHILDREN - 1);
  const files = ["pages.xml", ...Array.from({ length: children }, (_, i) => `memorials-${i + 1}.xml`)];
  const entries = files.map((file) => `<sitemap><loc>${escapeXml(`${site}/sitemaps/${file}`)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NAMESPACE}">\n${entries.join("\n")}\n</sitemapindex>\n`;
}

/** A child sitemap's <urlset>, or null when there is no such child (a bad name, or a number past the end). */
export async function sitemapChildXml(file: string | undefined, size = SITEMAP_PAGE_SIZE): Promise<string | null> {
  const child = parseSitemapChild(file);
  if (child === null) return null;
  const site = publicUrl();
  let entries: string[];
  if (child === "pages") entries = SITEMAP_PAGES.map((path) => `<url><loc>${escapeXml(`${site}${path}`)}</loc></url>`);
  else {
    const memorials = await listSitemapChild(child, size);
    if (memorials.length === 0) return null;
    entries = memorials.map(
      (m) => `<url><loc>${escapeXml(`${site}/memorials/${m.id}`)}</loc><lastmod>${m.updatedAt.toISOString().slice(0, 19)}Z</lastmod></url>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NAMESPACE}">\n${entries.join("\n")}\n</urlset>\n`;
}

/** The XML as sent: `public, no-cache` with its ETag (304 when the crawler has it), or the site's plain 404 for a resource. */
export function sitemapResponse(request: Request, body: string | null): Response {
  if (body === null) return resourceNotFound();
  const etag = etagOf(body);
  const headers = { "Cache-Control": "public, no-cache", ETag: etag };
  if (matchesEtag(request.headers.get("If-None-Match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "Content-Type": "application/xml; charset=utf-8" } });
}

function escapeXml(text: string) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}
