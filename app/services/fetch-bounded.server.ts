import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

// Fetching from other sites (issue 18: news feeds and the pictures their articles name), always bounded:
// a whole answer must arrive within `timeoutMs` and be at most `maxBytes` long (a declared length over it
// is refused before reading, a body that outgrows it is cut off while streaming), so a feed that hangs,
// trickles or is huge cannot hold or fill the server. Redirects are followed by hand (at most 3), each
// hop checked again. Pictures come from addresses a feed names, so they are refused on private, loopback
// and link-local addresses (a feed must not make the server fetch from inside its own network) unless the
// host is one the caller trusts (the feed's own host, which an administrator configured).

export type Fetched = { ok: true; bytes: Buffer; contentType: string; url: string };
export type FetchRefusal = {
  ok: false;
  reason: "bad-address" | "private-address" | "timeout" | "too-large" | "status" | "network" | "redirects";
  /** A sentence a person can read, without the address (the caller names it). */
  message: string;
  status?: number;
};

export type FetchOptions = {
  timeoutMs: number;
  maxBytes: number;
  accept?: string;
  /** Refuse hosts on private, loopback or link-local addresses, except these host names. */
  publicOnly?: { except: string[] };
  maxRedirects?: number;
};

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) PRIVATE.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["::ffff:0:0", 96]] as const) PRIVATE.addSubnet(net, bits, "ipv6");

/** Whether an IP address is one of the private, loopback, link-local or reserved ranges. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6 && /^::ffff:/i.test(address)) {
    const v4 = address.slice(7);
    if (isIP(v4) === 4) return PRIVATE.check(v4, "ipv4");
  }
  return PRIVATE.check(address, family === 4 ? "ipv4" : "ipv6");
}

async function refusedHost(url: URL, publicOnly: FetchOptions["publicOnly"]): Promise<boolean> {
  if (!publicOnly) return false;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (publicOnly.except.some((h) => h.toLowerCase() === host)) return false;
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host)) return isPrivateAddress(host);
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address));
  } catch {
    return false; // unknown names fail at the fetch itself, with its own message
  }
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} seconds` : `${(ms / 1000).toFixed(1)} seconds`);
const megabytes = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`);

export async function fetchBounded(address: string, options: FetchOptions): Promise<Fetched | FetchRefusal> {
  const { timeoutMs, maxBytes, accept, publicOnly, maxRedirects = 3 } = options;
  const signal = AbortSignal.timeout(timeoutMs);
  const timedOut = (): FetchRefusal => ({ ok: false, reason: "timeout", message: `did not answer within ${seconds(timeoutMs)}` });
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { ok: false, reason: "bad-address", message: "is not a web address" };
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: "bad-address", message: "is not an http or https address" };
    if (await refusedHost(url, publicOnly)) return { ok: false, reason: "private-address", message: "points at a private network address" };
    let response: Response;
    try {
      response = await fetch(url, { signal, redirect: "manual", headers: { Accept: accept ?? "*/*", "User-Agent": "Everlight news reader (+https://everlight.uk)" } });
    } catch (error) {
      if (signal.aborted) return timedOut();
      const code = (error as { cause?: { code?: string } }).cause?.code;
      return { ok: false, reason: "network", message: `could not be reached${code ? ` (${code})` : ""}` };
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
      await response.body?.cancel().catch(() => {});
      if (hop >= maxRedirects) return { ok: false, reason: "redirects", message: "redirected too many times" };
      try {
        url = new URL(response.headers.get("location")!, url);
      } catch {
        return { ok: false, reason: "bad-address", message: "redirected to something that is not a web address" };
      }
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      return { ok: false, reason: "status", status: response.status, message: `answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}` };
    }
    const tooLarge: FetchRefusal = { ok: false, reason: "too-large", message: `is larger than ${megabytes(maxBytes)}, so it was not read` };
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel().catch(() => {});
      return tooLarge;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      const reader = response.body?.getReader();
      for (;;) {
        if (!reader) break;
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel().catch(() => {});
          return tooLarge;
        }
        chunks.push(value);
      }
    } catch (error) {
      if (signal.aborted) return timedOut();
      return { ok: false, reason: "network", message: `broke off while sending (${error instanceof Error ? error.message : "unknown error"})` };
    }
    return { ok: true, bytes: Buffer.concat(chunks), contentType: response.headers.get("content-type") ?? "", url: url.toString() };
  }
}
