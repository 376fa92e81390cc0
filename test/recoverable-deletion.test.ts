import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "~/services/db.server";
import { createPostgresDatabase } from "./databases";
import { client, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";
import { fillPattern, routeTable } from "./route-table";
import { formPost } from "./shop";

// Deletion keeps its 30-day window, over real HTTP. In the window nothing of a deleted
// memorial is reachable by any route, for a visitor, its owner or an administrator: every address in the
// route table (app/routes.ts) is asked for with the memorial's ids, and searched lists with its name;
// only the owner's Recently deleted and the dashboard's name it. Then the owner restores it from My
// Memorials with a plain form post, and it is back as it was. On PostgreSQL, two instances started at once
// on one database purge what is past its window once, and send each reminder once.

const NAME = `Quillon${randomBytes(4).toString("hex")}`;

describe.each(serverDatabases())("a deleted memorial over HTTP on %s", (database) => {
  let server: TestServer;
  let owner: Client;
  let admin: Client;
  let visitor: Client;
  let memorialId: string;
  let shortId: string;
  let media: { id: string; mediaUrl: string };
  let tributeId: string;

  beforeAll(async () => {
    server = await startServer({ SEED_DEMO_DATA: "true" }, { database });
    visitor = client(server.url);
    owner = (await registerMember(server.url, { firstName: "Owen", lastName: "Family" })).api;
    admin = client(server.url);
    expect((await admin.post("/api/auth/login", { email: "admin@everlight.test", password: "AdminDemo123" })).json.isAdmin).toBe(true);
    const created = await owner.post("/api/memorials", {
      firstName: NAME,
      lastName: "Ward",
      biography: `The life of ${NAME}.`,
      isPublished: true,
      visibility: "public",
    });
    expect(created.status, created.text).toBe(201);
    memorialId = created.json.id;
    shortId = created.json.shortId;
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 90, g: 120, b: 180 } } })
      .png()
      .toBuffer();
    const upload = await owner.post(`/api/memorials/${memorialId}/media`, {
      mediaData: `data:image/png;base64,${png.toString("base64")}`,
      fileName: "photo.png",
      fileType: "image/png",
    });
    expect(upload.status, upload.text).toBe(201);
    media = upload.json;
    const tribute = await visitor.post(`/api/memorials/${memorialId}/tributes`, { authorName: "Ann", content: `We miss ${NAME} every day.` });
    expect(tribute.status, tribute.text).toBe(201);
    tributeId = tribute.json.id;
    expect((await owner.put(`/api/tributes/${tributeId}/approve`)).status).toBe(200);
    // The public page is rendered and kept (the page cache): deleting must not leave that copy served.
    const page = await visitor.get(`/memorials/${memorialId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(NAME);
    expect((await owner.delete(`/api/memorials/${memorialId}`)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers nothing of it on any route in the table, to a visitor, its owner or an administrator", async () => {
    const routes = await routeTable();
    const mediaPath = new URL(media.mediaUrl, server.url).pathname;
    const addresses = new Set<string>();
    for (const route of routes) {
      // Its permanent address and its QR code's downloads are asked for with its own short id and a real format.
      const filled = fillPattern(route.pattern, { id: memorialId, shortId, format: "png", mediaId: media.id, "*": mediaPath.replace(/^\/media\//, "") });
      addresses.add(filled);
    }
    for (const search of [
      `/memorials?search=${NAME}`,
      `/api/memorials?search=${NAME}`,
      `/?q=${NAME}`,
      `/api/memorials?admin=true&search=${NAME}`,
      "/sitemap.xml",
      "/sitemaps/memorials-1.xml",
    ])
      addresses.add(search);
    addresses.add(mediaPath);
    addresses.add(`/api/memorials/${memorialId}/tributes?approved=true`);
    addresses.add(`/api/memorials/${memorialId}/tributes?approved=false`);
    // Only these name it, as deleted, with Restore: the owner's My Memorials and the dashboard's lists.
    const listsIt = (who: string, address: string) => (who === "owner" && address === "/my-memorials") || (who === "admin" && address === "/admin");
    const failures: string[] = [];
    const shown: string[] = [];
    for (const [who, api] of Object.entries({ visitor, owner, admin })) {
      for (const address of addresses) {
        if (address.startsWith("/logout") || address === "/api/auth/logout") continue;
        const res = await api.get(address);
        // A search page says back what was searched for: there, only the memorial itself (its id, its words) counts.
        const names = res.text.includes(memorialId) || res.text.includes(`The life of ${NAME}`) || (!address.includes("search=") && res.text.includes(NAME));
        if (listsIt(who, address)) {
          if (names) shown.push(`${who} ${address}`);
          continue;
        }
        if (names) failures.push(`${who} GET ${address} → ${res.status} names the deleted memorial`);
        if (res.status >= 500) failures.push(`${who} GET ${address} → ${res.status}`);
        if (address.includes(memorialId) && res.status === 200) failures.push(`${who} GET ${address} → 200`);
        // Nor sends anyone on to it (the permanent address /m/<shortId> names no deleted memorial).
        if (res.headers.get("location")?.startsWith(`/memorials/${memorialId}`))
          failures.push(`${who} GET ${address} → ${res.status} to ${res.headers.get("location")}`);
        if (address === mediaPath && res.status !== 404) failures.push(`${who} GET ${address} → ${res.status}, expected 404`);
      }
    }
    expect(failures).toEqual([]);
    expect(shown.sort()).toEqual(["admin /admin", "owner /my-memorials"]);
    // Nor can anyone write to it.
    expect((await visitor.post(`/api/memorials/${memorialId}/tributes`, { authorName: "Eve", content: "Still here, are you there?" })).status).toBe(404);
    expect((await visitor.post(`/api/memorials/${memorialId}/view`)).status).toBe(404);
    expect((await owner.put(`/api/memorials/${memorialId}`, { firstName: "Changed" })).status).toBe(404);
    expect((await owner.put(`/api/tributes/${tributeId}/approve`)).status).toBe(404);
    expect((await admin.delete(`/api/memorials/${memorialId}`)).status).toBe(404);
  });

  it("comes back whole when its owner restores it from My Memorials with a plain form post; nobody else can", async () => {
    const stranger = (await registerMember(server.url)).api;
    const refused = await formPost(stranger, "/my-memorials", { intent: "restore", memorialId });
    expect(refused.status).toBe(303);
    expect((await visitor.get(`/memorials/${memorialId}`)).status).toBe(404);

    const restored = await formPost(owner, "/my-memorials", { intent: "restore", memorialId });
    expect(restored.status).toBe(303);
    expect(restored.headers.get("location")).toBe("/my-memorials");
    const page = await visitor.get(`/memorials/${memorialId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(NAME);
    expect(page.text).toContain(`We miss ${NAME} every day.`);
    expect((await visitor.get(media.mediaUrl)).status).toBe(200);
    expect((await visitor.get(`/memorials?search=${NAME}`)).text).toContain(NAME);
    expect((await owner.get("/my-memorials")).text).not.toContain("Recently deleted");
  });

  it("removed by an administrator, a memorial stays removed: its owner is told why and how to appeal, and only an administrator brings it back", async () => {
    const created = await owner.post("/api/memorials", { firstName: `${NAME}Moderated`, lastName: "Ward", isPublished: true, visibility: "public" });
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as string;
    expect((await admin.delete(`/api/memorials/${id}`)).status).toBe(200);

    const mine = (await owner.get("/my-memorials")).text.replace(/<!-- -->/g, "");
    expect(mine).toContain("Removed by our moderators");
    expect(mine).toContain('href="/contact"');
    expect(mine).not.toContain(`aria-label="Restore ${NAME}Moderated Ward"`);
    const refused = await formPost(owner, "/my-memorials", { intent: "restore", memorialId: id });
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe("/my-memorials#recently-deleted");
    const told = (await owner.get("/my-memorials")).text;
    expect(told).toContain("cannot be restored from here");
    expect((await visitor.get(`/memorials/${id}`)).status).toBe(404);

    expect((await admin.get("/admin")).text).toContain("removed by an administrator");
    expect((await formPost(admin, "/admin?index", { intent: "restore", memorialId: id })).status).toBe(303);
    expect((await visitor.get(`/memorials/${id}`)).status).toBe(200);
    // Back in the owner's hands: a deletion of their own is theirs to undo again.
    expect((await owner.delete(`/api/memorials/${id}`)).status).toBe(200);
    expect((await formPost(owner, "/my-memorials", { intent: "restore", memorialId: id })).headers.get("location")).toBe("/my-memorials");
    expect((await visitor.get(`/memorials/${id}`)).status).toBe(200);
  });

  it("an account an administrator removed cannot sign in to restore itself, by the form or the /api; only an administrator brings it back", async () => {
    const member = await registerMember(server.url, { firstName: "Morgan", lastName: "Removed" });
    const email = (await member.api.get("/api/auth/user")).json.email as string;
    const theirs = await member.api.post("/api/memorials", { firstName: `${NAME}Theirs`, lastName: "Ward", isPublished: true, visibility: "public" });
    expect(theirs.status).toBe(201);
    expect((await admin.delete(`/api/admin/users/${member.id}`)).status).toBe(200);
    expect((await member.api.get("/api/auth/user")).status).toBe(401);
    expect((await visitor.get(`/memorials/${theirs.json.id}`)).status).toBe(404);

    const viaApi = await client(server.url).post("/api/auth/login", { email, password: "Correct1horse" });
    expect(viaApi.status).toBe(403);
    expect(viaApi.json).toMatchObject({ message: expect.stringContaining("closed by our moderators"), reason: "account-removed" });
    const browser = client(server.url);
    const viaForm = await formPost(browser, "/login", { email, password: "Correct1horse" });
    expect(viaForm.status).toBe(403);
    expect(viaForm.text).toContain("This account was closed by our moderators");
    expect(viaForm.text).not.toContain("Restore my account");
    expect((await formPost(browser, "/login", { intent: "restore-account" })).status).toBe(400);
    expect((await browser.get("/api/auth/user")).status).toBe(401);

    expect((await formPost(admin, "/admin/users", { intent: "restore", userId: member.id })).status).toBe(303);
    expect((await client(server.url).post("/api/auth/login", { email, password: "Correct1horse" })).status).toBe(200);
    expect((await visitor.get(`/memorials/${theirs.json.id}`)).status).toBe(200);
  });
});

describe.skipIf(!inject("postgresUrl"))("the purge with two instances on one PostgreSQL database", () => {
  it("removes what is past its window and sends each reminder once, whichever instance gets there", async () => {
    const database = await createPostgresDatabase("everlight_template");
    const servers: TestServer[] = [];
    const db = openDatabase({ databaseUrl: database.url });
    try {
      const owner = await db.prisma.user.create({
        data: { email: `two-${randomBytes(4).toString("hex")}@example.test`, firstName: "Two", lastName: "Places", password: "x" },
      });
      const make = (title: string) => db.prisma.memorial.create({ data: { userId: owner.id, title, firstName: title, lastName: "X", isPublished: true } });
      const due = await make("Past its window");
      const soon = await make("Nearly at its end");
      const kept = await make("Deleted yesterday");
      for (const [m, days] of [
        [due, 31],
        [soon, 28],
        [kept, 1],
      ] as const)
        await db.sql.query(`UPDATE "memorial_records" SET "deletedAt" = now() - make_interval(days => $2) WHERE "id" = $1`, [m.id, days]);

      // Both start at once and run their first housekeeping round as they start.
      servers.push(...(await Promise.all([0, 1].map(() => startServer({ DATABASE_URL: database.url }, { database: "pglite" })))));
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [rows, notices] = await Promise.all([
          db.sql.query(`SELECT 1 FROM "memorial_records" WHERE "id" = $1`, [due.id]),
          db.prisma.mailOutbox.count({ where: { to: owner.email, kind: "purge-notice" } }),
        ]);
        if (!rows.length && notices > 0) break;
        if (Date.now() > deadline) throw new Error("The purge did not run within 30 s");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      // Both rounds are over once each instance stops.
      await Promise.all(servers.map((s) => s.stop()));
      const left = await db.sql.query<{ id: string }>(`SELECT "id" FROM "memorial_records" WHERE "userId" = $1 ORDER BY "title"`, [owner.id]);
      expect(left.map((r) => r.id).sort()).toEqual([kept.id, soon.id].sort());
      const notices = await db.prisma.mailOutbox.findMany({ where: { to: owner.email, kind: "purge-notice" } });
      expect(notices.map((x) => (x.data as { title: string }).title)).toEqual(["Nearly at its end"]);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await db.close();
      await database.drop();
    }
  });
});
