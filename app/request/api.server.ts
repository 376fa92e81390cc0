import type { z } from "zod";
import type { RateLimited } from "~/models/rate-limit.server";
import type { WritingResult } from "~/models/ai-writing.server";
import type { ModerationResult } from "~/models/tributes/tributes.server";
import { DEFAULT_BODY_BYTES } from "~/utils/upload-limits";
import { TRIBUTE_MESSAGES } from "~/utils/validation/tribute";
import { JsonUploadError, readJsonUpload, type JsonUpload } from "./json-upload.server";
import { BodyTooLargeError } from "./multipart.server";
import { rateLimitedInit } from "./rate-limited.server";

// Helpers for the /api resource routes: JSON in and out, never cached,
// `{ message }` on every error, 401 when not signed in. Guards throw Responses, which React Router
// returns as they are from a resource route's loader or action.

export const NOT_SIGNED_IN = "Not signed in";

/** A JSON response that no browser or proxy keeps (answers depend on who is signed in). */
export function json(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Cache-Control", "no-store");
  return Response.json(data, { ...init, headers });
}

/** `{ message, ...extra }` with the status. */
export function apiError(status: number, message: string, extra: Record<string, unknown> = {}, init: ResponseInit = {}): Response {
  return json({ ...extra, message }, { ...init, status });
}

export type ReadJsonOptions = {
  /** Largest body accepted, in bytes (default: every request's bound, DEFAULT_BODY_BYTES). */
  maxBytes?: number;
  /** The 413's message (default "The request body is too large"). */
  tooLargeMessage?: string;
};

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The refusals made before a byte of the body is read: a content type that is not JSON (415), a declared
 * length over the bound (413). What is left unread of a refused body is the server's to deal with
 * (server/request-body.ts). Returns the bound and its message, the options' or the defaults.
 */
function refuseBeforeReading(request: Request, options: ReadJsonOptions) {
  const { maxBytes = DEFAULT_BODY_BYTES, tooLargeMessage = "The request body is too large" } = options;
  if (!JSON_TYPE.test(request.headers.get("Content-Type") ?? "")) throw apiError(415, "Expected a JSON body");
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw apiError(413, tooLargeMessage);
  return { maxBytes, tooLargeMessage };
}

/**
 * The request's JSON body, validated by the schema. Throws a JSON error Response for a non-JSON
 * content type (415), a body over `maxBytes` (413), malformed JSON (400), a body that is not an
 * object (400) and a schema failure (400, with the first message and `errors` per field).
 */
export async function readJsonBody<S extends z.ZodType>(request: Request, schema: S, options: ReadJsonOptions = {}): Promise<z.output<S>> {
  const { maxBytes, tooLargeMessage } = refuseBeforeReading(request, options);
  const text = await readLimited(request.body, maxBytes);
  if (text === null) throw apiError(413, tooLargeMessage);

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw apiError(400, "The request body is not valid JSON");
  }
  return validateJsonObject(body, schema);
}

/** A parsed JSON body checked to be an object and validated by the schema (the 400s of readJsonBody). */
async function validateJsonObject<S extends z.ZodType>(body: unknown, schema: S): Promise<z.output<S>> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw apiError(400, "Expected a JSON object");

  const parsed = await schema.safeParseAsync(body);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.map(String).join(".");
    if (field) (errors[field] ??= []).push(issue.message);
  }
  throw apiError(400, parsed.error.issues[0]?.message ?? "Invalid input", { errors });
}

/** A JSON body with its file (readJsonUpload): the file is on disk until `discard`. */
export type JsonBodyWithFile<T> = { body: T; file: Blob | null; discard(): Promise<void> };

/**
 * readJsonBody for a body that carries a file as base64 in `fileField` (the /api uploads): the same
 * answers in the same order (415, 413, 400 for broken JSON, a non-object or a schema failure), but the
 * file is decoded to a temporary file as the body arrives instead of being read into memory. The schema
 * sees a placeholder string for the file ("" when it was empty); `file` is null
 * when the value was not a clean data URL or bare base64.
 */
export async function readJsonBodyWithFile<S extends z.ZodType>(
  request: Request,
  schema: S,
  options: ReadJsonOptions & { fileField: string },
): Promise<JsonBodyWithFile<z.output<S>>> {
  const { maxBytes, tooLargeMessage } = refuseBeforeReading(request, options);
  let upload: JsonUpload;
  try {
    upload = await readJsonUpload(request.body, { fileField: options.fileField, maxBytes });
  } catch (error) {
    if (!(error instanceof JsonUploadError)) throw error;
    if (error.reason === "too-large") throw apiError(413, tooLargeMessage);
    if (error.reason === "duplicate-file") throw apiError(400, `Expected one ${options.fileField}`);
    throw apiError(400, "The request body is not valid JSON");
  }
  try {
    return { body: await validateJsonObject(upload.body, schema), file: upload.file, discard: upload.discard };
  } catch (error) {
    await upload.discard();
    throw error;
  }
}

/** The body as text, or null once it grows past maxBytes (a chunked body has no Content-Length). */
async function readLimited(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string | null> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return null;
      }
      chunks.push(value);
    }
  } catch (error) {
    // The server's own bound (server/request-body.ts) stops a body that outgrows the route's.
    if (error instanceof BodyTooLargeError) return null;
    throw error;
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A rate limit's refusal: 429 `{ message }` with Retry-After. */
export function rateLimitedAnswer(refusal: Pick<RateLimited, "retryAfterSeconds" | "message">): Response {
  return apiError(429, refusal.message, {}, rateLimitedInit(refusal));
}

/** A writing use case's result as the /api answers it: `{ [field]: text, provider, providerLabel }`. */
export function writingAnswer(result: WritingResult, field: "biography" | "tribute") {
  if (result.ok) return { [field]: result.text, provider: result.writtenBy.provider, providerLabel: result.writtenBy.label };
  if (result.reason === "rate-limited") return rateLimitedAnswer(result);
  return apiError(502, result.message);
}

/** A moderation's outcome as the /api answers it (approve and delete alike). */
export function moderationAnswer(result: ModerationResult, done: string) {
  if (result === "forbidden") return apiError(403, TRIBUTE_MESSAGES.adminRestricted);
  if (result === "not-found") return apiError(404, "Tribute not found");
  return json({ message: done });
}
