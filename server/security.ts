import type { IncomingMessage } from "node:http";
import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { clientAddress, parseTrustProxy, type TrustedProxies } from "~/request/facts.server";
import { getEnv } from "~/services/env.server";

// Security headers and the cross-origin check for every response (OWASP
// ASVS 5.0). React Router refuses cross-origin form posts to UI routes itself; resource routes under
// /api are not covered, so every non-GET request is checked here, in one place.

/** Paths that authenticate by other means (a signature) and may be posted from elsewhere. */
const CROSS_ORIGIN_EXEMPT = new Set<string>(["/api/stripe/webhook"]);

/**
 * With Stripe, what Stripe's own guidance lists for Stripe.js and its Payment Element: its
 * frames, API and images; scripts come through 'strict-dynamic' (loaded by our nonce'd script). The form
 * without JavaScript is answered with a redirect to Stripe Checkout, which form-action must allow.
 */
const STRIPE_SOURCES = {
  frame: "https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com",
  connect: "https://api.stripe.com",
  img: "https://*.stripe.com",
  formAction: "https://checkout.stripe.com",
};

export function contentSecurityPolicy(nonce: string, options: { stripe?: boolean } = {}) {
  const stripe = options.stripe ? STRIPE_SOURCES : null;
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    // React's style attributes (e.g. a progress bar's width) need inline styles; no style can run code.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${stripe ? ` ${stripe.img}` : ""}`,
    "media-src 'self' blob:",
    "font-src 'self'",
    // blob: because Chromium reports a chosen photo it cannot decode (the memorial form's preview of an
    // object URL) as a connection to that blob, a CSP error in the page. An object URL
    // belongs to the page's own origin and holds what the page itself made: nothing can leave through it.
    `connect-src 'self' blob:${stripe ? ` ${stripe.connect}` : ""}`,
    ...(stripe ? [`frame-src ${stripe.frame}`] : []),
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${stripe ? ` ${stripe.formAction}` : ""}`,
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The headers every answer carries, with this request's script nonce (also used by server/page-cache.ts). */
export function securityHeaderList(nonce: string, options: { hsts: boolean; stripe?: boolean }): [string, string][] {
  const list: [string, string][] = [
    ["Content-Security-Policy", contentSecurityPolicy(nonce, { stripe: options.stripe })],
    ["X-Content-Type-Options", "nosniff"],
    ["X-Frame-Options", "DENY"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(self)"],
  ];
  if (options.hsts) list.push(["Strict-Transport-Security", "max-age=31536000; includeSubDomains"]);
  return list;
}

export function securityHeaders(options: { hsts: boolean; stripe?: boolean }) {
  return (req: Request, res: Response, next: NextFunction) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    for (const [name, value] of securityHeaderList(nonce, options)) res.setHeader(name, value);
    next();
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether a request comes from a page on another site (browsers send Sec-Fetch-Site and Origin). */
export function isCrossOrigin(headers: { origin?: string; secFetchSite?: string; host?: string }): boolean {
  const site = headers.secFetchSite;
  if (site && site !== "same-origin" && site !== "none") return true;
  const origin = headers.origin;
  if (!origin) return false;
  if (origin === "null") return true;
  try {
    return new URL(origin).host !== headers.host;
  } catch {
    return true;
  }
}

export function refuseCrossOrigin(req: Request, res: Response, next: NextFunction) {
  if (SAFE_METHODS.has(req.method) || CROSS_ORIGIN_EXEMPT.has(req.path)) return next();
  const crossOrigin = isCrossOrigin({
    origin: req.get("origin"),
    secFetchSite: req.get("sec-fetch-site"),
    host: req.get("x-forwarded-host") ?? req.get("host"),
  });
  if (!crossOrigin) return next();
  const message = "This request came from another website and was refused.";
  if (req.path.startsWith("/api/")) return void res.status(403).json({ message });
  res.status(403).type("text/plain").send(message);
}

let trustedProxies: TrustedProxies | undefined;

/**
 * Passes the client's address to the app (the socket's peer, or the right-most X-Forwarded-For hop not
 * added by a proxy TRUST_PROXY trusts), replacing anything a client sent under that name.
 */
export function stampClientIp(req: Request, _res: Response, next: NextFunction) {
  req.headers["x-everlight-ip"] = clientIpOf(req);
  next();
}

/** The client's address as stampClientIp passes it (also for the members' page cache, ahead of Express). */
export function clientIpOf(req: IncomingMessage): string {
  trustedProxies ??= parseTrustProxy(getEnv().TRUST_PROXY);
  return clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustedProxies);
}
