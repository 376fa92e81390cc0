import { openAsBlob } from "node:fs";
import { mkdir, open, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { DEFAULT_BODY_BYTES } from "~/utils/upload-limits";
import { BodyTooLargeError, spoolFolder } from "./multipart.server";

// A JSON body that carries one file as base64 (the /api uploads: memorial media sent as base64 data
// URLs, the vault's fileData), read without holding the file in
// memory (docs/decisions/018-uploads-off-the-heap.md). The body is scanned as it
// arrives: the top-level string value of `fileField` is unescaped and base64-decoded on the fly into a
// temporary file (DATA_DIR/incoming), and everything else of the body (a few small fields) is kept as
// JSON text with that value replaced by a placeholder, then parsed and validated as before. The data URL
// rules are those the whole-body decoder had (its test compares the two): a `data:…;base64,` prefix or
// bare base64, whitespace ignored, `=` only at the end, nothing else.

/** The body's fields other than the file: a few names and a caption. */
const REST_BYTES = DEFAULT_BODY_BYTES;
/** The longest `data:<type>;<params>;base64,` prefix looked at. */
const PREFIX_CHARS = 1024;
/** What stands for a non-empty file value in the JSON that is parsed (the schema sees a string). */
const PLACEHOLDER = "(file)";

const DATA_URL_PREFIX = /^data:(?:[\w.+-]+\/[\w.+-]+)?(?:;[\w.+-]+=[^;,]*)*;base64,$/i;
const BASE64_RUN = /^([A-Za-z0-9+/]*)(=*)$/;
// JSON's escapes (RFC 8259 §7), other than \uXXXX.
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** Why a body could not be read: the caller answers each its own way. */
export type JsonUploadFailure = "too-large" | "not-json" | "duplicate-file";

export class JsonUploadError extends Error {
  constructor(readonly reason: JsonUploadFailure) {
    super(`The upload body could not be read (${reason})`);
    this.name = "JsonUploadError";
  }
}

export type JsonUpload = {
  /** The parsed body; the file's value is a placeholder string ("" when it was empty). */
  body: unknown;
  /** The decoded file, on disk; null when the field was absent, not a string, or not a clean data URL. */
  file: Blob | null;
  /** Removes the temporary file; call it once the request is answered, whatever happened. */
  discard(): Promise<void>;
};

/**
 * Reads `body` (a JSON object) of at most `maxBytes`, decoding the string at `fileField` to disk as it
 * arrives. Throws JsonUploadError("too-large") past the bound (a chunked body is counted as it comes),
 * ("not-json") for anything that is not one JSON value, and ("duplicate-file") when the file field
 * appears twice. Parsing the rest as an object and validating it is the caller's.
 */
export async function readJsonUpload(body: ReadableStream<Uint8Array> | null, options: { fileField: string; maxBytes: number }): Promise<JsonUpload> {
  const { folder, discard } = spoolFolder();
  const scanner = new UploadScanner(options.fileField, path.join(folder, "file"), async () => {
    await mkdir(folder, { recursive: true, mode: 0o700 });
  });
  try {
    let total = 0;
    if (body) {
      const reader = body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          total += value.byteLength;
          if (total > options.maxBytes) {
            await reader.cancel().catch(() => {});
            throw new JsonUploadError("too-large");
          }
          await scanner.write(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
        }
      } catch (error) {
        // The server's own bound (server/request-body.ts) stops a body that outgrows the route's.
        if (error instanceof BodyTooLargeError) throw new JsonUploadError("too-large");
        throw error;
      }
    }
    const { rest, file } = await scanner.end();
    let parsed: unknown;
    try {
      parsed = JSON.parse(rest);
    } catch {
      throw new JsonUploadError("not-json");
    }
    return { body: parsed, file: file ? await openAsBlob(file) : null, discard };
  } catch (error) {
    await scanner.close();
    await discard();
    throw error;
  }
}

/**
 * The body's bytes, one chunk at a time. Keeps the body without the file's value (`rest`), and sends
 * that value through JSON unescaping and base64 decoding into the file. JSON's structural characters are
 * ASCII and never occur inside a multi-byte UTF-8 sequence, so the scan works on bytes.
 */
class UploadScanner {
  private rest: Buffer[] = [];
  private restBytes = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At the top level of the object: a key comes next (after `{` or `,`), or a value (after `:`). */
  private expectKey = false;
  private expectValue = false;
  private keyBytes: Buffer[] | null = null;
  private lastKey: string | null = null;
  private topIsObject = false;
  private diverting = false;
  private diverted = false;
  private value: FileValue | null = null;

  constructor(
    private readonly fileField: string,
    private readonly filePath: string,
    private readonly prepare: () => Promise<void>,
  ) {}

  async write(chunk: Buffer) {
    let start = 0;
    let i = 0;
    while (i < chunk.length) {
      if (this.diverting) {
        const end = this.endOfString(chunk, i);
        await this.value!.write(chunk.subarray(i, end === -1 ? chunk.length : end));
        if (end === -1) return;
        // The closing quote is kept in the rest, after the placeholder.
        this.diverting = false;
        this.inString = false;
        this.keep(Buffer.from(`${this.value!.empty ? "" : PLACEHOLDER}"`));
        start = end + 1;
        i = end + 1;
        continue;
      }
      const byte = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === 0x5c) this.escaped = true;
        else if (byte === 0x22) this.inString = false;
        if (this.keyBytes) {
          if (this.inString) this.keyBytes.push(chunk.subarray(i, i + 1));
          else this.endKey();
        }
        i++;
        continue;
      }
      if (byte === 0x22) {
        this.inString = true;
        if (this.depth === 1 && this.topIsObject && this.expectKey) {
          this.expectKey = false;
          this.keyBytes = [];
        } else if (this.depth === 1 && this.topIsObject && this.expectValue && this.lastKey === this.fileField) {
          this.expectValue = false;
          if (this.diverted) throw new JsonUploadError("duplicate-file");
          this.diverted = true;
          this.diverting = true;
          this.value = new FileValue(this.filePath, this.prepare);
          this.keep(chunk.subarray(start, i + 1));
          start = i + 1;
          i++;
          continue;
        } else this.expectValue = false;
      } else if (byte === 0x7b || byte === 0x5b) {
        if (this.depth === 0 && byte === 0x7b) {
          this.topIsObject = true;
          this.expectKey = true;
        } else this.expectValue = false;
        this.depth++;
      } else if (byte === 0x7d || byte === 0x5d) this.depth--;
      else if (this.depth === 1 && byte === 0x2c) this.expectKey = true;
      else if (this.depth === 1 && byte === 0x3a) this.expectValue = true;
      else if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) this.expectValue = false;
      i++;
    }
    this.keep(chunk.subarray(start));
  }

  /** Where the string that `from` is inside of ends (its closing quote), or -1 past this chunk. */
  private endOfString(chunk: Buffer, from: number): number {
    let i = from;
    if (this.escaped) {
      this.escaped = false;
      i++;
    }
    for (;;) {
      const quote = chunk.indexOf(0x22, i);
      const backslash = chunk.indexOf(0x5c, i);
      if (backslash !== -1 && (quote === -1 || backslash < quote)) {
        if (backslash + 1 >= chunk.length) {
          this.escaped = true;
          return -1;
        }
        i = backslash + 2;
        continue;
      }
      return quote;
    }
  }

  private endKey() {
    const raw = Buffer.concat(this.keyBytes!);
    this.keyBytes = null;
    try {
      this.lastKey = JSON.parse(`"${raw.toString("utf8")}"`) as string;
    } catch {
      this.lastKey = null;
    }
  }

  private keep(bytes: Buffer) {
    if (bytes.length === 0) return;
    this.restBytes += bytes.length;
    if (this.restBytes > REST_BYTES) throw new JsonUploadError("too-large");
    // A copy: the chunk it came from is not kept alive by it.
    this.rest.push(Buffer.from(bytes));
  }

  /** The rest as text, and the decoded file's path when the value was a clean data URL. */
  async end(): Promise<{ rest: string; file: string | null }> {
    if (this.diverting) throw new JsonUploadError("not-json");
    const file = this.value ? await this.value.end() : null;
    if (this.value?.brokenJson) throw new JsonUploadError("not-json");
    return { rest: Buffer.concat(this.rest).toString("utf8"), file };
  }

  async close() {
    await this.value?.close();
  }
}

/**
 * One JSON string's content (without its quotes) as it arrives: unescaped, then read as a data URL or
 * bare base64 and decoded into a file. A value that is not clean base64 is still read to its end (the
 * JSON around it must be checked), but nothing more is written.
 */
class FileValue {
  private decoder = new StringDecoder("utf8");
  /** An escape cut by the end of a chunk (`\`, `\u00`). */
  private pendingEscape = "";
  /** The start of the value while it may still be a `data:` prefix. */
  private head: string | null = "";
  /** Base64 characters not yet decoded (fewer than 4). */
  private carry = "";
  private payloadChars = 0;
  private padding = 0;
  private decodedBytes = 0;
  private handle: FileHandle | null = null;
  private rawBytes = 0;
  brokenJson = false;
  badData = false;

  constructor(
    private readonly filePath: string,
    private readonly prepare: () => Promise<void>,
  ) {}

  /** Whether the string was "" (the schema then sees "", as it would have). */
  get empty() {
    return this.rawBytes === 0;
  }

  async write(bytes: Buffer) {
    this.rawBytes += bytes.length;
    await this.text(this.unescape(this.decoder.write(bytes)));
  }

  /** The file's path, or null when the value was not a clean data URL (or decoded to nothing). */
  async end(): Promise<string | null> {
    await this.text(this.unescape(this.decoder.end()));
    if (this.pendingEscape) this.brokenJson = true;
    if (this.head !== null) {
      // A short value that never reached a `,`: bare base64, unless it begins like a data URL.
      const head = this.head;
      this.head = null;
      if (/^data:/i.test(head)) this.badData = true;
      else await this.payload(head);
    }
    if (this.payloadChars % 4 === 1) this.badData = true;
    if (!this.badData && this.carry.length > 0) await this.output(Buffer.from(this.carry, "base64"));
    await this.close();
    return this.badData || this.decodedBytes === 0 ? null : this.filePath;
  }

  async close() {
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }

  /** JSON unescaping, carrying an escape cut at the chunk's end over to the next. */
  private unescape(text: string): string {
    if (this.brokenJson) return "";
    let input = this.pendingEscape + text;
    this.pendingEscape = "";
    if (!input.includes("\\")) return this.plain(input);
    let out = "";
    for (;;) {
      const at = input.indexOf("\\");
      if (at === -1) return out + this.plain(input);
      out += this.plain(input.slice(0, at));
      const kind = input[at + 1];
      if (kind === undefined || (kind === "u" && input.length < at + 6)) {
        this.pendingEscape = input.slice(at);
        return out;
      }
      if (kind === "u") {
        const hex = input.slice(at + 2, at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) return this.broken();
        out += String.fromCharCode(parseInt(hex, 16));
        input = input.slice(at + 6);
      } else {
        const char = ESCAPES[kind];
        if (char === undefined) return this.broken();
        out += char;
        input = input.slice(at + 2);
      }
    }
  }

  /** Unescaped text as JSON allows it in a string: no raw control characters. */
  private plain(text: string): string {
    if (/[\u0000-\u001f]/.test(text)) return this.broken();
    return text;
  }

  private broken(): string {
    this.brokenJson = true;
    return "";
  }

  /** The value's characters: first the prefix (if any), then the payload. */
  private async text(text: string) {
    if (text.length === 0 || this.badData || this.brokenJson) return;
    if (this.head === null) return this.payload(text);
    this.head += text;
    if (!/^data:/i.test(this.head.slice(0, 5))) {
      // Five characters that are not `data:`: bare base64 (a shorter value waits for the end).
      if (this.head.length < 5 && "data:".startsWith(this.head.toLowerCase())) return;
      const all = this.head;
      this.head = null;
      return this.payload(all);
    }
    const comma = this.head.indexOf(",");
    if (comma === -1) {
      if (this.head.length > PREFIX_CHARS) this.badData = true;
      return;
    }
    const prefix = this.head.slice(0, comma + 1);
    const after = this.head.slice(comma + 1);
    this.head = null;
    if (!DATA_URL_PREFIX.test(prefix)) {
      this.badData = true;
      return;
    }
    return this.payload(after);
  }

  /** Base64 characters (whitespace ignored, `=` only at the end, at most two), decoded four at a time. */
  private async payload(text: string) {
    const clean = text.replace(/\s+/g, "");
    if (clean.length === 0) return;
    const run = BASE64_RUN.exec(clean);
    if (!run || (this.padding > 0 && run[1].length > 0)) {
      this.badData = true;
      return;
    }
    this.payloadChars += clean.length;
    this.padding += run[2].length;
    if (this.padding > 2) {
      this.badData = true;
      return;
    }
    const pending = this.carry + run[1];
    const whole = pending.length - (pending.length % 4);
    this.carry = pending.slice(whole);
    if (whole > 0) await this.output(Buffer.from(pending.slice(0, whole), "base64"));
  }

  private async output(bytes: Buffer) {
    if (bytes.length === 0) return;
    if (!this.handle) {
      await this.prepare();
      this.handle = await open(this.filePath, "w", 0o600);
    }
    this.decodedBytes += bytes.length;
    await this.handle.write(bytes);
  }
}
