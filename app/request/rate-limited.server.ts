import type { RateLimited } from "~/models/rate-limit.server";

// A refusal by a rate limit (app/models/rate-limit.server.ts) is a 429 with Retry-After and the use
// case's sentence ("… Please try again in N minutes."), on the pages and the /api (rateLimitedAnswer).

/** The status and header for a page's answer: `data({ …, message }, rateLimitedInit(result))`. */
export function rateLimitedInit(refusal: Pick<RateLimited, "retryAfterSeconds">): ResponseInit {
  return { status: 429, headers: { "Retry-After": String(refusal.retryAfterSeconds) } };
}
