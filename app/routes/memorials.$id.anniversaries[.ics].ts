import type { Route } from "./+types/memorials.$id.anniversaries[.ics]";
import { readMemorialCalendar } from "~/models/memorials/calendar.server";
import { matchesEtag } from "~/services/etag.server";
import { ANNIVERSARY_MESSAGES } from "~/utils/anniversaries";

// A memorial's anniversaries as an iCalendar feed (docs/decisions/022-anniversary-calendar.md):
// /memorials/{id}/anniversaries.ics for a published public memorial, `?key=…` (its private link) for a
// friends-only or private one, `&download=1` for a one-off file. Everyone else, whatever the reason, gets
// the same 404 as for a memorial that does not exist.
export async function loader({ request, params }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const calendar = await readMemorialCalendar(params.id, url.searchParams.get("key"));
  if (!calendar) {
    return new Response(ANNIVERSARY_MESSAGES.notFound, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  const headers: Record<string, string> = {
    // A public feed is the same for everyone and is asked about again each time (its ETag answers 304);
    // a private link's feed is kept by no shared cache, and no search engine lists it.
    "Cache-Control": calendar.access === "public" ? "public, no-cache" : "private, no-cache",
    ETag: calendar.etag,
    "Last-Modified": calendar.lastModified.toUTCString(),
  };
  if (calendar.access === "private-link") headers["X-Robots-Tag"] = "noindex";
  if (url.searchParams.has("download")) headers["Content-Disposition"] = `attachment; filename="${calendar.fileName}"`;
  if (matchesEtag(request.headers.get("If-None-Match"), calendar.etag)) return new Response(null, { status: 304, headers });
  return new Response(calendar.ics, { headers: { ...headers, "Content-Type": "text/calendar; charset=utf-8" } });
}
