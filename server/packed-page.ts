import { constants, crc32, deflateRawSync } from "node:zlib";

// A page kept gzip-compressed, with a few per-request values (a CSP nonce, a form stamp) spliced in
// without compressing the page again. Compressing a 60 KB page costs about a millisecond per request,
// more than everything else the anonymous page cache does; this costs a CRC over the bytes.
//
// How: the text between the placeholders is compressed once, each part as raw DEFLATE ended with a
// sync flush (so it stops on a byte boundary and never refers back across the cut). A DEFLATE stream is
// a run of blocks, so the parts can be laid end to end with the values in between as "stored"
// (uncompressed) blocks, then a final empty block, inside a gzip header and trailer (RFC 1951, 1952).

type Part = { raw: Buffer; deflated: Buffer };

export type PackedPage = {
  /** The text between the placeholders: one more part than there are slots. */
  parts: Part[];
  /** The placeholder found between part i and part i + 1. */
  slots: string[];
};

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
/** BFINAL = 1, a stored block of length 0. */
const FINAL_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
const STORED_MAX = 0xffff;

export function packPage(html: string, placeholders: string[]): PackedPage {
  const pattern = new RegExp(placeholders.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
  const parts: Part[] = [];
  const slots: string[] = [];
  let last = 0;
  for (const match of html.matchAll(pattern)) {
    parts.push(part(html.slice(last, match.index)));
    slots.push(match[0]);
    last = match.index + match[0].length;
  }
  parts.push(part(html.slice(last)));
  return { parts, slots };
}

function part(text: string): Part {
  const raw = Buffer.from(text);
  return { raw, deflated: raw.length ? deflateRawSync(raw, { level: 9, finishFlush: constants.Z_SYNC_FLUSH }) : Buffer.alloc(0) };
}

/** The page as text, each placeholder replaced by its value. */
export function fillText(page: PackedPage, values: Record<string, string>): Buffer {
  const chunks: Buffer[] = [];
  page.parts.forEach((p, i) => {
    chunks.push(p.raw);
    if (i < page.slots.length) chunks.push(Buffer.from(values[page.slots[i]] ?? ""));
  });
  return Buffer.concat(chunks);
}

/** The same page as a gzip body. */
export function fillGzip(page: PackedPage, values: Record<string, string>): Buffer {
  const chunks: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  const add = (raw: Buffer, deflated: Buffer) => {
    chunks.push(deflated);
    crc = crc32(raw, crc);
    size += raw.length;
  };
  page.parts.forEach((p, i) => {
    add(p.raw, p.deflated);
    if (i < page.slots.length) {
      const value = Buffer.from(values[page.slots[i]] ?? "");
      for (let at = 0; at < value.length; at += STORED_MAX) {
        const piece = value.subarray(at, at + STORED_MAX);
        add(piece, storedBlock(piece));
      }
    }
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  chunks.push(FINAL_BLOCK, trailer);
  return Buffer.concat(chunks);
}

/** A non-final stored block (starts on a byte boundary: every part before it ends with a sync flush). */
function storedBlock(bytes: Buffer) {
  const header = Buffer.alloc(5);
  header[0] = 0x00;
  header.writeUInt16LE(bytes.length, 1);
  header.writeUInt16LE(~bytes.length & 0xffff, 3);
  return Buffer.concat([header, bytes]);
}
