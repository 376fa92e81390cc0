import type { Route } from "./+types/memorials.$id.qr_.$format";
import { findQrMemorial, renderQrDownload } from "~/models/memorials/qr.server";
import { attachment } from "~/request/vault.server";
import { getOptionalUser } from "~/request/auth.server";
import { isQrFormat } from "~/utils/short-id";
import { resourceNotFound } from "~/request/not-found.server";

// The QR code's downloads: /memorials/<id>/qr/svg, /png and /pdf, made on request, for
// the memorial's owner and co-managers only. Anyone else, signed in or not, gets the same 404 as for a
// memorial that does not exist, so nothing says whether it does.
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  if (!user || !isQrFormat(params.format)) return resourceNotFound();
  const memorial = await findQrMemorial(params.id, user.id);
  if (!memorial) return resourceNotFound();
  const file = await renderQrDownload(memorial, params.format);
  return new Response(file.body as BodyInit, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": attachment(file.fileName),
      "Content-Length": String(file.body.byteLength),
      // The family's own page's file: kept by no shared cache (X-Content-Type-Options: nosniff is on every answer).
      "Cache-Control": "private, no-store",
    },
  });
}
