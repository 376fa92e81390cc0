import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { pdfFontNames, pdfImageCount, pdfInfo, pdfWords, type PdfWord } from "../../test/pdf";
import { renderMemorialBook, type BookContent, type BookPhotos } from "./memorial-book-pdf.server";

// The printed book set as a keepsake, checked from the PDF itself on four sample books (short, long,
// photo-heavy, no portrait): a book face throughout; the cover without the brand, which is in the colophon
// at the end; each part's heading at the top of a page with its text beneath (never stranded at a foot);
// no timeline entry and no tribute split across two pages; the photographs in a grid (each row's captions
// on one line, each column's centred on one axis); a reading measure of about 70 characters; a folio on
// every page after the cover. The sample books are written to test-results/books to be looked at.

const OUT = path.join("test-results", "books");

const jpeg = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();

const sentence = (i: number) =>
  `On the ${i}th summer she walked the long way round the harbour wall, stopping to talk with anyone who had the time, and came home with stories for the whole street.`;
const paragraphs = (count: number, sentences: number) =>
  Array.from({ length: count }, (_, p) => Array.from({ length: sentences }, (_, s) => sentence(p * sentences + s + 1)).join(" ")).join("\n\n");

function content(overrides: Partial<BookContent> = {}): BookContent {
  return {
    version: 1,
    name: "Margaret Rose Ellis",
    title: "Beloved grandmother, gardener and teacher",
    dateOfBirth: "1931-04-12",
    dateOfPassing: "2021-11-03",
    biography: paragraphs(2, 3),
    portraitKey: "portrait",
    photos: [],
    timeline: [],
    tributes: [
      { authorName: "Anne Pritchard", content: "Opening1 She welcomed us to Ludlow with a jar of plum jam. Closing1", date: "2021-11-20" },
      { authorName: "Tom Ellis", content: "Opening2 The sweet peas are out again this year. Closing2", date: "2021-12-02" },
    ],
    ...overrides,
  };
}

const tributes = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    authorName: `Friend ${i + 1}`,
    content: `Opening${i + 1} ${Array.from({ length: (i % 5) * 2 + 2 }, (_, s) => sentence(s + 1)).join(" ")} Closing${i + 1}`,
    date: "2022-01-15",
  }));

const SAMPLES: Record<string, () => Promise<{ content: BookContent; photos: BookPhotos }>> = {
  short: async () => ({ content: content(), photos: { portrait: await jpeg(600, 800, "#2a9d8f"), photos: [] } }),
  long: async () => ({
    content: content({
      biography: paragraphs(14, 5),
      timeline: Array.from({ length: 14 }, (_, i) => ({
        date: `June ${i + 1}, ${1950 + i * 4}`,
        title: `Entry${i + 1} A year to remember`,
        description: `${Array.from({ length: (i % 4) + 1 }, (_, s) => sentence(s + 1)).join(" ")} EntryEnd${i + 1}`,
      })),
      tributes: [
        ...tributes(24),
        // Longer than a page: it cannot be kept whole, so it starts a page of its own.
        { authorName: "A long letter", content: `LongOpening ${paragraphs(1, 34)} LongClosing`, date: "2022-02-01" },
      ],
    }),
    photos: { portrait: await jpeg(800, 600, "#2a9d8f"), photos: [] },
  }),
  "photo-heavy": async () => {
    const shapes: [number, number][] = [
      [1200, 800],
      [800, 1200],
      [1000, 1000],
      [1600, 900],
      [700, 1000],
      [1200, 800],
      [900, 1300],
      [1000, 700],
      [1100, 1100],
    ];
    return {
      content: content({
        photos: shapes.map((_, i) => ({ key: `photo-${i}`, caption: i === 4 ? null : `Caption${i + 1} at the seaside in ${1960 + i}` })),
        tributes: tributes(3),
      }),
      photos: { portrait: await jpeg(600, 600, "#2a9d8f"), photos: await Promise.all(shapes.map(([w, h], i) => jpeg(w, h, i % 2 ? "#e76f51" : "#264653"))) },
    };
  },
  "no portrait": async () => ({
    content: content({
      portraitKey: null,
      name: "Winifred Ashby",
      title: null,
      timeline: [{ date: "1950", title: "Entry1 Married", description: "At St Laurence's. EntryEnd1" }],
    }),
    photos: { portrait: null, photos: [] },
  }),
};

const PARTS = ["Life story", "Life timeline", "Photographs", "Tributes"];
const FOLIO = /·/;

/** The words of a page that are not its folio (the line at the page's foot). */
const bodyOf = (words: PdfWord[], page: number) => {
  const onPage = words.filter((w) => w.page === page);
  const foot = Math.max(...onPage.map((w) => w.yMin));
  return onPage.filter((w) => w.yMin < foot - 1);
};

/** Lines of a page as its words grouped by where they stand. */
const linesOf = (words: PdfWord[]) => {
  const lines = new Map<number, PdfWord[]>();
  for (const word of words) {
    const key = Math.round(word.yMin);
    lines.set(key, [...(lines.get(key) ?? []), word]);
  }
  return [...lines.entries()]
    .sort(([a], [b]) => a - b)
    .map(([y, ws]) => ({ y, text: ws.map((w) => w.text).join(" "), xMin: Math.min(...ws.map((w) => w.xMin)), xMax: Math.max(...ws.map((w) => w.xMax)) }));
};

const pageOf = (words: PdfWord[], text: string) => {
  const found = words.filter((w) => w.text === text);
  expect(found, `"${text}" printed once`).toHaveLength(1);
  return found[0];
};

describe("the printed book, set as a keepsake", () => {
  mkdirSync(OUT, { recursive: true });

  for (const [sample, make] of Object.entries(SAMPLES)) {
    it(`keeps the book's rules: ${sample}`, async () => {
      const { content, photos } = await make();
      const pdf = await renderMemorialBook(content, photos);
      writeFileSync(path.join(OUT, `${sample.replace(/ /g, "-")}.pdf`), pdf);
      const [words, fonts, info] = await Promise.all([pdfWords(pdf), pdfFontNames(pdf), pdfInfo(pdf)]);

      // A book face throughout.
      expect(fonts.length).toBeGreaterThan(0);
      for (const font of fonts) expect(font).toMatch(/^DejaVuSerif/);

      // The cover: the person, not the brand; the brand in the colophon on the last page.
      const cover = words.filter((w) => w.page === 1).map((w) => w.text);
      expect(cover.join(" ")).toContain(content.name);
      expect(cover.join(" ")).not.toMatch(/Everlight/i);
      expect(
        words
          .filter((w) => w.page === info.pages)
          .map((w) => w.text)
          .join(" "),
      ).toContain("Made with Everlight.");

      // Every part opens a page under its heading, with its text beneath it on the same page.
      for (const part of PARTS) {
        const [first] = part.split(" ");
        const heading = words.find((w, i) => w.text === first && (part === first || words[i + 1]?.text === part.split(" ")[1]) && w.page > 1);
        const expected =
          part === "Life timeline"
            ? content.timeline.length
            : part === "Photographs"
              ? content.photos.length
              : part === "Tributes"
                ? content.tributes.length
                : 1;
        if (!expected) {
          expect(heading, `no ${part} in the ${sample} book`).toBeUndefined();
          continue;
        }
        expect(heading, `${part} in the ${sample} book`).toBeDefined();
        const body = bodyOf(words, heading!.page);
        expect(Math.min(...body.map((w) => w.yMin)), `${part} heads its page`).toBeGreaterThanOrEqual(heading!.yMin - 1);
        expect(body.filter((w) => w.yMin > heading!.yMax + 4).length, `${part} has its text beneath it`).toBeGreaterThan(3);
      }

      // No timeline entry and no tribute split across two pages.
      content.timeline.forEach((_, i) => expect(pageOf(words, `EntryEnd${i + 1}`).page, `entry ${i + 1}`).toBe(pageOf(words, `Entry${i + 1}`).page));
      content.tributes.forEach((t, i) => {
        if (t.content.startsWith("Opening")) expect(pageOf(words, `Closing${i + 1}`).page, `tribute ${i + 1}`).toBe(pageOf(words, `Opening${i + 1}`).page);
      });
      if (content.tributes.some((t) => t.content.startsWith("LongOpening"))) {
        const long = pageOf(words, "LongOpening");
        expect(pageOf(words, "LongClosing").page).toBeGreaterThan(long.page);
        expect(Math.min(...bodyOf(words, long.page).map((w) => w.yMin))).toBeGreaterThanOrEqual(long.yMin - 1);
      }

      // The photographs in a grid: one image each (and the portrait), each row's captions on one line, each column's centred on one axis.
      expect(await pdfImageCount(pdf)).toBe(content.photos.length + (photos.portrait ? 1 : 0));
      const captions = content.photos.map((p) => (p.caption ? pageOf(words, p.caption.split(" ")[0]) : null));
      const half = (w: PdfWord) => (w.xMax < 595.28 / 2 ? 0 : 1);
      const captionLines = captions.map((c) =>
        c ? linesOf(words.filter((w) => w.page === c.page && Math.abs(w.yMin - c.yMin) < 1 && half(w) === half(c))) : null,
      );
      for (let i = 0; i + 1 < captions.length; i += 2) {
        if (captions[i] && captions[i + 1]) {
          expect(captions[i + 1]!.page).toBe(captions[i]!.page);
          expect(Math.abs(captions[i + 1]!.yMin - captions[i]!.yMin), `row ${i / 2 + 1}`).toBeLessThan(1);
        }
      }
      const centres = (column: number) =>
        captionLines.map((lines, i) => (lines && i % 2 === column ? (lines[0].xMin + lines[0].xMax) / 2 : null)).filter((c): c is number => c !== null);
      for (const column of [0, 1]) {
        const axis = centres(column);
        if (axis.length > 1) expect(Math.max(...axis) - Math.min(...axis), `column ${column + 1}'s captions`).toBeLessThan(3);
      }

      // A reading measure: the life story's full lines hold about 70 characters.
      const story = pageOf(words, "story").page;
      const full = linesOf(bodyOf(words, story)).filter((l) => l.text.length > 40);
      const widest = Math.max(...full.map((l) => l.text.length));
      expect(widest).toBeGreaterThan(55);
      expect(widest).toBeLessThanOrEqual(82);

      // A folio on every page after the cover, none on the cover.
      for (let page = 2; page <= info.pages; page++) {
        const foot = words.filter((w) => w.page === page);
        const bottom = Math.max(...foot.map((w) => w.yMin));
        expect(
          foot
            .filter((w) => Math.abs(w.yMin - bottom) < 1)
            .map((w) => w.text)
            .join(" "),
        ).toMatch(new RegExp(`${FOLIO.source} ${page}$`));
      }
      expect(cover.join(" ")).not.toMatch(FOLIO);
    });
  }
});
