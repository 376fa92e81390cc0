import type { Route } from "./+types/media.$";
import { getObject, isValidKey } from "~/services/storage.server";

// Serves stored uploads at /media/<key>. Only profile pictures for now: they are public (shown beside
// a member's name) and their keys are random, one per upload, so a year's immutable caching is safe.
// Memorial media and vault files get their own prefixes and access rules in their issues; until then
// every other key is a 404, so nothing uploaded elsewhere can be fetched here by accident.

const PUBLIC_PREFIXES = ["avatars/"];

export async function loader({ params }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  if (!isValidKey(key) || !PUBLIC_PREFIXES.some((p) => key.startsWith(p))) return notFound();
  const object = await getObject(key);
  if (!object) return notFound();
  return new Response(new Uint8Array(object.body), {
    headers: {
      "Content-Type": object.contentType,
      "Content-Length": String(object.body.byteLength),
      // Never let a browser guess a different type from the bytes.
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Disposition": "inline",
    },
  });
}

function notFound() {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
