import { randomBytes, randomFillSync } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppLoadContext, createRequestHandler } from "react-router";
import { issueFormStamp } from "~/request/form-guard.server";
import { fillGzip, fillText, KEPT_LEVEL, packPage, packTemplate, repack, type PackedPage, type PageTemplate } from "./packed-page";
import { securityHeaderList } from "./security";

// What the two page caches share (server/page-cache.ts for visitors, server/member-page-cache.ts for members):
// rendering a page to keep, with the per-request values (the CSP nonce, the signed form stamp) as placeholders
// of the same length, and answering from a kept page with this request's values put in.

export type Render = ReturnType<typeof createRequestHandler>;
export type HeaderOptions = { hsts: boolean; stripe?: boolean };

/** A nonce is 16 random bytes in base64 (24 characters), as server/security.ts makes them. */
const NONCE_PLACEHOLDER = randomBytes(18).toString("base64url");
/** A stamp is `<13-digit ms>.<43-character signature>`: the placeholder is as long, so the fast fill applies. */
const STAMP_PLACEHOLDER = randomBytes(42).toString("base64url").slice(0, 57);
const PLACEHOLDERS = [NONCE_PLACEHOLDER, STAMP_PLACEHOLDER];

/** Headers the keeping cache sets itself on the way out. */
const OWN_HEADERS = ["content-length", "content-encoding", "cache-control", "vary", "etag", "last-modified"];

/** `bytes`: what it holds when first kept (packed again smaller, it holds a little less). `sends`: answers from it. */
export type KeptPage = { page: PackedPage; headers: [string, string][]; bytes: number; sends: number };

/** A page rendered to keep: its text with the per-request values as placeholders, and its headers. */
export type Rendered = { html: string; headers: [string, string][] };

/**
 * Renders `request` with placeholders for the per-request values; null when the answer is not one to keep
 * (not `status`, not of `type` — HTML, or a `.data` request's stream — or it sets a cookie): its body is
 * dropped and the app is to answer instead.
 */
export async function renderForKeeping(
  render: Render,
  request: Request,
  status: number,
  type = "text/html",
  context: Omit<AppLoadContext, "cspNonce"> = {},
): Promise<Rendered | null> {
  const response = await render(request, { ...context, cspNonce: NONCE_PLACEHOLDER, formStamp: STAMP_PLACEHOLDER });
  if (response.status !== status || !(response.headers.get("content-type") ?? "").startsWith(type) || response.headers.has("set-cookie")) {
    await response.body?.cancel();
    return null;
  }
  return { html: await response.text(), headers: [...response.headers].filter(([name]) => !OWN_HEADERS.includes(name)) };
}

/** A rendered page, packed to be answered from. */
export function keep(rendered: Rendered): KeptPage {
  return keptFrom(packPage(rendered.html, PLACEHOLDERS), rendered.headers);
}

/** A kept page of a packed page (one made from a template: server/search-template.ts). */
export function keptFrom(page: PackedPage, headers: [string, string][]): KeptPage {
  return { page, headers, bytes: page.text.length + page.gzip.length + 512, sends: 0 };
}

/** A rendered page as a template with `holes` (each a text it holds), keeping the per-request placeholders as slots. */
export function keepTemplate(rendered: Rendered, holes: string[]): PageTemplate {
  return packTemplate(rendered.html, PLACEHOLDERS, holes);
}

/** `renderForKeeping`, packed. */
export async function renderToKeep(...args: Parameters<typeof renderForKeeping>): Promise<KeptPage | null> {
  const rendered = await renderForKeeping(...args);
  return rendered && keep(rendered);
}

/** Random bytes for nonces, drawn from a pool refilled 4 KB at a time. */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
function nonce() {
  if (poolAt + 16 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += 16;
  return pool.toString("base64", poolAt - 16, poolAt);
}

/** Answers from a kept page: a fresh nonce (and form stamp, if the page has a form), gzip if taken. */
export function sendKept(req: IncomingMessage, res: ServerResponse, status: number, kept: KeptPage, cacheHeaders: [string, string][], options: HeaderOptions) {
  const scriptNonce = nonce();
  const values: Record<string, string> = { [NONCE_PLACEHOLDER]: scriptNonce };
  if (kept.page.slots.includes(STAMP_PLACEHOLDER)) values[STAMP_PLACEHOLDER] = issueFormStamp();
  const gzip = acceptsGzip(header(req, "accept-encoding"));
  const body = gzip ? fillGzip(kept.page, values) : fillText(kept.page, values);
  const list: [string, string][] = [...securityHeaderList(scriptNonce, options), ...kept.headers, ...cacheHeaders];
  if (gzip) list.push(["Content-Encoding", "gzip"]);
  list.push(["Content-Length", String(body.length)]);
  res.writeHead(status, list.flat());
  res.end(body);
  // Asked for a second time: packed again smaller, after this answer, for the answers that follow.
  if (++kept.sends === 2 && kept.page.level < KEPT_LEVEL) setImmediate(() => (kept.page = repack(kept.page)));
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** Whether Accept-Encoding takes gzip (or anything), not refused with q=0. */
export function acceptsGzip(accept: string | undefined): boolean {
  if (!accept) return false;
  let star = false;
  for (const item of accept.split(",")) {
    const [coding, ...params] = item.trim().split(";");
    const name = coding.trim().toLowerCase();
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const allowed = !q || Number(q.slice(2)) > 0;
    if (name === "gzip" || name === "x-gzip") return allowed;
    if (name === "*") star = allowed;
  }
  return star;
}

/** Copies a request's headers for rendering, leaving out those named. */
export function requestHeadersWithout(req: IncomingMessage, leaveOut: (name: string) => boolean): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (leaveOut(name) || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}
