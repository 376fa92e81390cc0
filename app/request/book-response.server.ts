import { bookFileName, type PrintedBook } from "~/models/memorials/book.server";

// The answer to opening a printed book: the PDF, shown in the browser or saved as a file; or, when it cannot
// be made now, a short page saying so (503: worth trying again; the browser is told when).
export function bookResponse(book: PrintedBook, disposition: "inline" | "attachment"): Response {
  if (!book.ok) {
    return new Response(book.message, {
      status: 503,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "no-store",
        ...(book.reason === "busy" ? { "Retry-After": "60" } : {}),
      },
    });
  }
  return new Response(book.pdf, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `${disposition}; filename="${bookFileName(book.name)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
