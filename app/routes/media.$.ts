import type { Route } from "./+types/media.$";
import { socialCardObject } from "~/models/memorials/media.server";
import { canViewMemorial } from "~/models/memorials/access.server";
import { getOptionalUser } from "~/request/auth.server";
import { getObject, isValidKey } from "~/services/storage.server";
import { resourceNotFound } from "~/request/not-found.server";

// Serves stored uploads at /media/<key>, each prefix with its own access rule:
// - avatars/<uuid>.webp: public (shown beside a member's name); random per upload, so cached for a year;
// - products/<uuid>/…: a product's picture and its resized copies, public like the shop; random per upload;
// - news/<uuid>-<width>.webp: public, our own copies of news pictures, random per article,
//   so cached for a year too;
// - memorials/<memorialId>/…: only to those who may see that memorial (memorials/access-rules.ts) — an unlisted one's
//   to anyone who has the address, as its page is, and its portrait's card.jpg to link previews — cached
//   publicly (a CDN may keep them) only while the memorial is published and public.
// Anything else is a 404, so nothing stored elsewhere (the vault) can be fetched here by accident.
// A refusal is a 404 too: it does not tell a stranger that the file exists.

/** How long a shared cache may keep a public memorial's file: 5 minutes, then it asks again. */
const PUBLIC_MEMORIAL_MEDIA_CACHE = "public, max-age=300, must-revalidate";

const MEMORIAL_KEY = /^memorials\/([0-9a-f-]{36})\//;
const NEWS_KEY = /^news\/[0-9a-f-]{36}-\d{2,4}\.webp$/;

export async function loader({ request, params }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  if (!isValidKey(key)) return resourceNotFound();
  let cacheControl: string;
  if (key.startsWith("avatars/") || key.startsWith("products/") || NEWS_KEY.test(key)) {
    cacheControl = "public, max-age=31536000, immutable";
  } else {
    const memorialId = MEMORIAL_KEY.exec(key)?.[1];
    if (!memorialId) return resourceNotFound();
    const access = await canViewMemorial(memorialId, await getOptionalUser(request));
    if (!access?.allowed) return resourceNotFound();
    // A memorial can turn private later: its files must then stop being served from shared caches within
    // minutes (a day plus a week of stale-while-revalidate kept them out there for 8 days).
    cacheControl = access.isPublic ? PUBLIC_MEMORIAL_MEDIA_CACHE : "private, no-cache";
  }
  // A portrait's social card (card.jpg) is made the first time a link preview asks for it (memorials/media.server.ts).
  const object = key.endsWith("/card.jpg") ? await socialCardObject(key) : await getObject(key);
  if (!object) return resourceNotFound();
  return serve(request, object.body, object.contentType, cacheControl);
}

/** Whole file, or the byte range a video player asks for when it seeks. */
function serve(request: Request, body: Buffer, contentType: string, cacheControl: string) {
  const headers: Record<string, string> = {
    "Content-Type": contentType,
    "Cache-Control": cacheControl,
    "Accept-Ranges": "bytes",
    "Content-Disposition": "inline",
  };
  const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get("Range") ?? "");
  if (range && (range[1] || range[2])) {
    const size = body.byteLength;
    const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start >= size || start > end) {
      return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
    }
    const part = body.subarray(start, end + 1);
    return new Response(new Uint8Array(part), {
      status: 206,
      headers: { ...headers, "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": String(part.byteLength) },
    });
  }
  return new Response(new Uint8Array(body), { headers: { ...headers, "Content-Length": String(body.byteLength) } });
}
