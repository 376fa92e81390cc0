import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";

// Fetching from other sites (news feeds and the pictures their articles name), always bounded:
// a whole answer must arrive within `timeoutMs` and be at most `maxBytes` long (a declared length over it
// is refused before reading, a body that outgrows it is cut off while streaming), so a feed that hangs,
// trickles or is huge cannot hold or fill the server. Redirects are followed by hand (at most 3), each
// hop checked again. Every address a feed leads to (its redirects, the pictures it names) is refused on
// private, loopback and link-local addresses (a feed must not make the server fetch from inside its own
// network) unless its scheme, host and port are one the caller trusts (the feed's own, which an
// administrator configured). A name is resolved once per hop and the connection made to the address that was checked.

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
  /** Refuse hosts on private, loopback or link-local addresses, except these schemes, hosts and ports (hostAndPort). */
  publicOnly?: { except: string[] };
  maxRedirects?: number;
};

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["::ffff:0:0", 96],
] as const)
  PRIVATE.addSubnet(net, bits, "ipv6");

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

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };

/**
 * A URL's scheme, host and port as compared with a trusted one ("http://feeds.example:80"). The port is
 * always written out (url.host leaves the default one out, so http://feeds.example and
 * https://feeds.example, port 80 and port 443, would compare equal).
 */
export function hostAndPort(url: URL): string {
  return `${url.protocol}//${url.hostname.toLowerCase()}:${url.port || DEFAULT_PORTS[url.protocol] || ""}`;
}

type Resolved = { address: string; family: 4 | 6 };

/**
 * The one address this hop connects to, resolved once and checked (resolving again to
 * connect let a name change its answer in between). With `publicOnly`, a private, loopback or link-local
 * answer is refused unless the scheme, host AND port are one the caller trusts.
 */
async function resolveHop(url: URL, publicOnly: FetchOptions["publicOnly"]): Promise<Resolved | FetchRefusal> {
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const trusted = !publicOnly || publicOnly.except.includes(hostAndPort(url));
  const refused: FetchRefusal = { ok: false, reason: "private-address", message: "points at a private network address" };
  if (!trusted && (host === "localhost" || host.endsWith(".localhost"))) return refused;
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true });
    } catch (error) {
      const code = (error as { code?: string }).code;
      return { ok: false, reason: "network", message: `could not be reached${code ? ` (${code})` : ""}` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: "network", message: "could not be reached" };
  if (!trusted && addresses.some((a) => isPrivateAddress(a.address))) return refused;
  return { address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}

type Answer = { status: number; statusText: string; headers: http.IncomingHttpHeaders; body: http.IncomingMessage };

/** One request to the checked address (the name still used for the Host header and for TLS). */
function requestAt(url: URL, to: Resolved, headers: Record<string, string>, signal: AbortSignal): Promise<Answer> {
  const lookupChecked: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: to.address, family: to.family }]);
    else callback(null, to.address, to.family);
  };
  return new Promise((resolve, reject) => {
    const request = (url.protocol === "https:" ? https : http).request(url, { method: "GET", headers, signal, lookup: lookupChecked, agent: false }, (res) =>
      resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", headers: res.headers, body: res }),
    );
    request.on("error", reject);
    request.end();
  });
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
  const headers = { Accept: accept ?? "*/*", "User-Agent": "Everlight news reader (+https://everlight.uk)" };
  for (let hop = 0; ; hop++) {
    if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: "bad-address", message: "is not an http or https address" };
    // Every hop, redirects included, is resolved and checked again, and connected to as checked.
    const to = await resolveHop(url, publicOnly);
    if ("ok" in to) return to;
    let response: Answer;
    try {
      response = await requestAt(url, to, headers, signal);
    } catch (error) {
      if (signal.aborted) return timedOut();
      const code = (error as { code?: string }).code;
      return { ok: false, reason: "network", message: `could not be reached${code ? ` (${code})` : ""}` };
    }
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && location) {
      response.body.destroy();
      if (hop >= maxRedirects) return { ok: false, reason: "redirects", message: "redirected too many times" };
      try {
        url = new URL(location, url);
      } catch {
        return { ok: false, reason: "bad-address", message: "redirected to something that is not a web address" };
      }
      continue;
    }
    if (response.status < 200 || response.status >= 300) {
      response.body.destroy();
      return {
        ok: false,
        reason: "status",
        status: response.status,
        message: `answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
      };
    }
    const tooLarge: FetchRefusal = { ok: false, reason: "too-large", message: `is larger than ${megabytes(maxBytes)}, so it was not read` };
    const declared = Number(response.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) {
      response.body.destroy();
      return tooLarge;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.byteLength;
        if (size > maxBytes) {
          response.body.destroy();
          return tooLarge;
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (signal.aborted) return timedOut();
      return { ok: false, reason: "network", message: `broke off while sending (${error instanceof Error ? error.message : "unknown error"})` };
    }
    if (!response.body.complete) {
      if (signal.aborted) return timedOut();
      return { ok: false, reason: "network", message: "broke off while sending" };
    }
    return { ok: true, bytes: Buffer.concat(chunks), contentType: String(response.headers["content-type"] ?? ""), url: url.toString() };
  }
}
