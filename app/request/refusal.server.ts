import type { RateLimited } from "~/models/rate-limit.server";
import { apiError, rateLimitedAnswer } from "./api.server";

// How the /api answers a use case's refusal: the fixed failure text as `message` ("Failed to
// send request." and the like, which clients show as they are), and our sentence saying why
// as `detail`, with the status that fits (404 not found, 409 conflict, 400 bad request; 429 for a limit).

export type Refusal = { ok: false; reason: string; message: string; status: number };

export function refusalAnswer(refusal: Refusal | RateLimited, specMessage: string): Response {
  if (refusal.reason === "rate-limited") return rateLimitedAnswer(refusal as RateLimited);
  return apiError((refusal as Refusal).status, specMessage, { reason: refusal.reason, detail: refusal.message });
}

/** Runs an endpoint's work; anything unexpected is logged and answered 500 with the endpoint's failure text. */
export async function failingAs(specMessage: string, work: () => Promise<Response | Record<string, unknown> | unknown[]>) {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error(`${specMessage}`, error);
    return apiError(500, specMessage);
  }
}
