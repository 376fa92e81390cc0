import http from "node:http";
import { gunzipSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, startServer, type ApiResponse, type Client, type TestServer } from "../test/http";

// The anonymous memorial page cache (server/page-cache.ts) over real HTTP against the built server:
// whatever changes, the next anonymous request shows it, and nothing that stopped being public is ever
// served from a kept copy. Everything is set up through the /api, so this runs on PGlite and PostgreSQL.

let server: TestServer;

const member = () => registerMember(server.url, { firstName: "Cara", lastName: "Owner" });

async function publicMemorial(owner: Client, biography = "She kept bees on the hill.") {
  const res = await owner.post("/api/memorials", { firstName: "Iris", lastName: "Fenwick", biography, visibility: "public", isPublished: true });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

async function addPhoto(owner: Client, id: string) {
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 140, b: 60 } } })
    .png()
    .toBuffer();
  const res = await owner.post(`/api/memorials/${id}/media`, {
    mediaData: `data:image/png;base64,${bytes.toString("base64")}`,
    fileName: "hill.png",
    fileType: "image/png",
  });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: string; mediaUrl: string };
}

/** An anonymous visitor's page load: a fresh client, no cookies. */
const visit = (id: string, headers: Record<string, string> = {}) => client(server.url).get(`/memorials/${id}`, { headers });

/** A GET without Accept-Encoding (fetch always asks for gzip). */
function rawGet(path: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get(new URL(path, server.url), (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ headers: res.headers, body }));
      })
      .on("error", reject);
  });
}

/** A GET taking gzip, its body as the bytes sent. */
function gzipGet(path: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(new URL(path, server.url), { headers: { "Accept-Encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

const nonceOf = (res: ApiResponse) => /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
const stampOf = (res: ApiResponse) => /name="formStartedAt" value="([^"]+)"/.exec(res.text)?.[1];

beforeAll(async () => {
  server = await startServer();
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

describe("the anonymous memorial page cache", () => {
  it("serves each visitor a copy with its own script nonce and form stamp, and revalidates with an ETag", async () => {
    const owner = await member();
    const id = await publicMemorial(owner.api);
    const first = await visit(id);
    const second = await visit(id);
    for (const res of [first, second]) {
      expect(res.status).toBe(200);
      expect(res.text).toContain("She kept bees on the hill.");
      expect(res.headers.get("cache-control")).toBe("public, no-cache");
      expect(res.headers.get("vary")).toMatch(/cookie/i);
      // Every script the page runs carries the nonce its own policy allows (else nothing hydrates). The
      // schema.org JSON-LD is a data block, never run, and outside script-src; the scripts waiting for the
      // visitor are text until the one that runs puts them back with its nonce (hydrate-on-use.server.ts).
      const nonce = nonceOf(res)!;
      const scripts = [...res.text.matchAll(/<script\b[^>]*>/g)]
        .map((m) => m[0])
        .filter((tag) => !/type="(?:application\/ld\+json|everlight\/on-use)"/.test(tag));
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
      expect(stampOf(res)).toMatch(/^\d{13}\.[\w-]+$/);
    }
    expect(nonceOf(first)).not.toBe(nonceOf(second));
    expect(first.headers.get("etag")).toBe(second.headers.get("etag"));

    // Kept compressed, sent as gzip to browsers that take it and as plain text to those that do not.
    expect(second.headers.get("content-encoding")).toBe("gzip");
    const plain = await rawGet(`/memorials/${id}`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toContain("She kept bees on the hill.");
    const perRequest = /nonce="[^"]+"|\d{13}\.[\w-]{43}/g;
    expect(plain.body.replace(perRequest, "")).toBe(second.text.replace(perRequest, ""));

    const revalidated = await visit(id, { "If-None-Match": second.headers.get("etag")! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe("");
    // The browser keeps its copy, and with it the policy whose nonce that copy carries.
    expect(revalidated.headers.get("content-security-policy")).toBeNull();
  });

  it("packs a page fast for its first visitor, and smaller once it is asked for again", async () => {
    const owner = await member();
    const id = await publicMemorial(owner.api, "She kept bees on the hill, and taught the whole valley to swim. ".repeat(60));
    const perRequest = /nonce="[^"]+"|\d{13}\.[\w-]{43}/g;
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await gzipGet(`/memorials/${id}`));
    const [first, second] = answers;
    expect(second.body.length).toBe(first.body.length);
    // Packed again after the second answer: the ones that follow are smaller, and unpack to the same page.
    await expect.poll(async () => (await gzipGet(`/memorials/${id}`)).body.length).toBeLessThan(first.body.length);
    const later = await gzipGet(`/memorials/${id}`);
    expect(later.headers["content-length"]).toBe(String(later.body.length));
    expect(gunzipSync(later.body).toString().replace(perRequest, "")).toBe(gunzipSync(first.body).toString().replace(perRequest, ""));
    expect(gunzipSync(later.body).toString()).toContain("taught the whole valley to swim");
  });

  it("counts every anonymous visit, served from the cache or revalidated, but not a prefetch", async () => {
    const owner = await member();
    const id = await publicMemorial(owner.api);
    const first = await visit(id);
    await visit(id);
    await visit(id, { "If-None-Match": first.headers.get("etag")! });
    await visit(id, { "Sec-Purpose": "prefetch" });
    // The /api's view call adds one and answers the count including views not yet written.
    const counted = await client(server.url).post(`/api/memorials/${id}/view`);
    expect(counted.json.viewCount).toBe(4);
  });

  it("shows an edit, a new photo, a deleted photo and an approved tribute on the very next request", async () => {
    const owner = await member();
    const id = await publicMemorial(owner.api);
    const before = await visit(id);
    expect(before.text).toContain("She kept bees on the hill.");

    expect((await owner.api.put(`/api/memorials/${id}`, { biography: "She taught the whole valley to swim." })).status).toBe(200);
    const edited = await visit(id);
    expect(edited.text).toContain("She taught the whole valley to swim.");
    expect(edited.text).not.toContain("She kept bees on the hill.");
    expect(edited.headers.get("etag")).not.toBe(before.headers.get("etag"));
    // A browser holding the old copy is sent the new one.
    expect((await visit(id, { "If-None-Match": before.headers.get("etag")! })).status).toBe(200);

    const photo = await addPhoto(owner.api, id);
    const base = photo.mediaUrl.slice(0, photo.mediaUrl.lastIndexOf("/")); // the folder of its resized versions
    expect((await visit(id)).text).toContain(base);
    expect((await owner.api.delete(`/api/memorials/media/${photo.id}`)).status).toBe(200);
    expect((await visit(id)).text).not.toContain(base);

    const visitor = client(server.url);
    const posted = await visitor.post(`/api/memorials/${id}/tributes`, { authorName: "Noor", content: "She pulled me out of the river in 1962." });
    expect(posted.status, posted.text).toBe(201);
    expect((await visit(id)).text).not.toContain("She pulled me out of the river");
    expect((await owner.api.put(`/api/tributes/${posted.json.id}/approve`)).status).toBe(200);
    expect((await visit(id)).text).toContain("She pulled me out of the river in 1962.");
    expect((await owner.api.delete(`/api/tributes/${posted.json.id}`)).status).toBe(200);
    expect((await visit(id)).text).not.toContain("She pulled me out of the river");
  });

  it("never serves a kept copy of a memorial made private, unpublished or deleted", async () => {
    const owner = await member();
    const id = await publicMemorial(owner.api, "A private family matter now.");
    const cached = await visit(id);
    expect(cached.text).toContain("A private family matter now.");

    expect((await owner.api.put(`/api/memorials/${id}`, { visibility: "private" })).status).toBe(200);
    const locked = await visit(id, { "If-None-Match": cached.headers.get("etag")! });
    expect(locked.status).toBe(403);
    expect(locked.text).not.toContain("A private family matter now.");
    expect(locked.headers.get("cache-control") ?? "").not.toContain("public");

    expect((await owner.api.put(`/api/memorials/${id}`, { visibility: "public", isPublished: false })).status).toBe(200);
    const draft = await visit(id);
    expect(draft.status).toBe(403);
    expect(draft.text).not.toContain("A private family matter now.");

    expect((await owner.api.put(`/api/memorials/${id}`, { isPublished: true })).status).toBe(200);
    expect((await visit(id)).text).toContain("A private family matter now.");
    expect((await owner.api.delete(`/api/memorials/${id}`)).status).toBe(200);
    const gone = await visit(id);
    expect(gone.status).toBe(404);
    expect(gone.text).not.toContain("A private family matter now.");
  });

  it("renders signed-in members and visitors with a toast afresh, never from the anonymous copy", async () => {
    const owner = await member();
    const id = await publicMemorial(owner.api);
    const anonymous = await visit(id);
    expect(anonymous.text).not.toContain(`/memorials/${id}/edit`);
    const own = await owner.api.get(`/memorials/${id}`);
    expect(own.status).toBe(200);
    expect(own.text).toContain(`/memorials/${id}/edit`);
    expect(own.headers.get("cache-control") ?? "").not.toContain("public");
    // And the anonymous copy did not pick up the owner's page.
    expect((await visit(id)).text).not.toContain(`/memorials/${id}/edit`);

    // A visitor leaves a tribute without JavaScript: the confirmation toast is theirs alone.
    const visitor = client(server.url);
    const form = await visitor.get(`/memorials/${id}`);
    await new Promise((resolve) => setTimeout(resolve, 3100)); // the form's minimum fill time
    const body = new URLSearchParams({
      intent: "tribute",
      authorName: "Noor",
      authorEmail: "",
      content: "Thank you for the summers at the lake.",
      website: "",
      formStartedAt: stampOf(form)!,
    });
    const sent = await visitor.request("POST", `/memorials/${id}`, { body: body.toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(sent.status, sent.text.slice(0, 300)).toBe(303);
    const landed = await visitor.get(`/memorials/${id}`);
    expect(landed.text).toContain("Tribute submitted");
    expect(landed.headers.get("cache-control") ?? "").not.toContain("public");
    expect((await visit(id)).text).not.toContain("Tribute submitted");
  });

  it("keeps each page of the tribute list apart, pages past the last as the last, and refuses to cache other query strings", async () => {
    const owner = await member();
    const id = await publicMemorial(owner.api);
    // Eleven approved tributes, each from a visitor of their own: two pages of ten.
    for (let i = 1; i <= 11; i++) {
      const posted = await client(server.url).post(`/api/memorials/${id}/tributes`, {
        authorName: `Visitor ${i}`,
        content: `Tribute number ${i} of the hill.`,
      });
      expect(posted.status, posted.text).toBe(201);
      expect((await owner.api.put(`/api/tributes/${posted.json.id}/approve`)).status).toBe(200);
    }
    const plain = await visit(id);
    const paged = await client(server.url).get(`/memorials/${id}?tributes=2`);
    expect(paged.status).toBe(200);
    expect(paged.headers.get("etag")).toMatch(/^W\//);
    expect(paged.headers.get("etag")).not.toBe(plain.headers.get("etag"));
    expect(paged.text).toContain("Tribute number 1 of the hill.");
    expect(plain.text).not.toContain("Tribute number 1 of the hill.");
    // Any page number past the last shows the last page: its kept copy, whatever the number.
    for (const n of [3, 57, 9999]) {
      const past = await client(server.url).get(`/memorials/${id}?tributes=${n}`);
      expect(past.status).toBe(200);
      expect(past.headers.get("etag"), `page ${n}`).toBe(paged.headers.get("etag"));
      expect(past.text).toContain("Tribute number 1 of the hill.");
    }
    // One more tribute makes a third page: the numbers past the last are placed again.
    const twelfth = await client(server.url).post(`/api/memorials/${id}/tributes`, { authorName: "Visitor 12", content: "Tribute number 12 of the hill." });
    expect(twelfth.status, twelfth.text).toBe(201);
    expect((await owner.api.put(`/api/tributes/${twelfth.json.id}/approve`)).status).toBe(200);
    for (let i = 13; i <= 21; i++) {
      const posted = await client(server.url).post(`/api/memorials/${id}/tributes`, {
        authorName: `Visitor ${i}`,
        content: `Tribute number ${i} of the hill.`,
      });
      expect((await owner.api.put(`/api/tributes/${posted.json.id}/approve`)).status).toBe(200);
    }
    // A render of the memorial at its new version tells how many pages it has (before one, a number past the last is
    // rendered at its own address, once).
    expect((await visit(id)).text).toContain("Tribute number 21 of the hill.");
    const third = await client(server.url).get(`/memorials/${id}?tributes=57`);
    expect(third.text).toContain("Tribute number 1 of the hill.");
    expect(third.text).not.toContain("Tribute number 2 of the hill.");
    expect(third.headers.get("etag")).not.toBe(paged.headers.get("etag"));
    expect((await client(server.url).get(`/memorials/${id}?tributes=3`)).headers.get("etag")).toBe(third.headers.get("etag"));

    const other = await client(server.url).get(`/memorials/${id}?from=mail`);
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).toBeNull();
  });

  it("answers every address not found from one kept page, the page the app renders for any of them", async () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const perRequest = /nonce="[^"]+"|\d{13}\.[\w-]{43}/g;
    const first = await client(server.url).get(`/no-such-page-${tag}`);
    const second = await client(server.url).get(`/deeper/no-such-${tag}/page?search=${tag}`);
    for (const res of [first, second]) {
      expect(res.status).toBe(404);
      expect(res.headers.get("etag")).toMatch(/^W\/"not-found\./);
    }
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(second.text.replace(perRequest, "")).toBe(first.text.replace(perRequest, ""));
    // The app's own render for another address (a session cookie, though not a valid one, passes the cache by):
    // the same page, so the kept one says nothing of an address it was not rendered for.
    const rendered = await client(server.url, { cookie: "__session=not-a-session" }).get(`/elsewhere-${tag}/missing`);
    expect(rendered.status).toBe(404);
    expect(rendered.headers.get("etag")).toBeNull();
    expect(rendered.text.replace(perRequest, "")).toBe(first.text.replace(perRequest, ""));
    expect(first.text).not.toContain(tag);

    // On a not-found page the browser asks React Router for the routes of the address: the app answers that.
    const version = /"version":\s*"([^"]+)"/.exec(first.text)?.[1];
    expect(version).toBeTruthy();
    const manifest = await client(server.url).get(`/__manifest?paths=${encodeURIComponent(`/no-such-page-${tag}`)}&version=${version}`);
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get("etag")).toBeNull();
    expect(manifest.headers.get("content-type")).not.toMatch(/html/);
  });

  it("gives a visitor from a shared link (a click id, a campaign mark) the kept page, with the form posting to the page itself", async () => {
    const owner = await member();
    const id = await publicMemorial(owner.api, "She rowed across the loch every midsummer.");
    const plain = await visit(id);
    const perRequest = /nonce="[^"]+"|'nonce-[^']+'|\d{13}\.[\w-]{43}/g;
    for (const search of ["?fbclid=IwAR0dGVzdA", "?utm_source=facebook&utm_medium=social&fbclid=IwAR1b3RoZXI", "?gclid=Cj0KCQ&tributes=1"]) {
      const shared = await client(server.url).get(`/memorials/${id}${search}`);
      expect(shared.status, search).toBe(200);
      // The same kept page: its ETag, and its text but for this request's nonce and form stamp.
      expect(shared.headers.get("etag"), search).toBe(plain.headers.get("etag"));
      expect(shared.text.replace(perRequest, ""), search).toBe(plain.text.replace(perRequest, ""));
      expect(shared.text).not.toMatch(/fbclid|utm_|gclid/);
    }
    // The tribute form sent from such a page is taken (its stamp is this visitor's own).
    const shared = await client(server.url).get(`/memorials/${id}?fbclid=IwAR2dGhpcmQ`);
    const action = /<form[^>]*action="([^"]+)"[^>]*method="post"/.exec(shared.text)![1].replace(/&amp;/g, "&");
    expect(action).toBe(`/memorials/${id}?index`);
    await new Promise((resolve) => setTimeout(resolve, 3_100)); // a form sent back faster than a person types is refused
    const sent = await client(server.url).request("POST", action, {
      body: new URLSearchParams({
        intent: "tribute",
        authorName: "Morag",
        content: "Midsummer on the loch will not be the same.",
        formStartedAt: stampOf(shared)!,
        website: "",
      }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(sent.status, sent.text.slice(0, 300)).toBe(303);
    // A page of the tribute list with a campaign mark is that page (here, past the last: the first).
    const second = await client(server.url).get(`/memorials/${id}?tributes=2`);
    const marked = await client(server.url).get(`/memorials/${id}?utm_campaign=anniversary&tributes=2`);
    expect(marked.headers.get("etag")).toBe(second.headers.get("etag"));
    // Those two views are written a second later (VIEW_FLUSH_MS), and a view counted moves the gallery's
    // version: waited for here, so that it does not land between the two requests of a pair below.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    // Every kept page: the landing page, a search of the gallery, a document, the not-found page.
    for (const [path, status] of [
      ["/", 200],
      ["/memorials?search=loch", 200],
      ["/help", 200],
      ["/no-such-page-shared", 404],
    ] as const) {
      const own = await client(server.url).get(path);
      const from = await client(server.url).get(`${path}${path.includes("?") ? "&" : "?"}utm_source=newsletter&mc_cid=7f3a`);
      expect([own.status, from.status], path).toEqual([status, status]);
      expect(from.headers.get("etag"), path).toMatch(/^W\//);
      expect(from.headers.get("etag"), path).toBe(own.headers.get("etag"));
    }
  });
});
