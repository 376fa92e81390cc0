import type { Route } from "./+types/sitemap[.]xml";
import { sitemapIndexXml, sitemapResponse } from "./sitemap.server";

// /sitemap.xml (docs/decisions/032-sitemap-index.md): always a sitemap index, naming
// /sitemaps/pages.xml and one /sitemaps/memorials-N.xml per 10,000 published public memorials, at their
// PUBLIC_URL addresses; the address robots.txt names. One count per request; `public, no-cache` with an ETag.
export async function loader({ request }: Route.LoaderArgs) {
  return sitemapResponse(request, await sitemapIndexXml());
}
