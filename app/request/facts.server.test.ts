import { describe, expect, it } from "vitest";
import { clientAddress, parseTrustProxy } from "./facts.server";

// TRUST_PROXY: the client writes the left of X-Forwarded-For; only what our proxies
// appended on the right is believed.

describe("clientAddress", () => {
  it("without trusted proxies is the socket's peer, whatever X-Forwarded-For claims", () => {
    expect(clientAddress("203.0.113.9", "1.2.3.4", parseTrustProxy("false"))).toBe("203.0.113.9");
    expect(clientAddress("::ffff:203.0.113.9", undefined, parseTrustProxy(undefined))).toBe("203.0.113.9");
  });

  it("true means one proxy: the right-most hop, never a spoofed first one", () => {
    const one = parseTrustProxy("true");
    expect(clientAddress("10.0.0.2", "198.51.100.7", one)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.2", "6.6.6.6, 198.51.100.7", one)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.2", ["6.6.6.6", "7.7.7.7, 198.51.100.7"], one)).toBe("198.51.100.7");
    // No header: the request reached us directly.
    expect(clientAddress("198.51.100.7", undefined, one)).toBe("198.51.100.7");
  });

  it("a number of proxies counts that many hops from the right", () => {
    expect(clientAddress("10.0.0.2", "6.6.6.6, 198.51.100.7, 10.0.0.1", parseTrustProxy("2"))).toBe("198.51.100.7");
  });

  it("a list of proxy addresses skips only those, from the right", () => {
    const list = parseTrustProxy("10.0.0.0/8, 192.168.1.5");
    expect(clientAddress("192.168.1.5", "6.6.6.6, 198.51.100.7, 10.1.2.3", list)).toBe("198.51.100.7");
    // A peer that is not one of our proxies is the client, whatever it forwards.
    expect(clientAddress("203.0.113.9", "6.6.6.6", list)).toBe("203.0.113.9");
    // Every hop a trusted proxy: the left-most is the best we know.
    expect(clientAddress("10.0.0.2", "10.0.0.3", list)).toBe("10.0.0.3");
  });

  it("garbage in the header never becomes the address", () => {
    expect(clientAddress("10.0.0.2", "hello", parseTrustProxy("true"))).toBe("10.0.0.2");
    expect(clientAddress("192.168.1.5", "not-an-ip", parseTrustProxy("192.168.1.5"))).toBe("192.168.1.5");
  });

  it("refuses a list entry that is no address", () => {
    expect(() => parseTrustProxy("proxy.internal")).toThrow(/not an IP address/);
  });
});
