import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type Color, type PDFFont, type PDFPage } from "pdf-lib";

// The PDFs the app makes (the headstone QR sheet, the printed memorial book) are drawn with pdf-lib
// in DejaVu (Sans for the sheet, Serif for the book), embedded and subset, so a name in any Latin, Greek or Cyrillic script prints as
// typed (pdf-lib's standard fonts know only Windows-1252 and would refuse "Łucja" or "Σοφία").

const require = createRequire(import.meta.url);
const fontFile = (name: string) => require.resolve(`dejavu-fonts-ttf/ttf/${name}`);

/** The sans for sheets (the QR sheet); the serif, a book face, for the printed book. */
export type PdfFace = "sans" | "serif";
const FACE_FILES: Record<PdfFace, [string, string, string]> = {
  sans: ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf"],
  serif: ["DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif-Italic.ttf"],
};
const fontBytes = new Map<PdfFace, Promise<{ regular: Buffer; bold: Buffer; oblique: Buffer }>>();

function loadFonts(face: PdfFace) {
  let bytes = fontBytes.get(face);
  if (!bytes) {
    bytes = Promise.all(FACE_FILES[face].map((name) => readFile(fontFile(name)))).then(([regular, bold, oblique]) => ({ regular, bold, oblique }));
    fontBytes.set(face, bytes);
  }
  return bytes;
}

export type PdfFonts = { regular: PDFFont; bold: PDFFont; oblique: PDFFont };

/** A new document with the fonts embedded (subset: only the letters used are written). */
export async function newPdf(info: { title: string; subject?: string; face?: PdfFace }): Promise<{ pdf: PDFDocument; fonts: PdfFonts }> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const bytes = await loadFonts(info.face ?? "sans");
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
 *
 * Linear in the text's length: widths come from the characters' own (each measured once), and only a line
 * near its full width is measured whole; a word too long for a line is cut where its characters fill it. Measuring every
 * prefix of a long word instead took 13 s for 990 unbroken characters, on the thread that answers requests.
 */
export function wrapText(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  const width = (s: string) => font.widthOfTextAtSize(s, size);
  const charWidths = new Map<string, number>();
  const charWidth = (c: string) => {
    let w = charWidths.get(c);
    if (w === undefined) charWidths.set(c, (w = width(c)));
    return w;
  };
  /**
   * A word's width from its characters' (each measured once): exact enough far from the edge of a line,
   * measured whole near it, where kerning could tip it over. A long word is never measured whole.
   */
  const estimate = (word: string) => {
    let sum = 0;
    for (const c of word) sum += charWidth(c);
    return Math.abs(sum - maxWidth) < maxWidth * 0.05 ? width(word) : sum;
  };
  /** How many characters of `word` (at least one) fit on a line of their own. */
  const fitting = (word: string) => {
    let used = 0;
    let cut = 0;
    for (const c of word) {
      used += charWidth(c);
      if (used > maxWidth) break;
      cut += c.length;
    }
    // Kerning can make the whole a little wider than its characters: step back until it fits.
    while (cut > 1 && width(word.slice(0, cut)) > maxWidth) cut--;
    return Math.max(1, cut);
  };
  for (const paragraph of text.replace(/\r\n?/g, "\n").split("\n")) {
    const words = paragraph.split(/\s+/).filter(Boolean);
    if (!words.length) {
      lines.push("");
      continue;
    }
    let line = "";
    let lineWidth = 0;
    for (let word of words) {
      let wordWidth = estimate(word);
      while (wordWidth > maxWidth) {
        const cut = fitting(word);
        if (line) lines.push(line);
        lines.push(word.slice(0, cut));
        line = "";
        lineWidth = 0;
        word = word.slice(cut);
        wordWidth = estimate(word);
      }
      if (!line) {
        line = word;
        lineWidth = wordWidth;
        continue;
      }
      const candidate = `${line} ${word}`;
      // Measured whole only when it might not fit: a line's width is at most the sum of its parts and a space.
      const guess = lineWidth + charWidth(" ") + wordWidth;
      const candidateWidth = guess <= maxWidth * 0.98 ? guess : width(candidate);
      if (candidateWidth <= maxWidth) {
        line = candidate;
        lineWidth = candidateWidth;
      } else {
        lines.push(line);
        line = word;
        lineWidth = wordWidth;
      }
    }
    if (line) lines.push(line);
  }
  return lines;
}

/** One line drawn centred across an A4 page, its baseline at `y`. */
export function drawCentred(page: PDFPage, text: string, y: number, font: PDFFont, size: number, color?: Color) {
  page.drawText(text, { x: (A4.width - font.widthOfTextAtSize(text, size)) / 2, y, size, font, ...(color ? { color } : {}) });
}
