import { ImageRejectedError } from "~/services/images.server";
import { MAX_IMAGE_UPLOAD_BYTES } from "~/utils/upload-limits";

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
