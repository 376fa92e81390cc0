import { renderMemorialBook, type BookContent, type BookPhotos } from "~/services/memorial-book-pdf.server";
import { serveJobs } from "~/services/worker-pool.server";

// A worker thread that lays out printed memorial books (app/services/book-render.server.ts sends the jobs):
// seconds of pdf-lib work that must not run on the thread that answers requests.
serveJobs<{ content: BookContent; photos: BookPhotos }, Uint8Array<ArrayBuffer>>(async ({ content, photos }) => {
  const pdf = await renderMemorialBook(content, photos);
  return { value: pdf, transfer: [pdf.buffer] };
});
