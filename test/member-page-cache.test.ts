import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { keptRoutes } from "../server/member-page-cache";
import { client, registerMember, serverDatabases, startServer, type ApiResponse, type Client, type TestServer } from "./http";
import { formPost } from "./shop";

// The members' page cache (server/member-page-cache.ts) over real HTTP against the built server, on
// PGlite and PostgreSQL: a member opening a page again gets it from the cache, so these check what must hold
// whether or not it was kept — each member sees only their own page, a change shows on the very next request,
// a session ended elsewhere gets nothing, a flash message is shown, views are counted — and, on PostgreSQL
// where the database can be watched, that no page the cache keeps writes anything when opened (a kept page
// does not run its loaders, so a write there would be skipped).

const nonceOf = (res: ApiResponse) => /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];

describe.each(serverDatabases())("the members' page cache on %s", (database) => {
  let server: TestServer;
  let admin: Client;

  beforeAll(async () => {
    server = await startServer({ SEED_DEMO_DATA: "true" }, { database });
    admin = client(server.url);
    expect((await admin.post("/api/auth/login", { email: "admin@everlight.test", password: "AdminDemo123" })).status).toBe(200);
  }, 120_000);
  afterAll(async () => server?.stop());

  it("answers each member the page rendered for them, with a nonce of its own, never another member's", async () => {
    const [ann, ben] = await Promise.all([
      registerMember(server.url, { firstName: "Annika", lastName: "Keptpage" }),
      registerMember(server.url, { firstName: "Benedikt", lastName: "Keptpage" }),
    ]);
    const nonces = new Set<string>();
    for (const path of ["/account", "/my-memorials", "/", "/terms"]) {
      for (let round = 0; round < 3; round++) {
        for (const [who, mine, theirs] of [
          [ann.api, "Annika", "Benedikt"],
          [ben.api, "Benedikt", "Annika"],
        ] as const) {
          const res = await who.get(path);
          expect(res.status, `${path} ${mine}`).toBe(200);
          expect(res.text).toContain(mine);
          expect(res.text).not.toContain(theirs);
          expect(res.headers.get("cache-control")).toBe("private, no-store");
          expect(res.headers.get("vary")).toMatch(/cookie/i);
          const nonce = nonceOf(res)!;
          const scripts = [...res.text.matchAll(/<script\b[^>]*>/g)]
            .map((m) => m[0])
            .filter((tag) => !/type="(?:application\/ld\+json|everlight\/on-use)"/.test(tag));
          expect(scripts.length).toBeGreaterThan(0);
          for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
          expect(nonces.has(nonce)).toBe(false);
          nonces.add(nonce);
        }
      }
    }
  });

  it("shows a change on the very next request, whoever made it", async () => {
    const { api: ann, id: annId } = await registerMember(server.url, { firstName: "Aurelia", lastName: "Nextrequest" });
    const ben = await registerMember(server.url, { firstName: "Bastian", lastName: "Nextrequest" });
    for (let i = 0; i < 2; i++) expect((await ann.get("/my-memorials")).text).not.toContain("Lorna");
    expect((await ann.post("/api/memorials", { firstName: "Lorna", lastName: "Nextrequest" })).status).toBe(201);
    expect((await ann.get("/my-memorials")).text).toContain("Lorna");

    for (let i = 0; i < 2; i++) expect((await ann.get("/account")).text).toContain("Aurelia");
    expect((await ann.put("/api/auth/profile", { firstName: "Aurora", lastName: "Nextrequest" })).status).toBe(200);
    const account = await ann.get("/account");
    expect(account.text).toContain("Aurora");
    expect(account.text).not.toContain("Aurelia");

    // Someone else's write: a friend request from Bastian shows on Aurelia's requests page at once.
    for (let i = 0; i < 2; i++) expect((await ann.get("/friends/requests")).text).not.toContain("Bastian");
    const asked = await ben.api.post("/api/friends/request", { receiverId: annId });
    expect(asked.status, asked.text).toBe(201);
    expect((await ann.get("/friends/requests")).text).toContain("Bastian");
  });

  it("sends the delete page's Cancel back to where the member came from each time, nothing written between (it reads the Referer)", async () => {
    const { api: ann } = await registerMember(server.url, { firstName: "Cora", lastName: "Cancel" });
    const created = await ann.post("/api/memorials", { firstName: "Dara", lastName: "Cancel" });
    expect(created.status, created.text).toBe(201);
    const m = `/memorials/${created.json.id}`;
    for (const from of ["/my-memorials", `${m}/edit`, "/my-memorials"]) {
      const res = await ann.get(`${m}/delete`, { headers: { Referer: `${server.url}${from}` } });
      expect(res.status).toBe(200);
      expect(res.text, `came from ${from}`).toMatch(new RegExp(`href="${from.replace(/[/.]/g, "\\$&")}"[^>]*>Cancel<`));
    }
  });

  it("keeps the data JavaScript navigation asks for by the same rules: one's own, and changed on the next request", async () => {
    const [ann, ben] = await Promise.all([
      registerMember(server.url, { firstName: "Amadea", lastName: "Navigates" }),
      registerMember(server.url, { firstName: "Balthasar", lastName: "Navigates" }),
    ]);
    for (let round = 0; round < 3; round++) {
      for (const [who, mine, theirs] of [
        [ann.api, "Amadea", "Balthasar"],
        [ben.api, "Balthasar", "Amadea"],
      ] as const) {
        const res = await who.get("/account.data");
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toMatch(/^text\/x-script/);
        expect(res.headers.get("cache-control")).toBe("private, no-store");
        expect(res.text).toContain(mine);
        expect(res.text).not.toContain(theirs);
      }
    }
    expect((await ann.api.put("/api/auth/profile", { firstName: "Amalia", lastName: "Navigates" })).status).toBe(200);
    const after = await ann.api.get("/account.data");
    expect(after.text).toContain("Amalia");
    expect(after.text).not.toContain("Amadea");
  });

  it("gives a session ended elsewhere no page, kept or not", async () => {
    const ann = (await registerMember(server.url, { firstName: "Agathe", lastName: "Signedout" })).api;
    const copy = client(server.url, { cookie: ann.cookie });
    for (let i = 0; i < 2; i++) expect((await copy.get("/account")).status).toBe(200);
    expect((await ann.post("/api/auth/logout")).status).toBe(200);
    const after = await copy.get("/account");
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toMatch(/^\/login/);
    expect(after.text).not.toContain("Agathe");
  });

  it("shows a flash message rather than the page kept without it", async () => {
    const ann = (await registerMember(server.url, { firstName: "Alba", lastName: "Flash" })).api;
    const saved = await formPost(ann, "/account/notifications", {});
    expect(saved.status, saved.text).toBe(303);
    const toast = /__toast=[^;]+/.exec(saved.headers.get("set-cookie") ?? "")![0];
    expect((await ann.get("/account/notifications")).text).toContain("Notification preferences saved");
    for (let i = 0; i < 2; i++) expect((await ann.get("/account/notifications")).text).not.toContain("Notification preferences saved");
    // The same flash message again (as a second tab holding it would send): shown, not the kept page.
    const again = await client(server.url, { cookie: `${ann.cookie}; ${toast}` }).get("/account/notifications");
    expect(again.text).toContain("Notification preferences saved");
  });

  it("counts every opening of a memorial page as a view, kept or not", async () => {
    const ann = (await registerMember(server.url, { firstName: "Arwen", lastName: "Views" })).api;
    const created = await ann.post("/api/memorials", { firstName: "Viola", lastName: "Views", visibility: "public", isPublished: true });
    const id = created.json.id as string;
    for (let i = 0; i < 4; i++) expect((await ann.get(`/memorials/${id}`)).text).toContain("Viola");
    // Views are written about a second after they are counted (VIEW_FLUSH_MS).
    const deadline = Date.now() + 10_000;
    let views = 0;
    while (Date.now() < deadline && views < 4) {
      await new Promise((r) => setTimeout(r, 200));
      views = (await ann.get(`/api/memorials/${id}`)).json.viewCount;
    }
    expect(views).toBe(4);
  });

  it.runIf(database === "postgres")("keeps only pages that write nothing when opened", async () => {
    const ann = (await registerMember(server.url, { firstName: "Ariadne", lastName: "Readonly" })).api;
    const memorial = await ann.post("/api/memorials", { firstName: "Rhea", lastName: "Readonly", visibility: "public", isPublished: true });
    const id = memorial.json.id as string;
    const event = await formPost(ann, `/memorials/${id}/events`, {
      intent: "add",
      kind: "funeral",
      title: "Funeral of Rhea",
      date: "2099-06-20",
      startTime: "11:00",
      endTime: "12:30",
      timeZone: "Europe/London",
      placeName: "St Mary's Church",
      address: "1 Church Lane, York",
      livestreamUrl: "",
      note: "",
    });
    expect(event.status, event.text).toBe(303);
    const eventId = /id="event-([0-9a-f-]{36})"/.exec((await ann.get(`/memorials/${id}/events`)).text)![1];
    const product = (await ann.get("/api/products")).json[0] as { id: string };
    expect((await ann.post("/api/cart", { productId: product.id, quantity: 1 })).status).toBeLessThan(300);
    const m = `/memorials/${id}`;
    const pages: Record<string, [Client, string]> = {
      "routes/_index": [ann, "/"],
      "routes/memorials._index": [ann, "/memorials?search=rhea"],
      market: [ann, "/market"],
      "routes/memorials.$id._index": [ann, m],
      "memorial-alias": [ann, `/memorial/${id}`],
      "routes/memorials.$id.edit": [ann, `${m}/edit`],
      "routes/memorials.$id.events": [ann, `${m}/events`],
      "routes/memorials.$id.events_.$eventId": [ann, `${m}/events/${eventId}`],
      "routes/memorials.$id.timeline": [ann, `${m}/timeline`],
      "routes/memorials.$id.managers": [ann, `${m}/managers`],
      "routes/memorials.$id.qr": [ann, `${m}/qr`],
      "routes/memorials.$id.export": [ann, `${m}/export`],
      "routes/memorials.create": [ann, "/memorials/create"],
      "routes/my-memorials": [ann, "/my-memorials"],
      "routes/basket": [ann, "/basket"],
      "routes/checkout": [ann, "/checkout"],
      "routes/orders": [ann, "/orders"],
      "routes/subscription": [ann, "/subscription"],
      "routes/vault": [ann, "/vault"],
      "routes/friends._index": [ann, "/friends"],
      "routes/friends.requests": [ann, "/friends/requests"],
      "routes/news": [ann, "/news"],
      "routes/products": [ann, "/products"],
      "routes/endowment": [ann, "/endowment"],
      "routes/account._index": [ann, "/account"],
      "routes/account.following": [ann, "/account/following"],
      "routes/account.notifications": [ann, "/account/notifications"],
      "routes/account.privacy": [ann, "/account/privacy"],
      "routes/account.security": [ann, "/account/security"],
      "routes/account.manage": [ann, "/account/manage"],
      "routes/help": [ann, "/help"],
      "routes/terms": [ann, "/terms"],
      "routes/privacy": [ann, "/privacy"],
      "routes/contact": [ann, "/contact"],
      "routes/admin._index": [admin, "/admin"],
      "routes/admin.users": [admin, "/admin/users"],
      "routes/admin.tributes": [admin, "/admin/tributes"],
      "routes/admin.orders": [admin, "/admin/orders"],
      "routes/admin.products._index": [admin, "/admin/products"],
      "routes/admin.products.$id": [admin, `/admin/products/${product.id}`],
      "routes/admin.products.new": [admin, "/admin/products/new"],
      "routes/admin.contact": [admin, "/admin/contact"],
      "routes/admin.feedback": [admin, "/admin/feedback"],
      "routes/admin.news": [admin, "/admin/news"],
      "routes/admin.analytics": [admin, "/admin/analytics"],
      "routes/admin.audit": [admin, "/admin/audit"],
    };
    const built = (await import(pathToFileURL(path.resolve("build/server/index.js")).href)) as { serverBuild: () => Promise<ServerBuild> };
    expect(Object.keys(pages).sort()).toEqual([...keptRoutes(await built.serverBuild()).keys()].sort());
    const TRIES = 10;
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    try {
      const snapshot = async () => (await db.query<{ s: string }>("SELECT pg_current_snapshot()::text AS s")).rows[0].s;
      for (const [route, [who, path]] of Object.entries(pages)) {
        // A write of its own first, so that the page is rendered (its loaders run), not answered from the cache.
        // The app's own background work, and other test files on the same cluster (the snapshot is the cluster's),
        // may write meanwhile: a page is held to it only if every one of ten tries wrote.
        let wrote = 0;
        for (let attempt = 0; attempt < TRIES; attempt++) {
          await db.query("SELECT txid_current()");
          const before = await snapshot();
          const res = await who.get(path);
          expect(res.status, `${route}: GET ${path}`).toBe(200);
          if ((await snapshot()) === before) break;
          wrote++;
        }
        expect(wrote, `${route} (GET ${path}) wrote to the database each time it was opened`).toBeLessThan(TRIES);
      }
    } finally {
      await db.end();
    }
  });
});
