// The /api takes files as base64 (memorial-core.md §3: "Media is sent as base64 data URLs; stored media
// may appear with or without a data: prefix"). One decoder for every such call: untrusted input, so
// anything that is not cleanly a data URL or bare base64 is refused rather than guessed at.

const DATA_URL_PREFIX = /^data:(?:[\w.+-]+\/[\w.+-]+)?(?:;[\w.+-]+=[^;,]*)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of a base64 data URL or of bare base64, or null when it is neither (or empty). */
export function decodeDataUrl(value: unknown): Uint8Array | null {
  if (typeof value !== "string" || value.length === 0) return null;
  const prefix = DATA_URL_PREFIX.exec(value);
  if (value.startsWith("data:") && !prefix) return null;
  const payload = (prefix ? value.slice(prefix[0].length) : value).replace(/\s+/g, "");
  if (payload.length === 0 || payload.length % 4 === 1 || !BASE64.test(payload)) return null;
  const bytes = Buffer.from(payload, "base64");
  return bytes.byteLength > 0 ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
}
