import QRCode from "qrcode";

// QR codes with the `qrcode` package. For a headstone: error correction level H, so
// the code still reads with up to about 30% of it worn, chipped or covered by lichen, and the standard
// quiet zone of 4 modules around it, which readers need to find the code at all.

const OPTIONS = { errorCorrectionLevel: "H", margin: 4 } as const;

/** The quiet zone, in modules, that every rendering keeps around the code. */
export const QR_QUIET_ZONE = OPTIONS.margin;

/** An SVG of the code: black on white, scalable to any size. */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { ...OPTIONS, type: "svg", color: { dark: "#000000", light: "#ffffff" } });
}

/** A PNG of the code `width` pixels square (quiet zone included): 1200 px prints sharp at 10 cm. */
export function qrPng(text: string, width = 1200): Promise<Buffer> {
  return QRCode.toBuffer(text, { ...OPTIONS, type: "png", width, color: { dark: "#000000", light: "#ffffff" } });
}

/** The code's modules (without the quiet zone), for drawing it as vector shapes (the PDF sheet). */
export function qrModules(text: string): { size: number; dark: (row: number, col: number) => boolean } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: OPTIONS.errorCorrectionLevel });
  return { size: modules.size, dark: (row, col) => !!modules.get(row, col) };
}
