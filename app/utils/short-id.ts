// A memorial's short id, the key of its permanent address /m/<shortId>
// (docs/decisions/028-permanent-address-and-qr.md). The database makes them (memorial_short_id(),
// migration 20261128110000_memorial_short_ids) with this alphabet and length, and a CHECK holds every
// stored one to them; here they are read back from an address someone typed or scanned.

/** Digits and lower-case letters without 0, 1, i, l and o, which are misread on stone and paper. */
export const SHORT_ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
export const SHORT_ID_LENGTH = 8;

const SHORT_ID = new RegExp(`^[${SHORT_ID_ALPHABET}]{${SHORT_ID_LENGTH}}$`);

/**
 * The short id in an address, or null when it cannot be one. Letters are read in either case (someone
 * typing the printed address may type capitals); anything else, a 0 or an l included, is not guessed at.
 */
export function parseShortId(value: string | undefined | null): string | null {
  if (!value || value.length !== SHORT_ID_LENGTH) return null;
  const id = value.toLowerCase();
  return SHORT_ID.test(id) ? id : null;
}

/** The permanent path of a memorial: /m/<shortId>. */
export function permanentPath(shortId: string): string {
  return `/m/${shortId}`;
}

/** The QR code's downloads: /memorials/<id>/qr/<format>. */
export const QR_FORMATS = ["svg", "png", "pdf"] as const;
export type QrFormat = (typeof QR_FORMATS)[number];

export function isQrFormat(value: string | undefined): value is QrFormat {
  return (QR_FORMATS as readonly string[]).includes(value ?? "");
}
