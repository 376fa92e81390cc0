import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import sharp from "sharp";

// A local news site for the news fetch's tests, which run offline: feeds from a local
// HTTP server, also slow, huge and malformed ones. It serves an RSS feed and an Atom feed whose entries
// can be changed between fetches, their pictures, and feeds that misbehave: one that never finishes, one
// larger than any feed should be (with and without a declared length), one that is broken XML, an HTML
// page where a feed should be, one that is down, one with an entity-expansion bomb, and one that
// redirects (/redirect?to=…).

export type FeedItem = { title: string; path: string; description?: string; published?: string; image?: string };

export type FeedTestServer = {
  url: string;
  /** Replaces the entries of /rss.xml or /atom.xml. */
  setItems: (feed: "rss" | "atom", items: FeedItem[]) => void;
  /** How many times each path was asked for. */
  hits: Map<string, number>;
  stop: () => Promise<void>;
};

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export async function startFeedServer(): Promise<FeedTestServer> {
  const items: Record<"rss" | "atom", FeedItem[]> = { rss: [], atom: [] };
  const hits = new Map<string, number>();
  const sockets = new Set<Socket>();
  const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 120, g: 90, b: 200 } } })
    .png()
    .toBuffer();
  let base = "";

  const rss = () =>
    `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/">
  <channel>
    <title>The Local Chronicle: Obituaries</title>
    <link>${base}/</link>
    <description>Obituaries from the Chronicle</description>
    ${items.rss
      .map(
        (i) => `<item>
      <title>${escape(i.title)}</title>
      <link>${base}${i.path}</link>
      <guid>${base}${i.path}</guid>
      ${i.description ? `<description>${escape(i.description)}</description>` : ""}
      ${i.published ? `<pubDate>${new Date(i.published).toUTCString()}</pubDate>` : ""}
      ${i.image ? `<media:content url="${base}${i.image}" medium="image" type="image/png" />` : ""}
    </item>`,
      )
      .join("\n")}
  </channel>
</rss>`;

  const atom = () =>
    `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Remembrance Weekly</title>
  <id>${base}/atom.xml</id>
  <updated>2026-11-20T10:00:00Z</updated>
  ${items.atom
    .map(
      (i) => `<entry>
    <title>${escape(i.title)}</title>
    <id>${base}${i.path}</id>
    <link rel="alternate" href="${base}${i.path}" />
    <updated>${i.published ?? "2026-11-20T10:00:00Z"}</updated>
    ${i.description ? `<summary type="html">${escape(`<p>${i.description}</p>`)}</summary>` : ""}
  </entry>`,
    )
    .join("\n")}
</feed>`;

  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) => {
    res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    switch (path) {
      case "/rss.xml":
        return send(res, 200, "application/rss+xml; charset=utf-8", rss());
      case "/atom.xml":
        return send(res, 200, "application/atom+xml", atom());
      case "/slow.xml":
        // Starts to answer, then never finishes.
        res.writeHead(200, { "Content-Type": "application/rss+xml" });
        res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Slow</title>');
        return;
      case "/huge.xml": {
        // 3 MB of entries, streamed without a declared length.
        res.writeHead(200, { "Content-Type": "application/rss+xml" });
        res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>Huge</title>');
        const chunk = `<item><title>Padding</title><link>${base}/p</link><description>${"x".repeat(1000)}</description></item>`.repeat(64);
        let sent = 0;
        const pump = () => {
          while (sent < 3 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
          res.end("</channel></rss>");
        };
        pump();
        return;
      }
      case "/huge-declared.xml":
        res.writeHead(200, { "Content-Type": "application/rss+xml", "Content-Length": String(50 * 1024 * 1024) });
        res.write("<rss>");
        return; // the reader refuses on the header; stop() cuts the connection
      case "/malformed.xml":
        return send(res, 200, "application/rss+xml", "<<<this is not > xml at all &&& <rss");
      case "/page.html":
        return send(res, 200, "text/html", "<!doctype html><html><head><title>Obituaries</title></head><body><h1>Our obituaries</h1></body></html>");
      case "/down.xml":
        return send(res, 503, "text/plain", "Service Unavailable");
      case "/bomb.xml":
        return send(
          res,
          200,
          "application/rss+xml",
          `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><rss version="2.0"><channel><title>&c;</title><item><title>&c;</title><link>${base}/b</link></item></channel></rss>`,
        );
      case "/redirect":
        // A feed that moved, to wherever ?to= says (an address inside our network, in the tests).
        res.writeHead(302, { Location: new URL(req.url ?? "/", base).searchParams.get("to") ?? "/" });
        return res.end();
      case "/not-an-image.png":
        return send(res, 200, "image/png", "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>");
      default:
        if (path.startsWith("/img/")) return send(res, 200, "image/png", png);
        return send(res, 404, "text/plain", "Not found");
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    setItems: (feed, list) => void (items[feed] = list),
    hits,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
