import { Readable } from "node:stream";
import type { Route } from "./+types/memorials.$id.export_.download";
import { openMemorialExportDownload } from "~/models/memorials/export.server";
import { requireUser } from "~/request/auth.server";
import { resourceNotFound } from "~/request/not-found.server";

// The memorial's copy itself: streamed from storage as an attachment, to its owner only
// (404 for anyone else, administrators included), and never kept by any cache.
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const download = await openMemorialExportDownload(params.id, user.id);
  if (!download) return resourceNotFound();
  const headers: Record<string, string> = {
    "Content-Type": "application/zip",
    "Content-Disposition": `attachment; filename="${download.fileName}"`,
    "Cache-Control": "private, no-store",
  };
  if (download.bytes !== null) headers["Content-Length"] = String(download.bytes);
  return new Response(Readable.toWeb(download.stream) as ReadableStream<Uint8Array>, { headers });
}
