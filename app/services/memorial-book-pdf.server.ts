import { rgb, type PDFDocument, type PDFFont, type PDFImage, type PDFPage } from "pdf-lib";
import { formatLifeDates, formatLongDate } from "~/utils/dates";
import { A4, drawCentred, mm, newPdf, wrapText, type PdfFonts } from "./pdf.server";

// The printed memorial book: an A4 PDF ready for the printer, laid out here from the book's content
// (app/models/memorials/book.server.ts decides what goes in and freezes it when the book is paid for).
// It is set as a keepsake rather than a report: a book face (DejaVu Serif) at a reading size and measure
// (11 pt on a 135 mm column, about 65 characters a line); a cover with the portrait, or an ornament when
// there is none, and no brand on it; each part (life story, timeline, photographs, tributes) opening a new
// page under its heading, so no heading is left at a page's foot; a timeline entry and a tribute kept whole
// on one page (one longer than a page starts a page of its own); the photographs in a grid, two to a row,
// each in the same cell with its caption on one line beneath; a folio at the foot of every page after the
// cover; and a colophon, where the name of the service belongs, at the end. Laying out is pure work on
// data (the photos come in ready to print), so it runs on a worker thread (app/services/book-render.server.ts).

/** What a book prints: plain data, so it can be frozen in an order (JSON) and printed again the same. */
export type BookContent = {
  version: 1;
  name: string;
  title: string | null;
  dateOfBirth: string | null;
  dateOfPassing: string | null;
  biography: string | null;
  /** Stored keys (app/services/storage.server.ts) of the portrait and the photos, as printed (their 1,600 px copies). */
  portraitKey: string | null;
  photos: { key: string; caption: string | null }[];
  timeline: { date: string; title: string; description: string | null }[];
  tributes: { authorName: string; content: string; date: string }[];
};

/**
 * The book's photos as print JPEGs, in the content's order: the portrait for its square on the cover, each
 * photo for its grid cell; null where a photo is gone or unreadable.
 */
export type BookPhotos = { portrait: Uint8Array | null; photos: (Uint8Array | null)[] };

const COLUMN_MM = 135;
const PHOTO_GAP_MM = 5;
/** A photograph's square cell: half the column, less half the gap between two. */
const CELL_MM = (COLUMN_MM - PHOTO_GAP_MM) / 2;

/** Where the photos are printed, in millimetres: what they are made ready for. */
export const BOOK_PHOTO_BOXES = { portrait: { widthMm: 90, heightMm: 90 }, photo: { widthMm: CELL_MM, heightMm: CELL_MM } } as const;

const COLUMN = mm(COLUMN_MM);
const LEFT = (A4.width - COLUMN) / 2;
const TOP = A4.height - mm(30);
const BOTTOM = mm(28);
const FOOT = mm(15);

const BODY = 11;
const LEAD = BODY * 1.5;
const INK = rgb(0.16, 0.13, 0.13);
const SOFT = rgb(0.36, 0.33, 0.31);
/** Heather, the site's colour, deep enough to print. */
const ACCENT = rgb(0.39, 0.17, 0.28);
const GOLD = rgb(0.82, 0.6, 0.3);

const PHOTO_GAP = mm(PHOTO_GAP_MM);
const CELL = mm(CELL_MM);
const CAPTION = 9;

/** Sizes of a heading at the top of a part's first page. */
const HEADING = 22;

type Line = { text: string; font: PDFFont; size: number; color: ReturnType<typeof rgb>; indent?: number; lead: number };

/** A column that runs on to a new page when the page is full. */
class Flow {
  page!: PDFPage;
  y = 0;
  constructor(
    private readonly pdf: PDFDocument,
    readonly fonts: PdfFonts,
  ) {}

  newPage() {
    this.page = this.pdf.addPage([A4.width, A4.height]);
    this.y = TOP;
  }

  get room() {
    return this.y - BOTTOM;
  }

  /** A part of the book: a new page, its heading centred with a short rule beneath. */
  part(title: string) {
    this.newPage();
    for (const line of wrapText(title, this.fonts.regular, HEADING, COLUMN)) {
      drawCentred(this.page, line, this.y - HEADING, this.fonts.regular, HEADING, ACCENT);
      this.y -= HEADING * 1.3;
    }
    this.y -= mm(3);
    this.page.drawLine({ start: { x: A4.width / 2 - mm(10), y: this.y }, end: { x: A4.width / 2 + mm(10), y: this.y }, thickness: 0.7, color: GOLD });
    this.y -= mm(10);
  }

  /** Lines of text, set from `lines`; a line never splits across pages. */
  lines(lines: Line[]) {
    for (const line of lines) {
      if (this.room < line.lead) this.newPage();
      if (line.text)
        this.page.drawText(line.text, { x: LEFT + (line.indent ?? 0), y: this.y - line.size, size: line.size, font: line.font, color: line.color });
      this.y -= line.text ? line.lead : line.lead * 0.6;
    }
  }

  /**
   * `lines` kept together: a new page first if they do not fit on this one. Lines longer than a page start
   * one of their own and run on from there.
   */
  keepTogether(lines: Line[], after: number) {
    const height = lines.reduce((sum, l) => sum + (l.text ? l.lead : l.lead * 0.6), 0);
    if (height > this.room && this.y < TOP) this.newPage();
    this.lines(lines);
    this.y -= after;
  }

  /** A paragraph: at least two of its lines together at a page's foot, and at least two carried to the next. */
  paragraph(text: string, after = LEAD * 0.6) {
    const lines = this.set(text, { font: this.fonts.regular, size: BODY, color: INK });
    const fit = Math.floor(this.room / LEAD);
    if (fit < lines.length && (fit < 2 || lines.length - fit < 2)) {
      // Break earlier (or not at all here), so that neither page holds a single line of the paragraph.
      const keep = fit < 2 || lines.length < 4 ? 0 : Math.min(fit, lines.length - 2);
      this.lines(lines.slice(0, keep));
      this.newPage();
      this.lines(lines.slice(keep));
    } else this.lines(lines);
    this.y -= after;
  }

  set(text: string, { font, size, color, indent = 0 }: { font: PDFFont; size: number; color: Line["color"]; indent?: number }): Line[] {
    return wrapText(text, font, size, COLUMN - indent).map((line) => ({ text: line, font, size, color, indent, lead: size * 1.5 }));
  }
}

async function embed(pdf: PDFDocument, jpeg: Uint8Array | null | undefined): Promise<PDFImage | null> {
  return jpeg ? pdf.embedJpg(jpeg).catch(() => null) : null;
}

/** Draws `image` fitted inside a box (x, bottom y, w × h points), centred across it and standing on its foot. */
function drawInCell(page: PDFPage, image: PDFImage, x: number, bottom: number, w: number, h: number) {
  const scale = Math.min(w / image.width, h / image.height);
  const dw = image.width * scale;
  const dh = image.height * scale;
  page.drawImage(image, { x: x + (w - dw) / 2, y: bottom, width: dw, height: dh });
}

/** A candle, drawn: the cover's ornament when there is no portrait (the site's placeholder, in its own coordinates). */
function drawCandle(page: PDFPage, centreX: number, top: number, scale: number) {
  // SVG coordinates (y downwards) from the placeholder's 400-unit square, its halo's top at `top`.
  const at = { x: centreX - 200 * scale, y: top + 76 * scale, scale };
  page.drawSvgPath("M126 150a74 74 0 1 0 148 0a74 74 0 1 0 -148 0z", { ...at, color: rgb(0.97, 0.94, 0.89) });
  page.drawSvgPath("M200 96c17 21 23 36 23 50a23 23 0 0 1-46 0c0-14 6-29 23-50z", { ...at, color: GOLD });
  page.drawSvgPath("M172 176h56v120h-56z", { ...at, color: rgb(0.99, 0.97, 0.93), borderColor: rgb(0.86, 0.78, 0.68), borderWidth: 0.6 });
}

/** The cover: a thin double frame, "In loving memory of", the portrait (or a candle), the name, the dates, the epitaph. */
async function drawCover(pdf: PDFDocument, fonts: PdfFonts, content: BookContent, photos: BookPhotos) {
  const cover = pdf.addPage([A4.width, A4.height]);
  for (const inset of [mm(14), mm(16)]) {
    cover.drawRectangle({
      x: inset,
      y: inset,
      width: A4.width - 2 * inset,
      height: A4.height - 2 * inset,
      borderColor: ACCENT,
      borderWidth: inset === mm(14) ? 1 : 0.4,
    });
  }
  let y = A4.height - mm(48);
  drawCentred(cover, "In loving memory of", y, fonts.oblique, 14, SOFT);
  y -= mm(12);
  const portrait = await embed(pdf, photos.portrait);
  if (portrait) {
    const box = mm(BOOK_PHOTO_BOXES.portrait.widthMm);
    const scale = Math.min(box / portrait.width, box / portrait.height);
    const [w, h] = [portrait.width * scale, portrait.height * scale];
    const x = (A4.width - w) / 2;
    cover.drawRectangle({ x: x - mm(2.5), y: y - h - mm(2.5), width: w + mm(5), height: h + mm(5), borderColor: GOLD, borderWidth: 0.8 });
    cover.drawImage(portrait, { x, y: y - h, width: w, height: h });
    y -= h + mm(18);
  } else {
    y -= mm(20);
    drawCandle(cover, A4.width / 2, y, 0.55);
    y -= mm(70);
  }
  const nameSize = content.name.length > 28 ? 26 : 32;
  for (const line of wrapText(content.name, fonts.regular, nameSize, COLUMN + mm(20))) {
    drawCentred(cover, line, y - nameSize, fonts.regular, nameSize, INK);
    y -= nameSize * 1.25;
  }
  const dates = formatLifeDates(content.dateOfBirth, content.dateOfPassing);
  if (dates) {
    y -= mm(5);
    drawCentred(cover, dates, y - 13, fonts.regular, 13, SOFT);
    y -= 22;
  }
  if (content.title && content.title !== content.name) {
    y -= mm(4);
    for (const line of wrapText(content.title, fonts.oblique, 13, COLUMN).slice(0, 4)) {
      drawCentred(cover, line, y - 13, fonts.oblique, 13, SOFT);
      y -= 19;
    }
  }
}

/** The photographs, two to a row in cells of one size, each caption on one line beneath its cell. */
async function drawPhotographs(flow: Flow, pdf: PDFDocument, content: BookContent, photos: BookPhotos) {
  const images = await Promise.all(content.photos.map((_, i) => embed(pdf, photos.photos[i])));
  const shown = content.photos.map((p, i) => ({ ...p, image: images[i] })).filter((p) => p.image);
  if (!shown.length) {
    flow.paragraph("The photos of this memorial could not be printed.");
    return;
  }
  const rowHeight = CELL + CAPTION * 1.6 + mm(7);
  for (let i = 0; i < shown.length; i += 2) {
    if (flow.room < rowHeight) flow.newPage();
    const bottom = flow.y - CELL;
    for (let c = 0; c < 2 && i + c < shown.length; c++) {
      const { image, caption } = shown[i + c];
      const x = LEFT + c * (CELL + PHOTO_GAP);
      drawInCell(flow.page, image!, x, bottom, CELL, CELL);
      if (caption) {
        const [line, more] = wrapText(caption, flow.fonts.oblique, CAPTION, CELL);
        const text = more === undefined ? line : `${line.replace(/\s*\S*$/, "")}…`;
        flow.page.drawText(text, {
          x: x + (CELL - flow.fonts.oblique.widthOfTextAtSize(text, CAPTION)) / 2,
          y: bottom - CAPTION * 1.6,
          size: CAPTION,
          font: flow.fonts.oblique,
          color: SOFT,
        });
      }
    }
    flow.y -= rowHeight;
  }
}

/** The colophon, at the foot of the last page (or a page of its own when that one is full). */
function drawColophon(flow: Flow, content: BookContent) {
  const lines = [
    `This book keeps the memory of ${content.name}: the story, the moments and the photographs gathered by their family, and the words of those who knew them.`,
    "Made with Everlight. Set in DejaVu Serif.",
  ];
  const set = lines.flatMap((text) => wrapText(text, flow.fonts.oblique, 9, COLUMN - mm(20)));
  const height = set.length * 13 + mm(12);
  if (flow.room < height) flow.newPage();
  let y = BOTTOM + height - mm(4);
  flow.page.drawLine({ start: { x: A4.width / 2 - mm(8), y }, end: { x: A4.width / 2 + mm(8), y }, thickness: 0.5, color: GOLD });
  y -= mm(8);
  for (const line of set) {
    drawCentred(flow.page, line, y, flow.fonts.oblique, 9, SOFT);
    y -= 13;
  }
}

/** The whole book as PDF bytes. */
export async function renderMemorialBook(content: BookContent, photos: BookPhotos): Promise<Uint8Array<ArrayBuffer>> {
  const { pdf, fonts } = await newPdf({ title: `${content.name} — a memorial book`, subject: "Printed memorial book", face: "serif" });
  await drawCover(pdf, fonts, content, photos);
  const flow = new Flow(pdf, fonts);

  flow.part("Life story");
  if (content.biography?.trim()) {
    for (const paragraph of content.biography.split(/\n\s*\n/).filter((p) => p.trim())) flow.paragraph(paragraph.trim());
  } else flow.paragraph("No life story was written for this book.");

  if (content.timeline.length) {
    flow.part("Life timeline");
    for (const event of content.timeline) {
      flow.keepTogether(
        [
          ...flow.set(event.date, { font: fonts.regular, size: 10, color: ACCENT }),
          ...flow.set(event.title, { font: fonts.bold, size: BODY, color: INK }),
          ...(event.description ? flow.set(event.description, { font: fonts.regular, size: 10.5, color: INK }) : []),
        ],
        mm(5),
      );
    }
  }

  if (content.photos.length) {
    flow.part("Photographs");
    await drawPhotographs(flow, pdf, content, photos);
  }

  if (content.tributes.length) {
    flow.part("Tributes");
    for (const tribute of content.tributes) {
      const words = tribute.content
        .split(/\n\s*\n/)
        .flatMap((p, i) => [
          ...(i ? [{ text: "", font: fonts.regular, size: BODY, color: INK, lead: LEAD }] : []),
          ...flow.set(p.trim(), { font: fonts.regular, size: BODY, color: INK }),
        ]);
      flow.keepTogether(
        [...words, ...flow.set(`— ${tribute.authorName}, ${formatLongDate(tribute.date)}`, { font: fonts.oblique, size: 10, color: SOFT, indent: mm(10) })],
        mm(9),
      );
    }
  }

  drawColophon(flow, content);
  const label = content.name.length > 60 ? `${content.name.slice(0, 59)}…` : content.name;
  pdf.getPages().forEach((page, i) => {
    if (i > 0) drawCentred(page, `${label} · ${i + 1}`, FOOT, fonts.regular, 8.5, SOFT);
  });
  return new Uint8Array(await pdf.save());
}
