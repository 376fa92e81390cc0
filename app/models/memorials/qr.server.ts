import { rgb } from "pdf-lib";
import { prisma } from "~/services/db.server";
import { A4, drawCentred, mm, newPdf, wrapText } from "~/services/pdf.server";
import { QR_QUIET_ZONE, qrModules, qrPng, qrSvg } from "~/services/qr.server";
import { formatLifeDates } from "~/utils/dates";
import type { QrFormat } from "~/utils/short-id";
import { editableWhere, isRecordId } from "./access.server";
import { permanentUrl } from "./records.server";

// The headstone QR code (docs/decisions/028-permanent-address-and-qr.md). The code
// carries the memorial's permanent address (/m/<shortId> on PUBLIC_URL), which never changes with its
// title, so a code cut in stone keeps working. The family (the owner and co-managers: the same rule as
// editing the content, editableWhere) downloads it as SVG, as a 1200 px PNG, or as an A4 sheet to print
// with the name, the dates and the address written under the code, so the stone can still be found if
// the code wears away. Anyone else is told the memorial does not exist (null → 404).

export type QrMemorial = { id: string; shortId: string; name: string; dates: string; url: string };

/** The memorial's QR facts for a member who may edit its content, else null (missing, deleted, or not theirs). */
export async function findQrMemorial(id: string, userId: string): Promise<QrMemorial | null> {
  if (!isRecordId(id)) return null;
  const memorial = await prisma().memorial.findFirst({
    where: { id, ...editableWhere(userId) },
    select: { id: true, shortId: true, firstName: true, lastName: true, dateOfBirth: true, dateOfPassing: true },
  });
  if (!memorial) return null;
  return {
    id: memorial.id,
    shortId: memorial.shortId,
    name: `${memorial.firstName} ${memorial.lastName}`,
    dates: formatLifeDates(memorial.dateOfBirth, memorial.dateOfPassing),
    url: permanentUrl(memorial.shortId),
  };
}

/** The SVG for the QR page's preview. */
export function qrPreviewSvg(memorial: QrMemorial): Promise<string> {
  return qrSvg(memorial.url);
}

const CONTENT_TYPES: Record<QrFormat, string> = { svg: "image/svg+xml", png: "image/png", pdf: "application/pdf" };

/** One download of the code: its bytes, type and file name (ASCII, the same whatever the name). */
export async function renderQrDownload(memorial: QrMemorial, format: QrFormat): Promise<{ body: Uint8Array; contentType: string; fileName: string }> {
  const body =
    format === "svg"
      ? new TextEncoder().encode(await qrSvg(memorial.url))
      : format === "png"
        ? new Uint8Array(await qrPng(memorial.url))
        : await qrSheetPdf(memorial);
  return { body, contentType: CONTENT_TYPES[format], fileName: `everlight-qr-${memorial.shortId}.${format}` };
}

/** The code's printed side: 9 cm, so a phone reads it from a step away, and at least 2 cm on a small plaque. */
const CODE_MM = 90;
const MARGIN_MM = 20;

/**
 * The A4 sheet: the name and dates above, the code in the middle (drawn as vector squares, sharp at any
 * printer's resolution, with its quiet zone left blank), the address in text below it and a line on
 * how to use it.
 */
export async function qrSheetPdf(memorial: QrMemorial): Promise<Uint8Array> {
  const { pdf, fonts } = await newPdf({ title: `QR code for ${memorial.name}`, subject: memorial.url });
  const page = pdf.addPage([A4.width, A4.height]);
  const width = A4.width - 2 * mm(MARGIN_MM);
  const ink = rgb(0, 0, 0);
  const grey = rgb(0.25, 0.25, 0.25);
  let y = A4.height - mm(MARGIN_MM + 8);

  const centred = (text: string, font: typeof fonts.regular, size: number, color = ink, maxWidth = width) => {
    for (const line of wrapText(text, font, size, maxWidth)) {
      y -= size * 1.25;
      drawCentred(page, line, y, font, size, color);
    }
  };

  // A long name gets a smaller size before it takes more than two lines or breaks inside a word.
  const nameSize = [26, 22, 18].find((size) => wrapText(memorial.name, fonts.bold, size, width).length <= Math.min(2, memorial.name.split(/\s+/).length)) ?? 15;
  centred(memorial.name, fonts.bold, nameSize);
  if (memorial.dates) {
    y -= 4;
    centred(memorial.dates, fonts.regular, 15, grey);
  }

  const code = qrModules(memorial.url);
  const module = mm(CODE_MM) / code.size;
  const quiet = QR_QUIET_ZONE * module;
  const left = (A4.width - mm(CODE_MM)) / 2;
  const top = y - mm(8) - quiet;
  for (let row = 0; row < code.size; row++) {
    // One rectangle per run of dark modules in a row: fewer shapes, no hairline gaps between them.
    for (let col = 0; col < code.size;) {
      if (!code.dark(row, col)) {
        col++;
        continue;
      }
      let end = col;
      while (end < code.size && code.dark(row, end)) end++;
      page.drawRectangle({ x: left + col * module, y: top - (row + 1) * module, width: (end - col) * module, height: module, color: ink });
      col = end;
    }
  }
  y = top - mm(CODE_MM) - quiet;

  centred(memorial.url, fonts.bold, 16);
  y -= 8;
  centred(
    `Scan the code with a phone's camera to visit the memorial of ${memorial.name} on Everlight. If the code cannot be read, type the address above into a web browser.`,
    fonts.regular,
    11,
    grey,
    mm(150),
  );
  return pdf.save();
}
