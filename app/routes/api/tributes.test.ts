import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "~/models/rate-limit.server";
import { TRIBUTE_MESSAGES } from "~/utils/validation/tribute";
import { client, registerMember, startServer, type Client, type TestServer } from "../../../test/http";

// Tributes over real HTTP: the memorial's access rules, who may moderate, and the anonymous form's
// spam protection. Data is set up through the API, plus SQL for what the API cannot do (admin flags).

let server: TestServer;
let sql: pg.Pool;

async function member(isAdmin = false): Promise<{ api: Client; id: string }> {
  const registered = await registerMember(server.url, { firstName: "Tess", lastName: "Owner" });
  if (isAdmin) await sql.query(`UPDATE users SET "isAdmin" = true WHERE id = $1`, [registered.id]);
  return registered;
}

async function memorial(ownerId: string, visibility = "public") {
  const { rows } = await sql.query(
    `INSERT INTO memorials ("userId", title, "firstName", "lastName", visibility, "isPublished") VALUES ($1, 'T', 'Ada', 'Hart', $2, true) RETURNING id`,
    [ownerId, visibility],
  );
  return rows[0].id as string;
}

async function pendingTribute(memorialId: string, content = "A pending memory of her.") {
  const { rows } = await sql.query(`INSERT INTO tributes ("memorialId", "authorName", content) VALUES ($1, 'Ann', $2) RETURNING id`, [memorialId, content]);
  return rows[0].id as string;
}

const countTributes = async (memorialId: string) =>
  (await sql.query(`SELECT count(*)::int AS n FROM tributes WHERE "memorialId" = $1`, [memorialId])).rows[0].n as number;

beforeAll(async () => {
  server = await startServer();
  if (!server.databaseUrl) throw new Error("These tests need the PostgreSQL half of the test setup");
  sql = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
}, 90_000);
afterAll(async () => {
  await sql?.end();
  await server?.stop();
});

describe("tributes and the memorial's access rules", () => {
  it("lists approved tributes of a public memorial to anyone, pending ones never", async () => {
    const owner = await member();
    const id = await memorial(owner.id);
    await sql.query(`INSERT INTO tributes ("memorialId", "authorName", content, "isApproved") VALUES ($1, 'Ann', 'Approved memory here.', true)`, [id]);
    await pendingTribute(id);
    const res = await client(server.url).get(`/api/memorials/${id}/tributes?approved=true`);
    expect(res.status).toBe(200);
    expect(res.json.map((t: { content: string }) => t.content)).toEqual(["Approved memory here."]);
    expect((await client(server.url).get(`/api/memorials/${id}/tributes?approved=false`)).status).toBe(403);
  });

  it("never returns tributes of a private memorial to a visitor or another member", async () => {
    const owner = await member();
    const other = await member();
    const id = await memorial(owner.id, "private");
    await sql.query(`INSERT INTO tributes ("memorialId", "authorName", content, "isApproved") VALUES ($1, 'Ann', 'Secret memory.', true)`, [id]);
    const visitor = await client(server.url).get(`/api/memorials/${id}/tributes?approved=true`);
    expect(visitor.status).toBe(404);
    expect(visitor.text).not.toContain("Secret memory");
    const stranger = await other.api.get(`/api/memorials/${id}/tributes?approved=true`);
    expect(stranger.status).toBe(404);
    expect(stranger.text).not.toContain("Secret memory");
    expect((await owner.api.get(`/api/memorials/${id}/tributes?approved=true`)).json).toHaveLength(1);
    // Nor may anyone else post to it.
    const post = await other.api.post(`/api/memorials/${id}/tributes`, { authorName: "Eve", content: "Let me in please." });
    expect(post.status).toBe(404);
    expect(await countTributes(id)).toBe(1);
  });

  it("lets a visitor post to a public memorial, pending approval", async () => {
    const owner = await member();
    const id = await memorial(owner.id);
    const res = await client(server.url).post(`/api/memorials/${id}/tributes`, {
      authorName: "Ben",
      authorEmail: "",
      content: "She was a wonderful neighbour.",
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ isApproved: false, message: TRIBUTE_MESSAGES.pending });
    const bad = await client(server.url).post(`/api/memorials/${id}/tributes`, { authorName: "B", authorEmail: "nope", content: "x" });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toMatchObject({ authorName: [TRIBUTE_MESSAGES.name], authorEmail: [TRIBUTE_MESSAGES.email], content: [TRIBUTE_MESSAGES.content] });
  });
});

describe("moderation", () => {
  it("lets the owner approve and delete, and no other member", async () => {
    const owner = await member();
    const other = await member();
    const id = await memorial(owner.id);
    const a = await pendingTribute(id, "First pending memory.");
    const b = await pendingTribute(id, "Second pending memory.");
    expect((await other.api.put(`/api/tributes/${a}/approve`)).status).toBe(404);
    expect((await other.api.delete(`/api/tributes/${b}`)).status).toBe(404);
    expect((await sql.query(`SELECT "isApproved" FROM tributes WHERE id = $1`, [a])).rows[0].isApproved).toBe(false);
    expect(await countTributes(id)).toBe(2);
    expect((await client(server.url).put(`/api/tributes/${a}/approve`)).status).toBe(401);

    expect((await owner.api.put(`/api/tributes/${a}/approve`)).status).toBe(200);
    expect((await owner.api.delete(`/api/tributes/${b}`)).status).toBe(200);
    expect((await sql.query(`SELECT id, "isApproved" FROM tributes WHERE "memorialId" = $1`, [id])).rows).toEqual([{ id: a, isApproved: true }]);
  });

  it("lets an administrator act only where the memorial's creator is an administrator", async () => {
    const owner = await member();
    const admin = await member(true);
    const onMember = await pendingTribute(await memorial(owner.id));
    const onAdmin = await pendingTribute(await memorial(admin.id));
    const refused = await admin.api.put(`/api/tributes/${onMember}/approve`);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe("Actions restricted: Memorial created by non-admin user.");
    expect((await admin.api.put(`/api/tributes/${onAdmin}/approve`)).status).toBe(200);

    const list = await admin.api.get("/api/tributes?approved=false");
    expect(list.status).toBe(200);
    expect(list.json.find((t: { id: string }) => t.id === onMember)).toMatchObject({ memorialCreatorIsAdmin: false });
    expect((await owner.api.get("/api/tributes?approved=false")).status).toBe(403);
  });

  it("shows each member only the pending tributes of their own memorials", async () => {
    const owner = await member();
    const other = await member();
    const mine = await pendingTribute(await memorial(owner.id));
    await pendingTribute(await memorial(other.id));
    const res = await owner.api.get("/api/tributes/pending");
    expect(res.json.map((t: { id: string }) => t.id)).toEqual([mine]);
  });
});

describe("the anonymous tribute form's protection", () => {
  async function formFor(id: string, api: Client) {
    const page = await api.get(`/memorials/${id}`);
    const stamp = /name="formStartedAt" value="([^"]+)"/.exec(page.text)?.[1];
    expect(stamp).toBeDefined();
    return stamp!;
  }
  const post = (api: Client, id: string, fields: Record<string, string>) =>
    api.request("POST", `/memorials/${id}`, { body: new URLSearchParams(fields).toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" } });

  it("refuses a filled honeypot and stores nothing", async () => {
    const owner = await member();
    const id = await memorial(owner.id);
    const api = client(server.url);
    const stamp = await formFor(id, api);
    await new Promise((r) => setTimeout(r, 3100));
    const res = await post(api, id, {
      intent: "tribute",
      formStartedAt: stamp,
      website: "http://spam.example",
      authorName: "Bot",
      content: "Cheap pills for sale!",
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain("looked like automated spam");
    expect(await countTributes(id)).toBe(0);
  });

  it("refuses a form without its stamp", async () => {
    const owner = await member();
    const id = await memorial(owner.id);
    const res = await post(client(server.url), id, { intent: "tribute", authorName: "Bot", content: "No stamp at all here." });
    expect(res.status).toBe(400);
    expect(await countTributes(id)).toBe(0);
  });

  it("limits tributes per address, says when to retry, and stores nothing over the limit", async () => {
    const owner = await member();
    const id = await memorial(owner.id);
    const api = client(server.url);
    for (let i = 0; i < RATE_LIMITS.tributePerIp.limit; i++) {
      expect((await api.post(`/api/memorials/${id}/tributes`, { authorName: "Ann", content: `Memory number ${i} of many.` })).status).toBe(201);
    }
    const res = await api.post(`/api/memorials/${id}/tributes`, { authorName: "Ann", content: "One memory too many." });
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(res.json.message).toMatch(/Please try again in \d+ minutes?\./);
    expect(await countTributes(id)).toBe(RATE_LIMITS.tributePerIp.limit);
  });

  it("renders markup in tributes as text", async () => {
    const owner = await member();
    const id = await memorial(owner.id);
    await sql.query(`INSERT INTO tributes ("memorialId", "authorName", content, "isApproved") VALUES ($1, 'Mallory', '<script>alert(1)</script>', true)`, [id]);
    const page = await client(server.url).get(`/memorials/${id}`);
    expect(page.text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page.text).not.toContain("<script>alert(1)</script>");
  });
});
