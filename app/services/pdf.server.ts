import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, rgb, type Color, type PDFFont, type PDFPage } from "pdf-lib";
import sharp from "sharp";

// The PDFs the app makes (the headstone QR sheet, the printed memorial book) are drawn with pdf-lib
// in DejaVu Sans, embedded and subset, so a name in any Latin, Greek or Cyrillic script prints as
// typed (pdf-lib's standard fonts know only Windows-1252 and would refuse "Łucja" or "Σοφία").

const require = createRequire(import.meta.url);
const fontFile = (name: string) => require.resolve(`dejavu-fonts-ttf/ttf/${name}`);

let fontBytes: Promise<{ regular: Buffer; bold: Buffer; oblique: Buffer }> | undefined;

function loadFonts() {
  fontBytes ??= Promise.all([
    readFile(fontFile("DejaVuSans.ttf")),
    readFile(fontFile("DejaVuSans-Bold.ttf")),
    readFile(fontFile("DejaVuSans-Oblique.ttf")),
  ]).then(([regular, bold, oblique]) => ({ regular, bold, oblique }));
  return fontBytes;
}

export type PdfFonts = { regular: PDFFont; bold: PDFFont; oblique: PDFFont };

/** A new document with the fonts embedded (subset: only the letters used are written). */
export async function newPdf(info: { title: string; subject?: string }): Promise<{ pdf: PDFDocument; fonts: PdfFonts }> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const bytes = await loadFonts();
  const [regular, bold, oblique] = await Promise.all([
    pdf.embedFont(bytes.regular, { subset: true }),
    pdf.embedFont(bytes.bold, { subset: true }),
    pdf.embedFont(bytes.oblique, { subset: true }),
  ]);
  pdf.setTitle(info.title);
  if (info.subject) pdf.setSubject(info.subject);
  pdf.setCreator("Everlight");
  pdf.setProducer("Everlight");
  return { pdf, fonts: { regular, bold, oblique } };
}

/** A4 in PDF points (1/72 inch). */
export const A4 = { width: 595.28, height: 841.89 } as const;

/** Millimetres to PDF points. */
export const mm = (value: number) => (value * 72) / 25.4;

/**
 * `text` broken into lines no wider than `maxWidth` at `size` (words kept whole; a word longer than
 * a line is broken where it must be). Blank lines in the text are kept as paragraph breaks ("").
 */
export function wrapText(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  const width = (s: string) => font.widthOfTextAtSize(s, size);
  for (const paragraph of text.replace(/\r\n?/g, "\n").split("\n")) {
    const words = paragraph.split(/\s+/).filter(Boolean);
    if (!words.length) {
      lines.push("");
      continue;
    }
    let line = "";
    for (let word of words) {
      while (width(word) > maxWidth) {
        let cut = word.length - 1;
        while (cut > 1 && width(word.slice(0, cut)) > maxWidth) cut--;
        if (line) lines.push(line);
        lines.push(word.slice(0, cut));
        line = "";
        word = word.slice(cut);
      }
      const candidate = line ? `${line} ${word}` : word;
      if (width(candidate) <= maxWidth) line = candidate;
      else {
        lines.push(line);
        line = word;
      }
    }
    if (line) lines.push(line);
  }
  return lines;
}

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

/** "3 / 12" at the foot of every page from `from` (0-based), with `label` on the left. */
export function numberPages(pdf: PDFDocument, font: PDFFont, { from = 0, label = "", size = 8.5 } = {}) {
  const pages = pdf.getPages();
  pages.forEach((page, i) => {
    if (i < from) return;
    const text = `${i + 1} / ${pages.length}`;
    const y = mm(10);
    page.drawText(text, { x: A4.width - mm(20) - font.widthOfTextAtSize(text, size), y, size, font, color: rgb(0.35, 0.35, 0.4) });
    if (label) page.drawText(label, { x: mm(20), y, size, font, color: rgb(0.35, 0.35, 0.4) });
  });
}

/** One line drawn centred across an A4 page, its baseline at `y`. */
export function drawCentred(page: PDFPage, text: string, y: number, font: PDFFont, size: number, color?: Color) {
  page.drawText(text, { x: (A4.width - font.widthOfTextAtSize(text, size)) / 2, y, size, font, ...(color ? { color } : {}) });
}
