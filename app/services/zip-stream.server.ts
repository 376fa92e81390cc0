// A ZIP written as a stream: each entry is stored as it is read
// (method STORE: photos and videos are compressed already), its CRC-32 computed on the way and written
// after it in a data descriptor, so no entry is ever held in memory whole, however large the memorial.
// Entries over 4 GB are refused (ours are 100 MB at most); an archive that passes 4 GB in total gets the
// ZIP64 end records and offsets it needs. No dependency: the format is a few fixed headers
// (PKWARE APPNOTE 6.3, sections 4.3 and 4.5.3).

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** Continues a CRC-32 (start with 0) over `bytes`. Node 20's zlib has no crc32. */
export function crc32(bytes: Uint8Array, previous = 0): number {
  let crc = ~previous >>> 0;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}

const MAX_32 = 0xffffffff;
const FLAGS = 0x0808; // bit 3: sizes and CRC follow the data; bit 11: names are UTF-8

type Entry = { name: Buffer; crc: number; size: number; offset: number; time: number; date: number };

/** Where the archive's bytes go, one chunk at a time; the next chunk waits until this one is taken. */
export type ZipSink = (chunk: Uint8Array) => Promise<void>;

export class EntryTooLargeError extends Error {
  constructor(name: string) {
    super(`${name} is larger than a ZIP entry without ZIP64 sizes may be`);
  }
}

export class ZipWriter {
  private offset = 0;
  private readonly entries: Entry[] = [];
  private finished = false;

  /** `zip64From`: the offset from which ZIP64 records are written (lowered only by tests, to try them on small files). */
  constructor(
    private readonly sink: ZipSink,
    private readonly zip64From = MAX_32,
  ) {}

  /** Bytes written so far. */
  get written() {
    return this.offset;
  }

  /** Adds one file, reading `source` as it goes; `onChunk` sees every chunk (a checksum, progress). */
  async addFile(
    path: string,
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    options: { modified?: Date; onChunk?: (chunk: Uint8Array) => void } = {},
  ) {
    if (this.finished) throw new Error("The archive is already finished");
    const name = Buffer.from(path, "utf8");
    const { time, date } = dosDateTime(options.modified ?? new Date());
    const entry: Entry = { name, crc: 0, size: 0, offset: this.offset, time, date };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(0, 8); // STORE
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    // CRC and sizes are 0 here: they follow the data (bit 3).
    header.writeUInt16LE(name.length, 26);
    await this.write(Buffer.concat([header, name]));
    for await (const chunk of source) {
      if (!chunk.length) continue;
      entry.size += chunk.length;
      if (entry.size >= MAX_32) throw new EntryTooLargeError(path);
      entry.crc = crc32(chunk, entry.crc);
      options.onChunk?.(chunk);
      await this.write(chunk);
    }
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(entry.crc, 4);
    descriptor.writeUInt32LE(entry.size, 8);
    descriptor.writeUInt32LE(entry.size, 12);
    await this.write(descriptor);
    this.entries.push(entry);
    return { size: entry.size, crc32: entry.crc };
  }

  /** Writes the central directory and the end records; returns the archive's size. */
  async finish(): Promise<number> {
    this.finished = true;
    const start = this.offset;
    for (const entry of this.entries) await this.write(centralHeader(entry, entry.offset >= this.zip64From));
    const size = this.offset - start;
    const needs64 = start >= this.zip64From || size >= this.zip64From || this.entries.length >= 0xffff;
    if (needs64) {
      const recordAt = this.offset;
      const record = Buffer.alloc(56);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4);
      record.writeUInt16LE(45, 12);
      record.writeUInt16LE(45, 14);
      record.writeBigUInt64LE(BigInt(this.entries.length), 24);
      record.writeBigUInt64LE(BigInt(this.entries.length), 32);
      record.writeBigUInt64LE(BigInt(size), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(recordAt), 8);
      locator.writeUInt32LE(1, 16);
      await this.write(Buffer.concat([record, locator]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    const count = needs64 ? 0xffff : this.entries.length;
    end.writeUInt16LE(count, 8);
    end.writeUInt16LE(count, 10);
    end.writeUInt32LE(needs64 ? MAX_32 : size, 12);
    end.writeUInt32LE(needs64 ? MAX_32 : start, 16);
    await this.write(end);
    return this.offset;
  }

  private async write(chunk: Uint8Array) {
    this.offset += chunk.length;
    await this.sink(chunk);
  }
}

function centralHeader(entry: Entry, offset64: boolean) {
  const extra = offset64 ? Buffer.alloc(12) : Buffer.alloc(0);
  if (offset64) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(8, 2);
    extra.writeBigUInt64LE(BigInt(entry.offset), 4);
  }
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE((3 << 8) | 45, 4); // made by: Unix, 4.5
  header.writeUInt16LE(offset64 ? 45 : 20, 6);
  header.writeUInt16LE(FLAGS, 8);
  header.writeUInt16LE(0, 10);
  header.writeUInt16LE(entry.time, 12);
  header.writeUInt16LE(entry.date, 14);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.size, 20);
  header.writeUInt32LE(entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  header.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
  header.writeUInt32LE(offset64 ? MAX_32 : entry.offset, 42);
  return Buffer.concat([header, entry.name, extra]);
}

/** MS-DOS date and time (local fields taken as UTC, two-second steps), as ZIP headers keep them. */
function dosDateTime(when: Date) {
  const year = Math.min(Math.max(when.getUTCFullYear(), 1980), 2107);
  return {
    time: (when.getUTCHours() << 11) | (when.getUTCMinutes() << 5) | Math.floor(when.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((when.getUTCMonth() + 1) << 5) | when.getUTCDate(),
  };
}
