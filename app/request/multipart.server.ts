import { randomUUID } from "node:crypto";
import { createWriteStream, openAsBlob } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";
import { getEnv } from "~/services/env.server";
import { ImageRejectedError } from "~/services/images.server";
import { MAX_IMAGE_UPLOAD_BYTES } from "~/utils/upload-limits";

// Reading a form post with a bound on its size (413 for too large files). The
// web platform's `request.formData()` reads whatever the client sends; these forms carry photos and
// videos, so the body is counted as it arrives and refused past the bound, before it fills memory.

/** The body is larger than the caller's bound. */
export class BodyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`The request body is larger than ${limitBytes} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** Not a form body at all, or a broken multipart envelope. */
export class MalformedFormError extends Error {
  constructor() {
    super("The form could not be read");
    this.name = "MalformedFormError";
  }
}

/**
 * The request's form (multipart or urlencoded), refusing anything bigger than `limitBytes`: a declared
 * Content-Length above the bound is refused before reading, and a body without one is counted as it
 * arrives. What is left unread of a refused body is the server's to deal with (server/request-body.ts
 * drains a little or closes the connection), so the refusal goes out at once.
 */
export async function readMultipartForm(request: Request, limitBytes: number): Promise<FormData> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > limitBytes) throw new BodyTooLargeError(limitBytes);
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limitBytes) {
        await reader.cancel().catch(() => {});
        throw new BodyTooLargeError(limitBytes);
      }
      chunks.push(value);
    }
  }
  // One Blob of the chunks; the list is dropped at once so the chunks can be collected while parsing.
  const body = new Blob(chunks as BlobPart[]);
  chunks.length = 0;
  try {
    return await new Response(body, { headers: { "Content-Type": request.headers.get("Content-Type") ?? "" } }).formData();
  } catch {
    throw new MalformedFormError();
  }
}

/**
 * The multipart form of an image upload, refusing anything bigger than one image and its envelope
 * without keeping it in memory (readMultipartForm does the counting).
 */
export async function readImageUploadForm(request: Request, limit = MAX_IMAGE_UPLOAD_BYTES): Promise<FormData> {
  try {
    return await readMultipartForm(request, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new ImageRejectedError("size");
    // Not multipart at all, or a broken envelope.
    if (error instanceof MalformedFormError) throw new ImageRejectedError("unreadable");
    throw error;
  }
}

// ------------------------------------------------------------------ forms whose files go to disk

/** A folder of its own under DATA_DIR/incoming for one request's files (made when first needed), and how to remove it. */
export function spoolFolder() {
  const folder = path.join(getEnv().dataDir, "incoming", randomUUID());
  return { folder, discard: () => rm(folder, { recursive: true, force: true }) };
}

/** A form whose files wait on disk (DATA_DIR/incoming) until the caller is done with them. */
export type SpooledForm = {
  form: FormData;
  /** Files cut off at their limit (`fileBytes`, or `imageBytes` for an image): what is on disk is only their beginning. */
  tooLarge: Set<File>;
  /** Removes the files from disk; call it once the request is answered, whatever happened. */
  discard(): Promise<void>;
};

/** The text fields of one post together: they are kept in memory, so they are bounded apart from the files. */
const TEXT_BYTES = 1024 * 1024;

/**
 * Reads a form post whose files may be large (photos and videos of a memorial) without holding them in
 * memory: each file part is streamed to its own temporary file and cut off past its
 * limit, `imageBytes` for a part declared as an image (`image/*`), `fileBytes` for any other (it is then
 * in `tooLarge`, and the rest of its bytes is read and dropped, so that the fields after it still arrive
 * and nothing typed is lost); the text fields are kept, up to 1 MB in
 * all. The whole body is bounded by `bodyBytes`: a declared Content-Length above it is refused before
 * reading, and a body without one is counted as it arrives (BodyTooLargeError). A broken envelope is a
 * MalformedFormError. The files are disk-backed Blobs: their size and first bytes are read without
 * reading the rest, and storing one streams it.
 */
export async function readSpooledForm(request: Request, limits: { bodyBytes: number; fileBytes: number; imageBytes?: number }): Promise<SpooledForm> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > limits.bodyBytes) throw new BodyTooLargeError(limits.bodyBytes);
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(contentType)) throw new MalformedFormError();

  const { folder, discard } = spoolFolder();
  // The entries in the order they were sent (a file's takes its place once it is on disk).
  const entries: [string, string | File][] = [];
  const tooLarge = new Set<File>();
  const written: Promise<void>[] = [];
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      defParamCharset: "utf8",
      limits: { fileSize: limits.fileBytes, fieldSize: TEXT_BYTES, fields: 1000, files: 100 },
    });
  } catch {
    throw new MalformedFormError();
  }
  let textBytes = 0;
  let failure: Error | null = null;
  parser.on("field", (name, value) => {
    textBytes += name.length + value.length;
    if (textBytes > TEXT_BYTES) failure ??= new BodyTooLargeError(limits.bodyBytes);
    else entries.push([name, value]);
  });
  parser.on("file", (name, stream, info) => {
    const file = path.join(folder, String(written.length));
    const at = entries.push([name, ""]) - 1;
    const limit = partLimit(info.mimeType, limits);
    const job = (async () => {
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const cut = cutOffAt(limit);
      await pipeline(stream, cut.stream, createWriteStream(file, { mode: 0o600 }));
      const blob = await openAsBlob(file, { type: info.mimeType });
      const entry = new File([blob], info.filename ?? "", { type: info.mimeType });
      entries[at] = [name, entry];
      if (cut.truncated() || (stream as typeof stream & { truncated?: boolean }).truncated) tooLarge.add(entry);
    })();
    // Its failure is the whole post's (awaited below); until then it must not count as unhandled,
    // which would stop the process.
    job.catch(() => {});
    written.push(job);
  });
  parser.on("filesLimit", () => (failure ??= new BodyTooLargeError(limits.bodyBytes)));
  parser.on("fieldsLimit", () => (failure ??= new BodyTooLargeError(limits.bodyBytes)));

  let total = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.byteLength;
      if (total > limits.bodyBytes) return done(new BodyTooLargeError(limits.bodyBytes));
      done(null, chunk);
    },
  });
  try {
    const body = request.body ? Readable.fromWeb(request.body as WebReadableStream<Uint8Array>) : Readable.from([]);
    await pipeline(body, counted, parser);
    await Promise.all(written);
    if (failure) throw failure;
  } catch (error) {
    // Every file still being written ends (their streams were destroyed with the parser) before the folder goes.
    await Promise.allSettled(written);
    await discard();
    if (error instanceof BodyTooLargeError) throw error;
    throw new MalformedFormError();
  }
  const form = new FormData();
  for (const [name, value] of entries) form.append(name, value);
  return { form, tooLarge, discard };
}

/** A part's limit by the type its sender declared: an image's is the smaller. */
function partLimit(mimeType: string, limits: { fileBytes: number; imageBytes?: number }) {
  return limits.imageBytes !== undefined && /^image\//i.test(mimeType) ? Math.min(limits.imageBytes, limits.fileBytes) : limits.fileBytes;
}

/**
 * Passes a part's bytes on up to `limit`; past it, nothing more goes to disk and the rest of the part is
 * read and dropped (busboy's own `fileSize` is one limit for every part).
 */
function cutOffAt(limit: number) {
  let seen = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const room = limit - seen;
      seen += chunk.byteLength;
      if (room <= 0) return done();
      done(null, chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
    },
  });
  return { stream, truncated: () => seen > limit };
}
