import { getEnv } from "~/services/env.server";

// Facts about the request that more than one module needs.

/**
 * The client's address. Behind a load balancer, trust the first X-Forwarded-For hop only when
 * TRUST_PROXY is set; otherwise the socket address the server saw (passed on as x-everlight-ip).
 */
export function clientIp(request: Request): string {
  if (getEnv().TRUST_PROXY === "true") {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return request.headers.get("x-everlight-ip") ?? "unknown";
}

/** Whether a request is a link prefetch (Sec-Purpose or Purpose: prefetch), which is not a visit. */
export function isPrefetch(purpose: string | null | undefined): boolean {
  return /prefetch/i.test(purpose ?? "");
}
