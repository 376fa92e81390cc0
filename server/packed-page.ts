import { constants, crc32, deflateRawSync } from "node:zlib";

// A page kept gzip-compressed, with a few per-request values (a CSP nonce, a form stamp) spliced in
// without compressing the page again. Compressing a 60 KB page costs about a millisecond per request,
// more than everything else the anonymous page cache does; this costs a CRC over the bytes.
//
// How: the text between the placeholders is compressed (fast when rendered, smaller once asked for again:
// FIRST_LEVEL, KEPT_LEVEL), each part as raw DEFLATE ended with a
// sync flush (so it stops on a byte boundary and never refers back across the cut). A DEFLATE stream is
// a run of blocks, so the parts can be laid end to end with the values in between as "stored"
// (uncompressed) blocks, then a final empty block, inside a gzip header and trailer (RFC 1951, 1952).

//
// Faster still, for values as long as their placeholders (a nonce, a form stamp: always the same length),
// the whole answer is laid out once with the placeholders in it; a request copies it, writes its values
// over the placeholders' bytes and corrects the CRC-32 in the trailer without reading the page: a CRC is
// linear, so the change at each slot, moved to the end of the page by multiplying it by x^(8·distance)
// modulo the CRC polynomial (as zlib's crc32_combine does), is XORed into the page's CRC.

type Part = { raw: Buffer; deflated: Buffer };

/** Where one placeholder sits in the laid-out answers, and x^(8·bytes after it) mod P. */
type Place = { slot: number; textAt: number; gzipAt: number; shift: number };

export type PackedPage = {
  /** The zlib level its parts were compressed at (FIRST_LEVEL, then KEPT_LEVEL: `repack`). */
  level: number;
  /** The text between the placeholders: one more part than there are slots. */
  parts: Part[];
  /** The placeholder found between part i and part i + 1. */
  slots: string[];
  /** The page as text and as gzip with the placeholders in, and where each one is. */
  text: Buffer;
  gzip: Buffer;
  crc: number;
  places: Place[];
  /** The distinct placeholders, their bytes and their CRC-32 without init nor final XOR (linear part). */
  names: { name: string; bytes: Buffer; linear: number }[];
};

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
/** BFINAL = 1, a stored block of length 0. */
const FINAL_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);
const STORED_MAX = 0xffff;

/**
 * A page is packed fast when it is rendered (zlib level 1: half the time of level 6, 6–8 % more bytes on our
 * pages), since many are asked for once (a new search); one asked for again is packed again smaller (repack).
 */
export const FIRST_LEVEL = 1;
/** zlib's default level: on our pages level 9 took a quarter longer for 0.1 % fewer bytes. */
export const KEPT_LEVEL = 6;

export function packPage(html: string, placeholders: string[], level = FIRST_LEVEL): PackedPage {
  return fillTemplate(packTemplate(html, placeholders, [], level), {});
}

/** The same page with its parts compressed again at `level`: the same text, the same places to fill. */
export function repack(page: PackedPage, level = KEPT_LEVEL): PackedPage {
  return layOut(
    page.parts.map((p) => part(p.raw, level)),
    page.slots,
    level,
  );
}

function layOut(parts: Part[], slots: string[], level: number): PackedPage {
  const names = [...new Set(slots)].map((name) => {
    const bytes = Buffer.from(name);
    return { name, bytes, linear: linearCrc(bytes) };
  });
  const textChunks: Buffer[] = [];
  const gzipChunks: Buffer[] = [GZIP_HEADER];
  const places: Omit<Place, "shift">[] = [];
  let textAt = 0;
  let gzipAt = GZIP_HEADER.length;
  parts.forEach((p, i) => {
    textChunks.push(p.raw);
    gzipChunks.push(p.deflated);
    textAt += p.raw.length;
    gzipAt += p.deflated.length;
    if (i < slots.length) {
      const slot = names.findIndex((n) => n.name === slots[i]);
      const bytes = names[slot].bytes;
      const block = storedBlock(bytes);
      places.push({ slot, textAt, gzipAt: gzipAt + 5 });
      textChunks.push(bytes);
      gzipChunks.push(block);
      textAt += bytes.length;
      gzipAt += block.length;
    }
  });
  const text = Buffer.concat(textChunks);
  const crc = crc32(text) >>> 0;
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(text.length >>> 0, 4);
  gzipChunks.push(FINAL_BLOCK, trailer);
  const gzip = Buffer.concat(gzipChunks);
  return {
    level,
    parts,
    slots,
    text,
    gzip,
    crc,
    names,
    places: places.map((p) => ({ ...p, shift: x8nModP(text.length - p.textAt - names[p.slot].bytes.length) })),
  };
}

/**
 * A page with holes for what differs from one page to the next (the words of a search) besides the slots for
 * what differs per request: the text between them compressed once, each page laid out from it with its values
 * in the holes as stored blocks (server/search-template.ts). A page made from it is a PackedPage like any.
 */
export type PageTemplate = {
  level: number;
  /** The text between the slots and holes, in order: one more piece than there are gaps. */
  pieces: Part[];
  /** What sits between piece i and piece i + 1: a slot (a per-request placeholder, kept as such) or a hole. */
  gaps: { slot?: string; hole?: string }[];
};

export function packTemplate(html: string, slots: string[], holes: string[], level = FIRST_LEVEL): PageTemplate {
  const pattern = anyOf([...slots, ...holes]);
  const pieces: Part[] = [];
  const gaps: PageTemplate["gaps"] = [];
  let last = 0;
  for (const match of html.matchAll(pattern)) {
    pieces.push(part(Buffer.from(html.slice(last, match.index)), level));
    gaps.push(slots.includes(match[0]) ? { slot: match[0] } : { hole: match[0] });
    last = match.index + match[0].length;
  }
  pieces.push(part(Buffer.from(html.slice(last)), level));
  return { level, pieces, gaps };
}

/** The same template with its pieces compressed again at `level`. */
export function repackTemplate(template: PageTemplate, level = KEPT_LEVEL): PageTemplate {
  return { ...template, level, pieces: template.pieces.map((p) => part(p.raw, level)) };
}

/** A page from the template, each hole filled with its value (by the hole's placeholder): nothing compressed again. */
export function fillTemplate(template: PageTemplate, values: Record<string, string>): PackedPage {
  const parts: Part[] = [];
  const slots: string[] = [];
  let raw: Buffer[] = [];
  let deflated: Buffer[] = [];
  template.pieces.forEach((piece, i) => {
    raw.push(piece.raw);
    deflated.push(piece.deflated);
    const gap = template.gaps[i];
    if (gap?.hole !== undefined) {
      const value = Buffer.from(values[gap.hole] ?? "");
      raw.push(value);
      for (let at = 0; at < value.length; at += STORED_MAX) deflated.push(storedBlock(value.subarray(at, at + STORED_MAX)));
    } else {
      parts.push(raw.length === 1 ? { raw: raw[0], deflated: deflated[0] } : { raw: Buffer.concat(raw), deflated: Buffer.concat(deflated) });
      raw = [];
      deflated = [];
      if (gap?.slot !== undefined) slots.push(gap.slot);
    }
  });
  return layOut(parts, slots, template.level);
}

/** The values as bytes, one per distinct placeholder, when each is exactly as long as its placeholder. */
function sameLengthValues(page: PackedPage, values: Record<string, string>): Buffer[] | null {
  const out: Buffer[] = [];
  for (const { name, bytes } of page.names) {
    const value = Buffer.from(values[name] ?? "");
    if (value.length !== bytes.length) return null;
    out.push(value);
  }
  return out;
}

/** A pattern matching any of the texts, as they are. */
function anyOf(texts: string[]) {
  return new RegExp(texts.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
}

function part(raw: Buffer, level: number): Part {
  return { raw, deflated: raw.length ? deflateRawSync(raw, { level, finishFlush: constants.Z_SYNC_FLUSH }) : Buffer.alloc(0) };
}

/** The page as text, each placeholder replaced by its value. */
export function fillText(page: PackedPage, values: Record<string, string>): Buffer {
  const fixed = sameLengthValues(page, values);
  if (fixed) {
    const out = Buffer.allocUnsafe(page.text.length);
    page.text.copy(out);
    for (const place of page.places) fixed[place.slot].copy(out, place.textAt);
    return out;
  }
  const chunks: Buffer[] = [];
  page.parts.forEach((p, i) => {
    chunks.push(p.raw);
    if (i < page.slots.length) chunks.push(Buffer.from(values[page.slots[i]] ?? ""));
  });
  return Buffer.concat(chunks);
}

/** The same page as a gzip body. */
export function fillGzip(page: PackedPage, values: Record<string, string>): Buffer {
  const fixed = sameLengthValues(page, values);
  if (fixed) {
    const out = Buffer.allocUnsafe(page.gzip.length);
    page.gzip.copy(out);
    // The change each value makes to the CRC, once per distinct value (linear: lin(a ^ b) = lin(a) ^ lin(b)).
    const change = fixed.map((value, i) => (linearCrc(value) ^ page.names[i].linear) >>> 0);
    let crc = page.crc;
    for (const place of page.places) {
      fixed[place.slot].copy(out, place.gzipAt);
      crc ^= multModP(place.shift, change[place.slot]);
    }
    out.writeUInt32LE(crc >>> 0, out.length - 8);
    return out;
  }
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

// CRC-32 arithmetic modulo its polynomial, in its bit-reflected form (zlib's crc32.c, multmodp and x2nmodp).
const POLY = 0xedb88320;

/** a·b modulo P. */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo P, for k = 0…31. */
const X2N: number[] = [];
for (let k = 0, p = 0x40000000; k < 32; k++, p = multModP(p, p)) X2N.push(p);

/** x^(8·n) modulo P: what a CRC register is multiplied by when n zero bytes follow. */
function x8nModP(n: number): number {
  let p = 0x80000000;
  for (let k = 3; n; n = Math.floor(n / 2), k++) if (n & 1) p = multModP(X2N[k & 31], p);
  return p >>> 0;
}

/** The CRC-32 register after the bytes, started at zero and not inverted at the end: linear in the bytes. */
function linearCrc(bytes: Buffer): number {
  return (crc32(bytes, 0xffffffff) ^ 0xffffffff) >>> 0;
}
