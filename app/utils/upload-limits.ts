// How much a request may carry.
// Every request body is bounded by the server before any route reads it (server/request-handler.ts):
// DEFAULT_BODY_BYTES for every form and /api call, raised only by the routes that take files, which say
// so in their `handle` (e.g. `export const handle = { body: { maxBytes: MEDIA_LIMITS.requestBytes } }`)
// and check who is asking before they read it. Pure numbers, so route modules can import them.

/** Every request body unless its route raises it: a page form or a JSON call is a few kilobytes. */
export const DEFAULT_BODY_BYTES = 64 * 1024;

/** What a route that takes files declares in its `handle`. */
export type RequestBodyHandle = { body?: { maxBytes: number } };

const MB = 1024 * 1024;

/** Photos and videos of memorials (our limits; README). */
export const MEDIA_LIMITS = {
  /** Phone photos are 3–12 MB; 20 MB leaves room for good cameras. */
  imageBytes: 20 * MB,
  /** About two minutes of phone video (README). */
  videoBytes: 100 * MB,
  /** One form post (profile photo + several files), so one request cannot exhaust memory. */
  requestBytes: 250 * MB,
  /** Files per memorial: bounded, so a gallery page stays a reasonable size. */
  filesPerMemorial: 50,
} as const;

/** Profile pictures (and later product images), 5MB. */
export const MAX_IMAGE_BYTES = 5 * MB;

/** Room for the multipart envelope (boundaries, headers, other fields) around one image. */
export const MAX_IMAGE_UPLOAD_BYTES = MAX_IMAGE_BYTES + 64 * 1024;

/** A JSON body carrying a file of `bytes` as base64 (4 characters per 3 bytes), with room for the rest. */
export function base64BodyBytes(bytes: number) {
  return Math.ceil(bytes / 3) * 4 + 64 * 1024;
}

/** "64 KB", "250 MB": a limit in words for people. */
export function describeBytes(bytes: number) {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / 1024)} KB`;
}
