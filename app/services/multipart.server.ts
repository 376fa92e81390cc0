// Reading a form post with a bound on its size (DESIGN.md "Bad input": 413 for too large files). The
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
 * arrives. A refused body is read and thrown away (up to a bound) so the browser, still sending, gets
 * to see the answer instead of a reset connection.
 */
export async function readMultipartForm(request: Request, limitBytes: number): Promise<FormData> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > limitBytes) {
    await discardBody(request.body, 0);
    throw new BodyTooLargeError(limitBytes);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limitBytes) {
        reader.releaseLock();
        await discardBody(request.body, total);
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

// Beyond this the connection is simply cut: a browser that sends that much gets a network error.
const MAX_DISCARD_BYTES = 32 * 1024 * 1024;

async function discardBody(body: ReadableStream<Uint8Array> | null, alreadyRead: number) {
  if (!body) return;
  const reader = body.getReader();
  let total = alreadyRead;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
      if (total > MAX_DISCARD_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing left to answer.
  }
}
