import sharp from "sharp";
import { NEWS_IMAGE_WIDTHS } from "~/utils/news";
import { MAX_IMAGE_BYTES } from "~/utils/upload-limits";

// Image uploads (profile pictures now, product and memorial images later): must be an image (Invalid
// file type), at most 5MB (File too large: …), and readable (Failed to process image). What a file *is*
// comes from its first bytes, never from its name or declared type, and
// SVG (which can carry script) or HTML never count as images here. Every accepted image is re-encoded,
// which also drops whatever else was hidden in the file (EXIF with GPS positions, trailing data).

export { MAX_IMAGE_BYTES, MAX_IMAGE_UPLOAD_BYTES } from "~/utils/upload-limits";

export type ImageType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

export const IMAGE_REJECTIONS = {
  type: { status: 415, message: "Invalid file type" },
  // The words members are shown, "5MB" written as it always is on the site.
  size: { status: 413, message: `File too large: Please select an image smaller than ${MAX_IMAGE_BYTES / (1024 * 1024)}MB` },
  unreadable: { status: 400, message: "Failed to process image. Please try again." },
} as const;

export class ImageRejectedError extends Error {
  readonly status: 400 | 413 | 415;
  constructor(readonly reason: keyof typeof IMAGE_REJECTIONS) {
    super(IMAGE_REJECTIONS[reason].message);
    this.name = "ImageRejectedError";
    this.status = IMAGE_REJECTIONS[reason].status;
  }
}

function startsWith(bytes: Uint8Array, signature: number[], offset = 0) {
  return bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
}

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The image type by magic bytes, or null for anything that is not one of the four we accept. */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

// A small file can still declare a huge canvas (a "decompression bomb"); refuse to decode more than
// this many pixels (about 100 megapixels, more than any phone camera takes).
const MAX_INPUT_PIXELS = 100_000_000;

/**
 * Re-encodes as WebP at the given size: turned upright by its EXIF orientation, then every piece of
 * metadata dropped (sharp keeps none unless asked with withMetadata/keepExif, which we never do).
 * Animated GIF/WebP keep their first frame only. Unreadable input: ImageRejectedError("unreadable").
 */
export async function toWebp(
  bytes: Uint8Array,
  { width, height, fit }: { width: number; height: number; fit: "cover" | "contain" | "inside" | "fill" | "outside" },
): Promise<Buffer> {
  try {
    return await sharp(bytes, {
      limitInputPixels: MAX_INPUT_PIXELS,
      sequentialRead: true,
      // Cameras often write files with harmless warnings (extra bytes before a marker); refusing those
      // would turn away real photos. Real errors (truncated beyond repair, not an image) still fail.
      failOn: "error",
    })
      .rotate()
      .resize({ width, height, fit, withoutEnlargement: false })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    throw new ImageRejectedError("unreadable");
  }
}

/**
 * A news article's picture as our own WebP copies (never hot-linked from another site): only
 * JPEG, PNG, GIF or WebP by their bytes, decoded within the pixel limit, cropped to 16:9 at each width,
 * every piece of metadata dropped. Not an image, or unreadable: null.
 */
export async function newsImageVariants(bytes: Uint8Array): Promise<{ width: number; body: Buffer }[] | null> {
  if (!detectImageType(bytes)) return null;
  try {
    return await Promise.all(
      NEWS_IMAGE_WIDTHS.map(async (width) => ({ width, body: await toWebp(bytes, { width, height: Math.round((width * 9) / 16), fit: "cover" }) })),
    );
  } catch {
    return null;
  }
}

/** A link preview's picture (Open Graph, Twitter cards): 1200×630, the size every network shows whole. */
export const SOCIAL_CARD = { width: 1200, height: 630 } as const;

/**
 * A memorial's portrait as its social card: cover-cropped to 1200×630 around what draws
 * the eye (sharp's attention strategy keeps a face rather than the middle), as a JPEG, which every network
 * reads. Unreadable input: ImageRejectedError("unreadable").
 */
export async function toSocialCard(bytes: Uint8Array): Promise<Buffer> {
  try {
    return await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
      .rotate()
      .resize({ ...SOCIAL_CARD, fit: "cover", position: sharp.strategy.attention })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
  } catch {
    throw new ImageRejectedError("unreadable");
  }
}
