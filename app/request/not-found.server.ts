// The plain 404 of a resource that is not a page (a file, a download, a sitemap): a short text, never kept,
// saying nothing of why (no such thing, or not yours to see).

export function resourceNotFound(): Response {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
