import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fetchBounded, hostAndPort } from "./fetch-bounded.server";
import { readFeed } from "./feeds.server";

// News fetching cannot reach inside. A feed (configured by an administrator, here on
// 127.0.0.1) redirects to another port of the same machine, an "internal service"; the feed's own host
// is trusted only with its own port; a name is resolved once per hop and the connection goes to the
// address that was checked (a name that answers a public address first and a private one next, DNS
// rebinding, never reaches inside).

const dns = vi.hoisted(() => ({ answers: [] as string[], calls: 0 }));
vi.mock("node:dns/promises", async (original) => {
  const real = await original<typeof import("node:dns/promises")>();
  return {
    ...real,
    lookup: async (host: string, options: object) => {
      if (host !== "rebind.example") return real.lookup(host, options as never);
      dns.calls++;
      const address = dns.answers.shift() ?? "127.0.0.1";
      return [{ address, family: 4 }];
    },
  };
});

let inside: Server;
let feed: Server;
let insideUrl = "";
let feedUrl = "";
const insideHits: string[] = [];

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  inside = createServer((req, res) => {
    insideHits.push(req.url ?? "");
    res.writeHead(200, { "Content-Type": "application/rss+xml" });
    res.end('<?xml version="1.0"?><rss version="2.0"><channel><title>Internal secrets</title></channel></rss>');
  });
  insideUrl = await listen(inside);
  feed = createServer((req, res) => {
    if (req.url === "/to-inside.xml") res.writeHead(302, { Location: `${insideUrl}/admin.xml` }).end();
    else if (req.url === "/to-self.xml") res.writeHead(301, { Location: "/feed.xml" }).end();
    else if (req.url === "/to-rebind.xml") res.writeHead(302, { Location: "http://rebind.example/secret.xml" }).end();
    else
      res
        .writeHead(200, { "Content-Type": "application/rss+xml" })
        .end('<?xml version="1.0"?><rss version="2.0"><channel><title>Chronicle</title></channel></rss>');
  });
  feedUrl = await listen(feed);
});
afterAll(async () => {
  inside.closeAllConnections();
  feed.closeAllConnections();
  await Promise.all([new Promise((r) => inside.close(r)), new Promise((r) => feed.close(r))]);
});

describe("news fetching cannot reach inside", () => {
  it("a feed that redirects to a private address is refused, and nothing inside is asked", async () => {
    const read = await readFeed(`${feedUrl}/to-inside.xml`);
    expect(read).toEqual({ ok: false, message: `The feed ${feedUrl}/to-inside.xml points at a private network address.` });
    expect(insideHits).toEqual([]);
  });

  it("a feed may redirect within its own host and port", async () => {
    expect(await readFeed(`${feedUrl}/to-self.xml`)).toMatchObject({ ok: true, title: "Chronicle" });
  });

  it("the feed's own host is trusted with its own port only", async () => {
    const feedHost = hostAndPort(new URL(feedUrl));
    const picture = (except: string[]) => fetchBounded(`${insideUrl}/picture.png`, { timeoutMs: 2000, maxBytes: 1024, publicOnly: { except } });
    expect(await picture([feedHost])).toMatchObject({ ok: false, reason: "private-address" });
    expect(await picture(["127.0.0.1", new URL(insideUrl).host])).toMatchObject({ ok: false, reason: "private-address" });
    expect(insideHits).toEqual([]);
    expect(await picture([hostAndPort(new URL(insideUrl))])).toMatchObject({ ok: true });
    insideHits.length = 0;
  });

  it("the default ports count: a feed trusted on https (443) does not open http (80) on the same host", async () => {
    expect(hostAndPort(new URL("https://feed.example/rss"))).toBe("https://feed.example:443");
    expect(hostAndPort(new URL("http://feed.example/rss"))).toBe("http://feed.example:80");
    expect(hostAndPort(new URL("http://FEED.example:8080/rss"))).toBe("http://feed.example:8080");
    // Refused before any connection is tried (nothing listens on port 80 here: a "network" answer would
    // mean the address was trusted and asked).
    const trusted = [hostAndPort(new URL("https://127.0.0.1/feed.xml"))];
    expect(await fetchBounded("http://127.0.0.1/secret.xml", { timeoutMs: 2000, maxBytes: 1024, publicOnly: { except: trusted } })).toMatchObject({
      ok: false,
      reason: "private-address",
    });
    expect(await fetchBounded("https://127.0.0.1:80/secret.xml", { timeoutMs: 2000, maxBytes: 1024, publicOnly: { except: trusted } })).toMatchObject({
      ok: false,
      reason: "private-address",
    });
  });

  it("a name is resolved once per hop and connected to as checked: rebinding to 127.0.0.1 never reaches inside", async () => {
    // Public first (TEST-NET-1, unreachable here), private the next time anyone asks.
    dns.answers = ["192.0.2.10", "127.0.0.1"];
    dns.calls = 0;
    const port = new URL(insideUrl).port;
    const result = await fetchBounded(`http://rebind.example:${port}/secret.xml`, { timeoutMs: 1500, maxBytes: 1024, publicOnly: { except: [] } });
    expect(result.ok).toBe(false);
    expect(dns.calls).toBe(1);
    expect(insideHits).toEqual([]);
  });

  it("a redirect to a name that answers a private address is refused", async () => {
    dns.answers = ["127.0.0.1"];
    expect(await readFeed(`${feedUrl}/to-rebind.xml`)).toMatchObject({ ok: false, message: expect.stringContaining("private network address") });
    expect(insideHits).toEqual([]);
  });
});
