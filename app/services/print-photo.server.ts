import sharp from "sharp";

// Photos made ready for a printed page. This runs where the photos are read (sharp works on its own
// threads); the page itself is laid out elsewhere, away from the thread that answers requests.

/** The most pixels a photo is printed with on its longest side, however large the space (bounds memory and file size). */
export const MAX_PRINT_PIXELS = 2400;

/**
 * A photo ready for pdf-lib (which embeds only JPEG and PNG): any image sharp reads (WebP, GIF, PNG,
 * JPEG…) turned upright, flattened on white and made a JPEG of about `dpi` for a box of `widthMm` ×
 * `heightMm` (never enlarged, never beyond MAX_PRINT_PIXELS). Null when it cannot be read.
 */
export async function printJpeg(bytes: Uint8Array, widthMm: number, heightMm: number, dpi = 300): Promise<Buffer | null> {
  const px = (v: number) => Math.min(MAX_PRINT_PIXELS, Math.max(1, Math.round((v / 25.4) * dpi)));
  try {
    return await sharp(bytes, { limitInputPixels: 100_000_000, failOn: "error" })
      .rotate()
      .resize({ width: px(widthMm), height: px(heightMm), fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
  } catch {
    return null;
  }
}
