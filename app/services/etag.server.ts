import { createHash } from "node:crypto";

// Answers that are the same for everyone and asked about again each time (`public, no-cache`): the ETag
// that lets a browser, a CDN or a crawler hear 304 instead of the whole body again.

/** A strong ETag for these bytes. */
export function etagOf(body: string): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** Whether the request's If-None-Match names this ETag (or `*`), weak or strong alike (RFC 9110's weak comparison). */
export function matchesEtag(header: string | null | undefined, etag: string) {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return !!header && (header.trim() === "*" || header.split(",").some((tag) => opaque(tag) === opaque(etag)));
}
