import { BOOK_PHOTO_BOXES, type BookContent, type BookPhotos } from "./memorial-book-pdf.server";
import { printJpeg } from "./print-photo.server";
import { getObject } from "./storage.server";
import { createWorkerPool, WorkerBusy, WorkerFailed } from "./worker-pool.server";

// Printed books are made in two parts. Here, on the thread that answers requests, only waiting is done:
// the photos are read (disk or bucket) and made print JPEGs by sharp, which works on its own threads. The
// layout, seconds of pure JavaScript for a large book, runs on a worker thread (server/book-worker.ts).
//
// The largest book (24 photos, 200 timeline events, 60 tributes, the longest life story) takes a few
// seconds of one core. Two are laid out at once on an instance and eight more may wait; beyond that a
// request is told to try again rather than queued without end. A book taking over a minute, or needing
// over 512 MB, stops its worker and is refused: no content a family can write needs that.

const QUEUE = 8;
const pool = createWorkerPool<{ content: BookContent; photos: BookPhotos }, Uint8Array<ArrayBuffer>>({
  module: "server/book-worker",
  size: 2,
  queue: QUEUE,
  timeoutMs: 60_000,
  maxResultBytes: 200 * 1024 * 1024,
  memoryMb: 512,
});

/** What the person asking is told when a book cannot be made now; the status says whether to try again. */
export const BOOK_RENDER_MESSAGES = {
  busy: "Many books are being prepared just now. Please try again in a minute.",
  failed: "This book could not be prepared. Please try again later; if it keeps happening, tell us through the contact page.",
} as const;

export type RenderedBook = { ok: true; pdf: Uint8Array<ArrayBuffer> } | { ok: false; reason: "busy" | "failed"; message: string };

async function printPhoto(key: string | null, box: { widthMm: number; heightMm: number }): Promise<Uint8Array | null> {
  if (!key) return null;
  const stored = await getObject(key).catch(() => null);
  return stored ? printJpeg(stored.body, box.widthMm, box.heightMm) : null;
}

async function bookPhotos(content: BookContent): Promise<BookPhotos> {
  const [portrait, ...photos] = await Promise.all([
    printPhoto(content.portraitKey, BOOK_PHOTO_BOXES.portrait),
    ...content.photos.map((p) => printPhoto(p.key, BOOK_PHOTO_BOXES.photo)),
  ]);
  return { portrait, photos };
}

/** The book as PDF bytes, or why it cannot be made now. */
export async function renderBook(content: BookContent): Promise<RenderedBook> {
  // Refused before its photos are read when nothing could take it.
  const { waiting } = pool.load();
  if (waiting >= QUEUE) return { ok: false, reason: "busy", message: BOOK_RENDER_MESSAGES.busy };
  // The photos are copied to the worker (a few megabytes at most): sharp's buffers are not all theirs to hand over.
  const photos = await bookPhotos(content);
  try {
    return { ok: true, pdf: await pool.run({ content, photos }) };
  } catch (error) {
    if (error instanceof WorkerBusy) return { ok: false, reason: "busy", message: BOOK_RENDER_MESSAGES.busy };
    if (error instanceof WorkerFailed) {
      console.error(`A memorial book could not be laid out: ${error.message}`);
      return { ok: false, reason: "failed", message: BOOK_RENDER_MESSAGES.failed };
    }
    throw error;
  }
}
