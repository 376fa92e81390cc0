import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

// Reading back the PDFs the app makes, with poppler's tools (installed by .ci/run): their text, their
// page count, and their pages as PNG images (for a QR decoder or a look at a photo).

const run = promisify(execFile);

async function withFile<T>(pdf: Uint8Array, use: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), "everlight-pdf-"));
  try {
    const file = path.join(dir, "in.pdf");
    await writeFile(file, pdf);
    return await use(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The text of every page, in reading order (pdftotext -layout off). */
export function pdfText(pdf: Uint8Array): Promise<string> {
  return withFile(pdf, async (file) => (await run("pdftotext", ["-enc", "UTF-8", file, "-"], { maxBuffer: 64 * 1024 * 1024 })).stdout);
}

/** How many pages it has, and its title. */
export function pdfInfo(pdf: Uint8Array): Promise<{ pages: number; title: string; pageSize: string }> {
  return withFile(pdf, async (file) => {
    const { stdout } = await run("pdfinfo", [file]);
    const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "m").exec(stdout)?.[1]?.trim() ?? "";
    return { pages: Number(field("Pages")), title: field("Title"), pageSize: field("Page size") };
  });
}

/** Each page as a PNG, at `dpi` (first page first). */
export function pdfPageImages(pdf: Uint8Array, dpi = 100): Promise<Buffer[]> {
  return withFile(pdf, async (file, dir) => {
    await run("pdftoppm", ["-png", "-r", String(dpi), file, path.join(dir, "page")]);
    const pages = (await readdir(dir)).filter((name) => name.startsWith("page")).sort();
    return Promise.all(pages.map((name) => readFile(path.join(dir, name))));
  });
}

export type PdfWord = { page: number; text: string; xMin: number; yMin: number; xMax: number; yMax: number };

/** Every word with its box, in points from the page's top left, and its page (1-based), in reading order. */
export function pdfWords(pdf: Uint8Array): Promise<PdfWord[]> {
  return withFile(pdf, async (file) => {
    const { stdout } = await run("pdftotext", ["-bbox", "-enc", "UTF-8", file, "-"], { maxBuffer: 64 * 1024 * 1024 });
    const words: PdfWord[] = [];
    let page = 0;
    for (const match of stdout.matchAll(/<page\b|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
      if (match[0] === "<page") page++;
      else {
        const text = match[5]
          .replace(/&amp;/g, "&")
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">")
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'");
        words.push({ page, text, xMin: +match[1], yMin: +match[2], xMax: +match[3], yMax: +match[4] });
      }
    }
    return words;
  });
}

/** The names of the fonts the document uses (pdffonts), without their subset prefix ("DejaVuSerif-Bold"). */
export function pdfFontNames(pdf: Uint8Array): Promise<string[]> {
  return withFile(pdf, async (file) => {
    const { stdout } = await run("pdffonts", [file]);
    return stdout
      .split("\n")
      .slice(2)
      .map((line) => line.split(/\s+/)[0]?.replace(/^[A-Z]{6}\+/, ""))
      .filter(Boolean);
  });
}

/** How many images the document draws (pdfimages -list). */
export function pdfImageCount(pdf: Uint8Array): Promise<number> {
  return withFile(pdf, async (file) => {
    const { stdout } = await run("pdfimages", ["-list", file]);
    return stdout
      .split("\n")
      .slice(2)
      .filter((line) => line.trim()).length;
  });
}
