import { BlockList, isIP } from "node:net";

// Facts about the request that more than one module needs.

/**
 * Which proxies in front of us may add to X-Forwarded-For (TRUST_PROXY, README "Configuration"):
 * none, a number of proxies (each appends the address it saw, so the client is that many hops from
 * the right), or the proxies' own addresses and subnets. `true` means one proxy.
 */
export type TrustedProxies = { kind: "none" } | { kind: "hops"; hops: number } | { kind: "addresses"; list: BlockList };

/** TRUST_PROXY as written: false, true (one proxy), a number of proxies, or addresses/CIDR subnets separated by commas. */
export function parseTrustProxy(value: string | undefined): TrustedProxies {
  const text = (value ?? "").trim().toLowerCase();
  if (!text || text === "false" || text === "0") return { kind: "none" };
  if (text === "true") return { kind: "hops", hops: 1 };
  if (/^\d+$/.test(text)) return { kind: "hops", hops: Number(text) };
  const list = new BlockList();
  for (const entry of text
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [address, bits] = entry.split("/");
    const family = isIP(address);
    if (!family) throw new Error(`"${entry}" is not an IP address or subnet`);
    const type = family === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return { kind: "addresses", list };
}

/** "::ffff:10.0.0.1" (an IPv4 client on a dual-stack socket) is 10.0.0.1. */
function plainAddress(address: string) {
  const trimmed = address.trim().replace(/^\[|\]$/g, "");
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(trimmed) ? trimmed.slice(7) : trimmed;
}

function isTrusted(list: BlockList, address: string) {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address: the right-most address of the chain (X-Forwarded-For hops, then the socket's
 * peer) that was not added by a proxy we trust. A client writes whatever it likes on the left of
 * X-Forwarded-For; only what our own proxies appended on the right can be believed.
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trust: TrustedProxies): string {
  const peer = plainAddress(socketAddress ?? "") || "unknown";
  if (trust.kind === "none") return peer;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? "")).split(",").map(plainAddress).filter(Boolean);
  const chain = [...hops, peer];
  if (trust.kind === "hops") {
    // Each of our proxies appended one address; fewer hops than proxies means the request skipped them.
    const index = chain.length - 1 - trust.hops;
    const found = chain[Math.max(index, 0)];
    return isIP(found) ? found : peer;
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!isTrusted(trust.list, chain[i])) return isIP(chain[i]) || i === chain.length - 1 ? chain[i] : chain[i + 1];
  }
  return chain[0];
}

/** The client's address as server/security.ts worked it out from the socket and the trusted proxies. */
export function clientIp(request: Request): string {
  return request.headers.get("x-everlight-ip") ?? "unknown";
}

/** Whether a request is a link prefetch (Sec-Purpose or Purpose: prefetch), which is not a visit. */
export function isPrefetch(purpose: string | null | undefined): boolean {
  return /prefetch/i.test(purpose ?? "");
}
