import http from "node:http";
import { randomBytes } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";

// A new search on the gallery filled into the page rendered for the same memorials found (server/search-template.ts):
// over real HTTP against the built server, the page a visitor gets is the page rendered in full, byte for byte
// but for the per-request nonce and form stamp, whatever the words; and it shows what the database holds now.
//
// The page rendered in full: the same address with a `&` at its end, which the page reads alike (the form's
// action is spelled from the address's parameters) but which the templates leave to a full render (an address
// not spelled as the form spells it). A filled page carries the words as a stored (uncompressed) block, so they
// stand in its gzip bytes as they are: that tells which way a page was made.

let server: TestServer;
let owner: Client;
const TAG = randomBytes(3).toString("hex");

/** The gzip bytes an anonymous visitor's browser gets, and the page they unpack to, per-request values blanked. */
function visit(path: string) {
  return new Promise<{ status: number; gzip: Buffer; html: string }>((resolve, reject) => {
    http
      .get(new URL(path, server.url), { headers: { "Accept-Encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const gzip = Buffer.concat(chunks);
          expect(res.headers["content-encoding"], path).toBe("gzip");
          const html = gunzipSync(gzip)
            .toString()
            .replace(/nonce="[^"]+"|\d{13}\.[\w-]{43}/g, "");
          resolve({ status: res.statusCode!, gzip, html });
        });
      })
      .on("error", reject);
  });
}

const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
/** The words as the page's HTML writes them. */
const asHtml = (words: string) => words.replace(/["&'<>]/g, (c) => ({ '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" })[c]!);

async function publicMemorial(firstName: string, lastName: string, category = "individual") {
  const res = await owner.post("/api/memorials", {
    firstName,
    lastName,
    biography: "Kept the lighthouse lit.",
    visibility: "public",
    isPublished: true,
    category,
  });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

describe.each(serverDatabases())("a new search on the gallery, on %s", (database) => {
  beforeAll(async () => {
    server = await startServer({}, { database });
    owner = (await registerMember(server.url, { firstName: "Tam", lastName: "Owner" })).api;
    await publicMemorial("Wren", `Halloran${TAG}`);
    await publicMemorial("Ottoline", `Halloran${TAG}`, "organization");
    await publicMemorial("Desmond", `O'Hara & "Sons" <${TAG}>`);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  // [words, other parameters, filled from a template (else rendered in full: the words are a text the page's data holds)]
  const searches: [string, Record<string, string>, boolean][] = [
    [`nothing like it ${TAG}`, {}, true],
    [`Halloran ${TAG}`, {}, true],
    [`halloran${TAG}`, { category: "organization", sort: "alphabetical", view: "list" }, true],
    [`halloran${TAG}`, { view: "masonry", page: "2", unknown: "kept as it is" }, true],
    [`O'Hara & "Sons" <${TAG}`, {}, true],
    [`Grüße, 祖母 🌼 ${TAG} + 100% / ? # = \\ back`, {}, true],
    [`two\u2028lines\u2029${TAG}`, {}, true],
    [`${"long ".repeat(19)}${TAG}`.slice(0, 100), {}, true],
    // A text the page's data holds (a name, a category's value, a key): rendered in full.
    ["Wren", {}, false],
    [`O'Hara & "Sons" <${TAG}>`, {}, false],
    ["individual", {}, false],
    ["search", {}, false],
  ];

  it.each(searches)("the page for %j %j is the page rendered in full", async (words, others, filled) => {
    const address = `/memorials?${query({ search: words, ...others })}`;
    const fromTemplate = await visit(address);
    const inFull = await visit(`${address}&`);
    expect(fromTemplate.status).toBe(200);
    expect(inFull.status).toBe(200);
    expect(fromTemplate.html).toContain(`Memorials matching “${asHtml(words)}”`);
    expect(fromTemplate.html).toBe(inFull.html);
    // Which way each was made.
    expect(fromTemplate.gzip.includes(Buffer.from(asHtml(words))), "filled from a template").toBe(filled);
    expect(inFull.gzip.includes(Buffer.from(asHtml(words))), "rendered in full").toBe(false);
    // Asked for again: the same page, now kept (and packed again smaller).
    expect((await visit(address)).html).toBe(inFull.html);
  });

  it("fills /market, the same gallery at another address, from its own templates", async () => {
    const words = `market words ${TAG}`;
    const address = `/market?${query({ search: words, view: "list" })}`;
    const fromTemplate = await visit(address);
    const inFull = await visit(`${address}&`);
    expect(fromTemplate.gzip.includes(Buffer.from(words))).toBe(true);
    expect(fromTemplate.html).toBe(inFull.html);
    expect(fromTemplate.html).toContain(`action="/market?${query({ search: words, view: "list" }).replaceAll("&", "&amp;")}"`);
  });

  it("finds what each search finds: one template per set of memorials found", async () => {
    // The results, before the Featured carousel that follows them on a search.
    const results = async (words: string) => {
      const { html } = await visit(`/memorials?${query({ search: words })}`);
      const end = html.indexOf('aria-labelledby="featured-heading"');
      return html.slice(html.indexOf('id="results-heading"'), end > 0 ? end : html.indexOf("</main>"));
    };
    const both = await results(`halloran${TAG}`);
    expect(both).toContain(`Wren Halloran${TAG}`);
    expect(both).toContain(`Ottoline Halloran${TAG}`);
    const one = await results(`wren halloran${TAG}`);
    expect(one).toContain(`Wren Halloran${TAG}`);
    expect(one).not.toContain(`Ottoline Halloran${TAG}`);
    const none = await results(`ottoline wren ${TAG}`);
    expect(none).toContain("No memorials found");
    expect(none).not.toContain(`Halloran${TAG}`);
  });

  it("shows a memorial published, renamed or hidden on the very next search", async () => {
    const words = (n: number) => `Pen${TAG} ${n}`;
    const search = async (n: number) => {
      const page = await visit(`/memorials?${query({ search: words(n) })}`);
      expect(page.gzip.includes(Buffer.from(words(n))), "filled from a template").toBe(true);
      return page.html;
    };
    // Searches that find nothing share one template.
    expect(await search(1)).toContain("No memorials found");
    expect(await search(2)).toContain("No memorials found");
    const id = await publicMemorial("Lowen", `${words(3)}rd`);
    expect(await search(3)).toContain(`href="/memorials/${id}"`);
    expect(await search(4)).toContain("No memorials found");
    expect((await owner.put(`/api/memorials/${id}`, { firstName: "Lowenna" })).status).toBe(200);
    expect(await search(3)).toContain(`Lowenna ${words(3)}rd`);
    expect((await owner.put(`/api/memorials/${id}`, { visibility: "private" })).status).toBe(200);
    const hidden = await search(3);
    expect(hidden).not.toContain(`href="/memorials/${id}"`);
    expect(hidden).toContain("No memorials found");
  });

  it("renders in full the addresses a template would not say alike: words with spaces around, too long, twice, oddly spelled", async () => {
    const cases: [string, string][] = [
      [`/memorials?search=+${TAG}+`, TAG],
      [`/memorials?search=${"y".repeat(150)}`, "y".repeat(100)],
      [`/memorials?search=${TAG}a&search=${TAG}b`, `${TAG}a`],
      [`/memorials?search=${TAG}%20c`, `${TAG} c`],
    ];
    for (const [address, shown] of cases) {
      const page = await visit(address);
      expect(page.status, address).toBe(200);
      expect(page.html, address).toContain(`Memorials matching “${shown}”`);
      expect(page.gzip.includes(Buffer.from(shown)), address).toBe(false);
    }
  });
});
