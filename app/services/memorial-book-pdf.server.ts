import { rgb, type PDFDocument, type PDFFont, type PDFImage, type PDFPage } from "pdf-lib";
import { formatLifeDates, formatLongDate } from "~/utils/dates";
import { A4, drawCentred, mm, newPdf, numberPages, wrapText, type PdfFonts } from "./pdf.server";

// The printed memorial book (issue 29 item 5; docs/decisions/029-memorial-book.md): an A4 PDF ready for
// the printer, laid out here from the book's content (app/models/memorial-book.server.ts decides what goes
// in and freezes it when the book is paid for). A cover with the portrait, the name and the dates; then the
// life story, flowing over as many pages as it needs; the life timeline; a selection of photos, two to a
// row; the approved tributes; every page after the cover numbered. Laying out is pure work on data (the
// photos come in ready to print), so it runs on a worker thread (app/services/book-render.server.ts).

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

const MARGIN = mm(20);
const WIDTH = A4.width - 2 * MARGIN;
const TOP = A4.height - mm(22);
const BOTTOM = mm(20);
const INK = rgb(0.11, 0.12, 0.16);
const SOFT = rgb(0.33, 0.35, 0.42);
const ACCENT = rgb(0.27, 0.25, 0.55);

/** A column of text that runs on to a new page when the page is full. */
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

  /** Room for `height` points, or a new page. */
  need(height: number) {
    if (this.y - height < BOTTOM) this.newPage();
  }

  heading(text: string) {
    this.need(mm(30));
    if (this.y < TOP) this.y -= mm(6);
    for (const line of wrapText(text, this.fonts.bold, 18, WIDTH)) {
      this.page.drawText(line, { x: MARGIN, y: this.y - 18, size: 18, font: this.fonts.bold, color: ACCENT });
      this.y -= 24;
    }
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: MARGIN + WIDTH, y: this.y }, thickness: 0.6, color: ACCENT });
    this.y -= mm(5);
  }

  /** Paragraphs of `text`, each line where it fits; a line never splits across pages. */
  text(text: string, { font = this.fonts.regular, size = 11, color = INK, indent = 0, after = 4 } = {}) {
    const lead = size * 1.45;
    for (const line of wrapText(text, font, size, WIDTH - indent)) {
      this.need(lead);
      if (line) this.page.drawText(line, { x: MARGIN + indent, y: this.y - size, size, font, color });
      this.y -= line ? lead : lead * 0.6;
    }
    this.y -= after;
  }
}

/**
 * The book's photos as print JPEGs, in the content's order: the portrait for a 100 mm square, each photo
 * for an 80 × 70 mm box; null where a photo is gone or unreadable.
 */
export type BookPhotos = { portrait: Uint8Array | null; photos: (Uint8Array | null)[] };

/** Where the photos are printed, in millimetres: what they are made ready for. */
export const BOOK_PHOTO_BOXES = { portrait: { widthMm: 100, heightMm: 100 }, photo: { widthMm: 80, heightMm: 70 } } as const;

async function embed(pdf: PDFDocument, jpeg: Uint8Array | null | undefined): Promise<PDFImage | null> {
  return jpeg ? pdf.embedJpg(jpeg).catch(() => null) : null;
}

/** Draws `image` fitted inside the box (x, top y, w × h points), centred; returns the height used. */
function drawFitted(page: PDFPage, image: PDFImage, x: number, top: number, w: number, h: number) {
  const scale = Math.min(w / image.width, h / image.height);
  const dw = image.width * scale;
  const dh = image.height * scale;
  page.drawImage(image, { x: x + (w - dw) / 2, y: top - dh, width: dw, height: dh });
  return dh;
}

const centred = (page: PDFPage, text: string, y: number, font: PDFFont, size: number, color = INK) => drawCentred(page, text, y, font, size, color);

/** The whole book as PDF bytes. */
export async function renderMemorialBook(content: BookContent, photos: BookPhotos): Promise<Uint8Array<ArrayBuffer>> {
  const { pdf, fonts } = await newPdf({ title: `${content.name} — a memorial book`, subject: "Printed memorial book, Everlight" });

  // The cover.
  const cover = pdf.addPage([A4.width, A4.height]);
  cover.drawRectangle({ x: mm(12), y: mm(12), width: A4.width - mm(24), height: A4.height - mm(24), borderColor: ACCENT, borderWidth: 1.2 });
  let y = A4.height - mm(40);
  centred(cover, "In loving memory of", y, fonts.oblique, 14, SOFT);
  y -= mm(10);
  const portrait = await embed(pdf, photos.portrait);
  if (portrait) {
    const size = mm(100);
    y -= drawFitted(cover, portrait, (A4.width - size) / 2, y, size, size) + mm(12);
  } else y -= mm(30);
  for (const line of wrapText(content.name, fonts.bold, 30, WIDTH)) {
    centred(cover, line, y - 30, fonts.bold, 30);
    y -= 38;
  }
  const dates = formatLifeDates(content.dateOfBirth, content.dateOfPassing) || null;
  if (dates) {
    y -= mm(4);
    centred(cover, dates, y - 14, fonts.regular, 14, SOFT);
    y -= 24;
  }
  if (content.title && content.title !== content.name) {
    for (const line of wrapText(content.title, fonts.oblique, 13, WIDTH - mm(20)).slice(0, 4)) {
      centred(cover, line, y - 14, fonts.oblique, 13, SOFT);
      y -= 19;
    }
  }
  centred(cover, "Everlight", mm(20), fonts.regular, 9, SOFT);

  const flow = new Flow(pdf, fonts);
  flow.newPage();

  flow.heading("Life story");
  if (content.biography?.trim()) {
    for (const paragraph of content.biography.split(/\n\s*\n/).filter((p) => p.trim())) flow.text(paragraph.trim(), { after: 8 });
  } else flow.text("No life story was written for this book.", { color: SOFT });

  if (content.timeline.length) {
    flow.heading("Life timeline");
    for (const event of content.timeline) {
      flow.need(40);
      flow.text(event.date, { font: fonts.bold, size: 10, color: ACCENT, after: 0 });
      flow.text(event.title, { font: fonts.bold, size: 11, after: event.description ? 0 : 8 });
      if (event.description) flow.text(event.description, { size: 10.5, after: 8 });
    }
  }

  if (content.photos.length) {
    flow.heading("Photographs");
    const gap = mm(8);
    const boxW = (WIDTH - gap) / 2;
    const boxH = mm(70);
    const images = await Promise.all(content.photos.map((_, i) => embed(pdf, photos.photos[i])));
    const shown = content.photos.map((p, i) => ({ ...p, image: images[i] })).filter((p) => p.image);
    for (let i = 0; i < shown.length; i += 2) {
      flow.need(boxH + mm(14));
      let rowHeight = 0;
      for (let c = 0; c < 2 && i + c < shown.length; c++) {
        const { image, caption } = shown[i + c];
        const x = MARGIN + c * (boxW + gap);
        const used = drawFitted(flow.page, image!, x, flow.y, boxW, boxH);
        let captionY = flow.y - used - 12;
        if (caption) {
          for (const line of wrapText(caption, fonts.oblique, 9, boxW).slice(0, 2)) {
            flow.page.drawText(line, { x, y: captionY, size: 9, font: fonts.oblique, color: SOFT });
            captionY -= 12;
          }
        }
        rowHeight = Math.max(rowHeight, flow.y - captionY);
      }
      flow.y -= rowHeight + mm(4);
    }
    if (!shown.length) flow.text("The photos of this memorial could not be printed.", { color: SOFT });
  }

  if (content.tributes.length) {
    flow.heading("Tributes");
    for (const tribute of content.tributes) {
      flow.need(50);
      flow.text(tribute.content, { after: 2 });
      flow.text(`— ${tribute.authorName}, ${formatLongDate(tribute.date)}`, { font: fonts.oblique, size: 10, color: SOFT, after: 12 });
    }
  }

  const label = content.name.length > 60 ? `${content.name.slice(0, 59)}…` : content.name;
  numberPages(pdf, fonts.regular, { from: 1, label });
  return new Uint8Array(await pdf.save());
}
