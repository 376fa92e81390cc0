import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MEDIA_MESSAGES } from "~/models/memorials/media.server";
import { MEMORIAL_LIMIT_MESSAGE } from "~/utils/plans";
import { MEMORIAL_MESSAGES } from "~/utils/validation/memorial";
import { client, startServer, type ApiResponse, type Client, type TestServer } from "../../../test/http";

// The memorial /api over real HTTP against the built server, with the access
// matrix: who sees which memorial, on the page, its stored files, the /api and the list (nothing
// hidden ever leaves the server). Friends and administrators are made with SQL, so this file
// runs where the server gets the throw-away PostgreSQL cluster (test/http.ts), not on PGlite.

const postgresUrl = inject("postgresUrl");
const skipReason = postgresUrl
  ? null
  : `Memorial /api HTTP tests skipped: they set up friends and admins with SQL on PostgreSQL. ${inject("postgresSkipReason") ?? ""}`;
if (skipReason) console.warn(skipReason);

const PASSWORD = "Correct1horse";
const STATES = ["draft", "public", "friends", "private"] as const;
type State = (typeof STATES)[number];
type ViewerName = "owner" | "friend" | "other" | "visitor" | "admin";
type Member = { api: Client; id: string; email: string };

const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}@example.test`;
const png = (background = { r: 180, g: 120, b: 90 }) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .png()
    .toBuffer();
const pngDataUrl = async () => `data:image/png;base64,${(await png()).toString("base64")}`;

const expectJsonError = (res: ApiResponse, status: number, message?: string) => {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  if (message === undefined) expect(res.json.message).toEqual(expect.any(String));
  else expect(res.json.message).toBe(message);
};

/** Every file stored under a folder (the server's uploads), relative to it. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

describe.skipIf(!!skipReason)("the memorial /api", () => {
  let server: TestServer;
  let sql: pg.Client;
  let dataDir: string;
  const people = {} as Record<Exclude<ViewerName, "visitor">, Member>;
  let visitor: Client;
  /** The four memorials of the matrix, owned by `owner`, each with one uploaded photo. */
  const memorials = {} as Record<State, { id: string; mediaId: string; mediaUrl: string }>;

  const newClient = () => client(server.url);
  const viewer = (name: ViewerName) => (name === "visitor" ? visitor : people[name].api);

  async function register(tag: string): Promise<Member> {
    const api = newClient();
    const email = uniqueEmail(tag);
    const res = await api.post("/api/auth/register", { firstName: "Ada", lastName: "Lovelace", email, password: PASSWORD });
    expect(res.status, res.text).toBe(201);
    return { api, id: res.json.id, email };
  }

  async function createMemorial(api: Client, fields: Record<string, unknown> = {}) {
    const res = await api.post("/api/memorials", {
      firstName: "Mary",
      lastName: "Jones",
      dateOfBirth: "1940-02-03",
      dateOfPassing: "2020-05-06",
      biography: "A kind woman.",
      visibility: "public",
      isPublished: true,
      ...fields,
    });
    expect(res.status, res.text).toBe(201);
    return res.json as { id: string; userId: string; viewCount: number; [field: string]: unknown };
  }

  async function uploadPhoto(api: Client, memorialId: string) {
    const res = await api.post(`/api/memorials/${memorialId}/media`, { mediaData: await pngDataUrl(), fileName: "photo.png", fileType: "image/png", order: 0 });
    expect(res.status, res.text).toBe(201);
    return res.json as { id: string; mediaUrl: string };
  }

  const count = async (query: string, params: unknown[]) => Number((await sql.query(query, params)).rows[0].count);

  beforeAll(async () => {
    // Our own data folder, so the test can see which files the server stored and removed.
    dataDir = mkdtempSync(path.join(tmpdir(), "everlight-api-memorials-"));
    // Views written before each page is answered: the "nothing changes" snapshots compare view counts.
    server = await startServer({ DATA_DIR: dataDir, VIEW_FLUSH_MS: "0" });
    if (!server.databaseUrl) throw new Error("Expected the server on PostgreSQL");
    sql = new pg.Client({ connectionString: server.databaseUrl });
    await sql.connect();
    visitor = newClient();

    const [owner, friend, other, adminUser] = await Promise.all(["owner", "friend", "other", "admin"].map(register));
    Object.assign(people, { owner, friend, other, admin: adminUser });
    await sql.query(`UPDATE users SET "isAdmin" = true WHERE id = $1`, [adminUser.id]);
    // Friendships are stored in both directions.
    await sql.query(`INSERT INTO friendships ("userId", "friendId") VALUES ($1, $2), ($2, $1)`, [owner.id, friend.id]);

    const settings: Record<State, { isPublished: boolean; visibility: string }> = {
      draft: { isPublished: false, visibility: "public" },
      public: { isPublished: true, visibility: "public" },
      friends: { isPublished: true, visibility: "friends" },
      private: { isPublished: true, visibility: "private" },
    };
    for (const state of STATES) {
      const memorial = await createMemorial(owner.api, { lastName: `Matrix-${state}`, ...settings[state] });
      const item = await uploadPhoto(owner.api, memorial.id);
      memorials[state] = { id: memorial.id, mediaId: item.id, mediaUrl: item.mediaUrl };
    }
  });

  afterAll(async () => {
    await sql?.end();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  describe("the access matrix", () => {
    // Every cell written out: owner and admin see everything; a friend sees public and friends-only;
    // another member and a visitor see only the published public memorial.
    // page: GET /memorials/{id}; file: the stored photo's /media URL; api: GET /api/memorials/{id};
    // list: whether GET /api/memorials holds the id.
    // prettier-ignore
    const MATRIX: [ViewerName, State, page: number, file: number, api: number, list: boolean][] = [
      ["owner",   "draft",   200, 200, 200, true ],
      ["owner",   "public",  200, 200, 200, true ],
      ["owner",   "friends", 200, 200, 200, true ],
      ["owner",   "private", 200, 200, 200, true ],
      ["friend",  "draft",   403, 404, 404, false],
      ["friend",  "public",  200, 200, 200, true ],
      ["friend",  "friends", 200, 200, 200, true ],
      ["friend",  "private", 403, 404, 404, false],
      ["other",   "draft",   403, 404, 404, false],
      ["other",   "public",  200, 200, 200, true ],
      ["other",   "friends", 403, 404, 404, false],
      ["other",   "private", 403, 404, 404, false],
      ["visitor", "draft",   403, 404, 404, false],
      ["visitor", "public",  200, 200, 200, true ],
      ["visitor", "friends", 403, 404, 404, false],
      ["visitor", "private", 403, 404, 404, false],
      ["admin",   "draft",   200, 200, 200, true ],
      ["admin",   "public",  200, 200, 200, true ],
      ["admin",   "friends", 200, 200, 200, true ],
      ["admin",   "private", 200, 200, 200, true ],
    ];
    const cells = MATRIX.flatMap(([who, state, page, file, api, list]) => [
      { who, state, check: "page", expected: page },
      { who, state, check: "file", expected: file },
      { who, state, check: "api", expected: api },
      { who, state, check: "list", expected: list },
    ]);

    it("covers 5 viewers × 4 memorials × 4 ways in, 80 cells", () => {
      expect(cells).toHaveLength(80);
      expect(new Set(cells.map((c) => `${c.who}/${c.state}/${c.check}`)).size).toBe(80);
    });

    it.each(cells)("$who × $state × $check → $expected", async ({ who, state, check, expected }) => {
      const api = viewer(who);
      const memorial = memorials[state];
      if (check === "page") {
        expect((await api.get(`/memorials/${memorial.id}`)).status).toBe(expected);
      } else if (check === "file") {
        const res = await api.get(memorial.mediaUrl);
        expect(res.status).toBe(expected);
        if (expected === 200) expect(res.headers.get("content-type")).toBe("image/png");
      } else if (check === "api") {
        const res = await api.get(`/api/memorials/${memorial.id}`);
        if (expected === 200) {
          expect(res.status).toBe(200);
          expect(res.json).toMatchObject({ id: memorial.id, userId: people.owner.id, lastName: `Matrix-${state}` });
        } else {
          expectJsonError(res, 404, "Memorial not found");
        }
      } else {
        const res = await api.get("/api/memorials?limit=100");
        expect(res.status).toBe(200);
        expect((res.json as { id: string }[]).some((m) => m.id === memorial.id)).toBe(expected);
      }
    });
  });

  describe("GET /api/memorials", () => {
    it("answers the documented memorial shape, with dates as YYYY-MM-DD", async () => {
      const res = await visitor.get(`/api/memorials?userId=${people.owner.id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.json).toEqual([
        {
          id: memorials.public.id,
          userId: people.owner.id,
          title: "Mary Matrix-public",
          firstName: "Mary",
          lastName: "Matrix-public",
          dateOfBirth: "1940-02-03",
          dateOfPassing: "2020-05-06",
          biography: "A kind woman.",
          profileImageUrl: null,
          visibility: "public",
          category: "individual",
          isPublished: true,
          viewCount: expect.any(Number),
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          // Fields of our own (docs/decisions/028-permanent-address-and-qr.md).
          shortId: expect.stringMatching(/^[23456789abcdefghjkmnpqrstuvwxyz]{8}$/),
          permanentUrl: expect.stringMatching(/^https?:\/\/[^/]+\/m\/[23456789abcdefghjkmnpqrstuvwxyz]{8}$/),
        },
      ]);
      expect(res.json[0].permanentUrl.endsWith(`/m/${res.json[0].shortId}`)).toBe(true);
    });

    it("filters by visibility, owner and search, within what the caller may see", async () => {
      const ids = async (api: Client, query: string) => ((await api.get(`/api/memorials?${query}`)).json as { id: string }[]).map((m) => m.id);
      expect(await ids(people.friend.api, `visibility=friends&userId=${people.owner.id}`)).toEqual([memorials.friends.id]);
      expect(await ids(people.other.api, `visibility=friends&userId=${people.owner.id}`)).toEqual([]);
      expect(await ids(people.owner.api, "search=matrix-PRIV")).toEqual([memorials.private.id]);
      expect(await ids(visitor, "search=matrix-priv")).toEqual([]);
      expect(await ids(people.owner.api, `userId=${people.owner.id}&limit=2`)).toHaveLength(2);
      expect(await ids(people.owner.api, `userId=${people.owner.id}&limit=2&offset=3`)).toHaveLength(1);
      expectJsonError(await visitor.get("/api/memorials?visibility=secret"), 400);
    });

    it("admin=true is for administrators only: 401 signed out, 403 for a member, everything for an admin", async () => {
      expectJsonError(await visitor.get("/api/memorials?admin=true"), 401, "Not signed in");
      expectJsonError(await people.other.api.get("/api/memorials?admin=true"), 403);
      const res = await people.admin.api.get("/api/memorials?admin=true&limit=100");
      expect(res.status).toBe(200);
      const ids = (res.json as { id: string }[]).map((m) => m.id);
      for (const state of STATES) expect(ids).toContain(memorials[state].id);
    });
  });

  describe("POST /api/memorials", () => {
    it("creates the memorial for the caller whatever userId the body names (201)", async () => {
      const res = await people.other.api.post("/api/memorials", {
        title: "",
        firstName: " John ",
        lastName: "Smith",
        dateOfBirth: "",
        dateOfPassing: null,
        biography: "",
        visibility: "private",
        isPublished: false,
        userId: people.owner.id,
      });
      expect(res.status, res.text).toBe(201);
      expect(res.json).toMatchObject({
        userId: people.other.id,
        title: "John Smith",
        firstName: "John",
        dateOfBirth: null,
        dateOfPassing: null,
        biography: null,
        visibility: "private",
        isPublished: false,
        viewCount: 0,
      });
      expect(await count(`SELECT count(*) FROM memorials WHERE id = $1 AND "userId" = $2`, [res.json.id, people.other.id])).toBe(1);
    });

    it("refuses a missing first name with 400 and the field's message", async () => {
      const res = await people.other.api.post("/api/memorials", { lastName: "Smith", visibility: "public", isPublished: true });
      expectJsonError(res, 400, MEMORIAL_MESSAGES.firstName);
      expect(res.json.errors.firstName).toContain(MEMORIAL_MESSAGES.firstName);
    });

    it("refuses dates in the wrong order or in the future", async () => {
      const backwards = await people.other.api.post("/api/memorials", {
        firstName: "A",
        lastName: "B",
        dateOfBirth: "2000-01-01",
        dateOfPassing: "1999-01-01",
      });
      expectJsonError(backwards, 400, MEMORIAL_MESSAGES.passingBeforeBirth);
      expectJsonError(
        await people.other.api.post("/api/memorials", { firstName: "A", lastName: "B", dateOfPassing: "2999-01-01" }),
        400,
        MEMORIAL_MESSAGES.futureDate,
      );
    });

    it("answers 401 when signed out and 403 for a cross-origin request, creating nothing", async () => {
      const before = await count(`SELECT count(*) FROM memorials`, []);
      expectJsonError(await visitor.post("/api/memorials", { firstName: "A", lastName: "B" }), 401, "Not signed in");
      const evil = await people.owner.api.post("/api/memorials", { firstName: "A", lastName: "B" }, { headers: { Origin: "https://evil.example" } });
      expectJsonError(evil, 403);
      const fetchSite = await people.owner.api.post("/api/memorials", { firstName: "A", lastName: "B" }, { headers: { "Sec-Fetch-Site": "cross-site" } });
      expectJsonError(fetchSite, 403);
      expect(await count(`SELECT count(*) FROM memorials`, [])).toBe(before);
    });

    it("refuses a free member's 26th memorial (403, subscriptionRequired) and accepts a paid member's", async () => {
      const [free, paid] = await Promise.all([register("free"), register("paid")]);
      await sql.query(`UPDATE users SET "subscriptionPlan" = 'forever' WHERE id = $1`, [paid.id]);
      for (const member of [free, paid]) {
        await sql.query(
          `INSERT INTO memorials ("userId", title, "firstName", "lastName") SELECT $1, 'Bulk ' || n, 'Bulk', 'Memorial' FROM generate_series(1, 25) AS n`,
          [member.id],
        );
      }
      const refused = await free.api.post("/api/memorials", { firstName: "One", lastName: "Toomany" });
      expectJsonError(refused, 403, MEMORIAL_LIMIT_MESSAGE);
      expect(refused.json.subscriptionRequired).toBe(true);
      expect(await count(`SELECT count(*) FROM memorials WHERE "userId" = $1`, [free.id])).toBe(25);

      const accepted = await paid.api.post("/api/memorials", { firstName: "One", lastName: "More" });
      expect(accepted.status, accepted.text).toBe(201);
      expect(await count(`SELECT count(*) FROM memorials WHERE "userId" = $1`, [paid.id])).toBe(26);
    });
  });

  describe("PUT and DELETE /api/memorials/{id}", () => {
    it("lets the owner change some fields, leaving the rest", async () => {
      const memorial = await createMemorial(people.owner.api, { lastName: "Partial", visibility: "friends" });
      const res = await people.owner.api.put(`/api/memorials/${memorial.id}`, { biography: "Loved the sea." });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({
        id: memorial.id,
        biography: "Loved the sea.",
        firstName: "Mary",
        lastName: "Partial",
        dateOfBirth: "1940-02-03",
        visibility: "friends",
        isPublished: true,
      });
      expectJsonError(await people.owner.api.put(`/api/memorials/${memorial.id}`, { visibility: "everyone" }), 400, MEMORIAL_MESSAGES.visibility);
    });

    it("takes only profileImageUrl: one of the memorial's own files, or none", async () => {
      const memorial = await createMemorial(people.owner.api, { lastName: "Portrait" });
      const item = await uploadPhoto(people.owner.api, memorial.id);
      const own = await people.owner.api.put(`/api/memorials/${memorial.id}`, { profileImageUrl: item.mediaUrl });
      expect(own.status, own.text).toBe(200);
      expect(own.json).toMatchObject({ profileImageUrl: item.mediaUrl, lastName: "Portrait", biography: "A kind woman." });
      // Another memorial's file would be deleted with this memorial: refused.
      expectJsonError(await people.owner.api.put(`/api/memorials/${memorial.id}`, { profileImageUrl: memorials.public.mediaUrl }), 400);
      expectJsonError(await people.owner.api.put(`/api/memorials/${memorial.id}`, { profileImageUrl: "https://tracker.example/x.png" }), 400);
      // Nothing that would show a broken picture: a file in its folder that is not one of its photos,
      // or a bundled picture that does not exist. A bundled placeholder that does is fine.
      const stranger = item.mediaUrl.replace(/\/[^/]+\/original\.png$/, "/00000000-0000-4000-8000-000000000000/original.png");
      expectJsonError(await people.owner.api.put(`/api/memorials/${memorial.id}`, { profileImageUrl: stranger }), 400);
      expectJsonError(await people.owner.api.put(`/api/memorials/${memorial.id}`, { profileImageUrl: "/images/no-such-picture.svg" }), 400);
      expect((await people.owner.api.put(`/api/memorials/${memorial.id}`, { profileImageUrl: "/images/placeholder-portrait.svg" })).status).toBe(200);
      // A gallery photo chosen as the portrait keeps its files when the portrait changes again.
      expect((await people.owner.api.put(`/api/memorials/${memorial.id}`, { profileImageUrl: item.mediaUrl })).status).toBe(200);
      expect((await people.owner.api.put(`/api/memorials/${memorial.id}`, { profileImageUrl: "/images/placeholder-portrait.svg" })).status).toBe(200);
      expect((await visitor.get(item.mediaUrl)).status).toBe(200);
      const cleared = await people.owner.api.put(`/api/memorials/${memorial.id}`, { profileImageUrl: null });
      expect(cleared.json.profileImageUrl).toBeNull();
    });

    it("lets an administrator delete someone's memorial, but not edit it", async () => {
      const memorial = await createMemorial(people.owner.api, { lastName: "Moderated" });
      expectJsonError(await people.admin.api.put(`/api/memorials/${memorial.id}`, { firstName: "Edited" }), 404, "Memorial not found");
      const res = await people.admin.api.delete(`/api/memorials/${memorial.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ message: "Memorial deleted" });
      expectJsonError(await people.owner.api.get(`/api/memorials/${memorial.id}`), 404);
    });

    it("gives an administrator one authority on the pages and the /api alike: open any memorial, delete it whole, never edit it or remove one photo", async () => {
      const admin = people.admin.api;
      for (const state of ["private", "draft"] as const) {
        const { id, mediaId, mediaUrl } = memorials[state];
        // Opens it, for moderation: page, /api, media list and files.
        expect((await admin.get(`/memorials/${id}`)).status, state).toBe(200);
        expect((await admin.get(`/api/memorials/${id}`)).status, state).toBe(200);
        expect((await admin.get(`/api/memorials/${id}/media`)).json, state).toHaveLength(1);
        expect((await admin.get(mediaUrl)).status, state).toBe(200);
        // Never removes a single photo or video: the /api answers as the edit page does.
        expectJsonError(await admin.delete(`/api/memorials/media/${mediaId}`), 404, "Media not found");
        const form = { body: "", headers: { "Content-Type": "application/x-www-form-urlencoded" } };
        expect((await admin.request("POST", `/memorials/${id}/media/${mediaId}/delete`, form)).status, state).toBe(404);
        expect((await admin.get(`/memorials/${id}/media/${mediaId}/delete`)).status, state).toBe(404);
        // Nor edits it, on the page (sent away with "Access denied") or through the /api.
        expectJsonError(await admin.put(`/api/memorials/${id}`, { biography: "Changed" }), 404, "Memorial not found");
        const edit = await admin.get(`/memorials/${id}/edit`);
        expect(edit.status, state).toBe(303);
        expect(await count(`SELECT count(*) FROM memorial_media WHERE id = $1`, [mediaId])).toBe(1);
      }
    });

    it("tells families the truth about who can open a memorial: the hints name the moderators", async () => {
      const page = await people.owner.api.get("/memorials/create");
      expect(page.text).toContain("Only you can view it. Everlight&#x27;s moderators can open it too.");
      const help = await visitor.get("/help");
      expect(help.text).toContain("moderators can open it to keep the site safe");
    });

    it("hides the memorial and its files at once (its /media URLs answer 404, even to its owner) and keeps them for the 30 days", async () => {
      const memorial = await createMemorial(people.owner.api, { lastName: "Deleted" });
      const item = await uploadPhoto(people.owner.api, memorial.id);
      const portrait = await people.owner.api.post(`/api/memorials/${memorial.id}/profile-image`, {
        imageData: await pngDataUrl(),
        fileName: "me.png",
        fileType: "image/png",
      });
      expect(portrait.status, portrait.text).toBe(200);
      const folder = path.join(dataDir, "uploads", "memorials", memorial.id);
      // Each photo: the original and three WebP widths, each with its content-type file.
      expect(filesUnder(folder)).toHaveLength(16);
      expect((await visitor.get(item.mediaUrl)).status).toBe(200);
      expect((await visitor.get(portrait.json.profileImageUrl)).status).toBe(200);

      const res = await people.owner.api.delete(`/api/memorials/${memorial.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ message: "Memorial deleted" });
      for (const who of [visitor, people.owner.api]) {
        expect((await who.get(item.mediaUrl)).status).toBe(404);
        expect((await who.get(portrait.json.profileImageUrl)).status).toBe(404);
        expectJsonError(await who.get(`/api/memorials/${memorial.id}`), 404, "Memorial not found");
      }
      // Kept for the window (the purge removes them afterwards: memorials/deletion.server.test.ts).
      expect(filesUnder(folder)).toHaveLength(16);
      expect(await count(`SELECT count(*) FROM memorial_media WHERE "memorialId" = $1`, [memorial.id])).toBe(1);
      expectJsonError(await people.owner.api.delete(`/api/memorials/${memorial.id}`), 404, "Memorial not found");
    });

    it("answers 404 for ids that are not UUIDs and 405 for other methods", async () => {
      expectJsonError(await visitor.get("/api/memorials/not-a-uuid"), 404, "Memorial not found");
      expectJsonError(await visitor.get(`/api/memorials/${"x".repeat(5000)}`), 404);
      expectJsonError(await people.owner.api.put("/api/memorials/1%27%20OR%201=1", { firstName: "A" }), 404);
      expectJsonError(await people.owner.api.delete("/api/memorials/123"), 404);
      expectJsonError(await people.owner.api.delete("/api/memorials/media/not-an-id"), 404, "Media not found");
      const patch = await people.owner.api.request("PATCH", `/api/memorials/${memorials.public.id}`, { json: {} });
      expectJsonError(patch, 405);
      expect(patch.headers.get("allow")).toBe("GET, HEAD, PUT, DELETE");
      for (const suffix of ["view", "share", "profile-image"]) {
        const res = await visitor.get(`/api/memorials/${memorials.public.id}/${suffix}`);
        expectJsonError(res, 405);
        expect(res.headers.get("allow")).toBe("POST");
      }
      expect((await visitor.get(`/api/memorials/media/${memorials.public.mediaId}`)).headers.get("allow")).toBe("DELETE");
      expectJsonError(await people.owner.api.put(`/api/memorials/${memorials.public.id}/media`, {}), 405);
    });
  });

  describe("someone else's memorial cannot be written", () => {
    const snapshot = async (state: State) => {
      const memorial = await people.owner.api.get(`/api/memorials/${memorials[state].id}`);
      const media = await people.owner.api.get(`/api/memorials/${memorials[state].id}/media`);
      const file = await people.owner.api.get(memorials[state].mediaUrl);
      return { memorial: memorial.json, media: media.json, file: file.status };
    };

    // The friend can see the friends-only memorial, the other member only the public one: neither may write.
    it.each([
      ["friend", "friends"],
      ["other", "public"],
      ["other", "private"],
    ] as const)("%s on the %s memorial: PUT, DELETE, media and profile image all 404, nothing changes", async (who, state) => {
      const api = people[who].api;
      const { id, mediaId } = memorials[state];
      const before = await snapshot(state);
      expect(before.file).toBe(200);

      expectJsonError(await api.put(`/api/memorials/${id}`, { firstName: "Hacked", visibility: "public" }), 404, "Memorial not found");
      expectJsonError(await api.put(`/api/memorials/${id}`, { profileImageUrl: null }), 404, "Memorial not found");
      expectJsonError(await api.delete(`/api/memorials/${id}`), 404, "Memorial not found");
      expectJsonError(
        await api.post(`/api/memorials/${id}/media`, { mediaData: await pngDataUrl(), fileName: "x.png", fileType: "image/png", order: 1 }),
        404,
        "Memorial not found",
      );
      expectJsonError(
        await api.post(`/api/memorials/${id}/profile-image`, { imageData: await pngDataUrl(), fileName: "x.png", fileType: "image/png" }),
        404,
        "Memorial not found",
      );
      expectJsonError(await api.delete(`/api/memorials/media/${mediaId}`), 404, "Media not found");
      // Nor through the pages' forms: the edit screen's delete-photo confirmation, and the memorial's delete page.
      const form = { body: "", headers: { "Content-Type": "application/x-www-form-urlencoded" } };
      expect((await api.request("POST", `/memorials/${id}/media/${mediaId}/delete`, form)).status).toBe(404);
      expect((await api.get(`/memorials/${id}/media/${mediaId}/delete`)).status).toBe(404);
      expect((await api.request("POST", `/memorials/${id}/delete`, form)).status).not.toBe(200);

      expect(await snapshot(state)).toEqual(before);
      expect(filesUnder(path.join(dataDir, "uploads", "memorials", id))).toHaveLength(8);
    });
  });

  describe("media", () => {
    it("lists a memorial's media to those who may see it: 404 for a visitor or member who may not, as for a missing one", async () => {
      const res = await people.friend.api.get(`/api/memorials/${memorials.friends.id}/media`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual([
        {
          id: memorials.friends.mediaId,
          memorialId: memorials.friends.id,
          mediaUrl: memorials.friends.mediaUrl,
          mediaType: "image/png",
          caption: null,
          order: 0,
          createdAt: expect.any(String),
        },
      ]);
      expectJsonError(await visitor.get(`/api/memorials/${memorials.friends.id}/media`), 404, "Memorial not found");
      expectJsonError(await people.other.api.get(`/api/memorials/${memorials.friends.id}/media`), 404, "Memorial not found");
      expect((await visitor.get(`/api/memorials/${memorials.public.id}/media`)).json).toHaveLength(1);
    });

    it("takes bare base64 and a caption, and refuses a text file (415), malformed data (400) and an oversized body (413)", async () => {
      const memorial = await createMemorial(people.owner.api, { lastName: "Uploads" });
      const base = `/api/memorials/${memorial.id}`;
      const bare = await people.owner.api.post(`${base}/media`, {
        mediaData: (await png()).toString("base64"),
        fileName: "p.png",
        fileType: "image/png",
        order: 3,
        caption: "At the beach",
      });
      expect(bare.status, bare.text).toBe(201);
      expect(bare.json).toMatchObject({ memorialId: memorial.id, mediaType: "image/png", caption: "At the beach", order: 3 });

      // Named and typed as a photo, but its bytes are text.
      const text = `data:image/png;base64,${Buffer.from("Just some text, not a photo at all.").toString("base64")}`;
      expectJsonError(
        await people.owner.api.post(`${base}/media`, { mediaData: text, fileName: "notes.png", fileType: "image/png", order: 0 }),
        415,
        MEDIA_MESSAGES.type,
      );
      const plain = `data:text/plain;base64,${Buffer.from("hello").toString("base64")}`;
      expectJsonError(
        await people.owner.api.post(`${base}/profile-image`, { imageData: plain, fileName: "a.txt", fileType: "text/plain" }),
        415,
        MEDIA_MESSAGES.type,
      );

      for (const malformed of ["data:image/png;base64,@@not base64@@", "data:image/png,rawbytes", "   "]) {
        expectJsonError(
          await people.owner.api.post(`${base}/media`, { mediaData: malformed, fileName: "x.png", fileType: "image/png", order: 0 }),
          400,
          "Invalid media data",
        );
        expectJsonError(await people.owner.api.post(`${base}/profile-image`, { imageData: malformed }), 400, "Invalid media data");
      }
      expectJsonError(await people.owner.api.post(`${base}/media`, { fileName: "x.png" }), 400, "Invalid media data");

      // More than a 20 MB photo can take as base64 (~27 MB): refused before it is kept.
      const huge = JSON.stringify({ imageData: `data:image/png;base64,${"A".repeat(28 * 1024 * 1024)}`, fileName: "big.png", fileType: "image/png" });
      const tooBig = await people.owner.api.request("POST", `${base}/profile-image`, { body: huge, headers: { "Content-Type": "application/json" } });
      expectJsonError(tooBig, 413, MEDIA_MESSAGES.imageSize);

      // Only the one accepted photo was stored (original + three widths, each with its metadata).
      expect(filesUnder(path.join(dataDir, "uploads", "memorials", memorial.id))).toHaveLength(8);
      expect((await people.owner.api.get(`${base}/media`)).json).toHaveLength(1);
    });

    it("sets the profile image and answers the memorial", async () => {
      const memorial = await createMemorial(people.owner.api, { lastName: "Portrait2" });
      const res = await people.owner.api.post(`/api/memorials/${memorial.id}/profile-image`, {
        imageData: await pngDataUrl(),
        fileName: "me.png",
        fileType: "image/png",
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({
        id: memorial.id,
        lastName: "Portrait2",
        profileImageUrl: expect.stringMatching(new RegExp(`^/media/memorials/${memorial.id}/[0-9a-f-]{36}/original\\.png$`)),
      });
      expect((await visitor.get(res.json.profileImageUrl)).status).toBe(200);
    });

    it("deletes a media item and its stored files for the owner", async () => {
      const memorial = await createMemorial(people.owner.api, { lastName: "MediaDelete" });
      const item = await uploadPhoto(people.owner.api, memorial.id);
      expect((await visitor.get(item.mediaUrl)).status).toBe(200);
      const res = await people.owner.api.delete(`/api/memorials/media/${item.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ message: "Media deleted" });
      // The memorial still exists and is public: a 404 here means the file itself is gone.
      expect((await visitor.get(item.mediaUrl)).status).toBe(404);
      expect(filesUnder(path.join(dataDir, "uploads", "memorials", memorial.id))).toEqual([]);
      expect((await people.owner.api.get(`/api/memorials/${memorial.id}/media`)).json).toEqual([]);
    });
  });

  describe("POST /api/memorials/{id}/view", () => {
    it("counts a view of a memorial the caller may see, and refuses a private one to a visitor (404)", async () => {
      const viewCount = async (id: string) => Number((await sql.query(`SELECT "viewCount" FROM memorials WHERE id = $1`, [id])).rows[0].viewCount);
      const start = await viewCount(memorials.public.id);
      const first = await visitor.post(`/api/memorials/${memorials.public.id}/view`);
      expect(first.status, first.text).toBe(200);
      expect(first.json).toEqual({ viewCount: start + 1 });
      expect((await visitor.post(`/api/memorials/${memorials.public.id}/view`)).json).toEqual({ viewCount: start + 2 });

      const privateBefore = await viewCount(memorials.private.id);
      expectJsonError(await visitor.post(`/api/memorials/${memorials.private.id}/view`), 404, "Memorial not found");
      expectJsonError(await people.friend.api.post(`/api/memorials/${memorials.draft.id}/view`), 404, "Memorial not found");
      expect(await viewCount(memorials.private.id)).toBe(privateBefore);
      expect((await people.owner.api.post(`/api/memorials/${memorials.private.id}/view`)).json).toEqual({ viewCount: privateBefore + 1 });
      expectJsonError(await visitor.post("/api/memorials/not-a-uuid/view"), 404);
      expectJsonError(await visitor.post(`/api/memorials/${crypto.randomUUID()}/view`), 404);
    });
  });

  describe("POST /api/memorials/{id}/share", () => {
    const shares = async (id: string) =>
      (await sql.query(`SELECT "sharedByUserId", "shareType", "shareData" FROM memorial_shares WHERE "memorialId" = $1 ORDER BY "createdAt"`, [id])).rows;

    it("records a share by someone who may see the memorial, signed in or not (201)", async () => {
      const res = await people.friend.api.post(`/api/memorials/${memorials.friends.id}/share`, { shareType: "facebook", shareData: { from: "page" } });
      expect(res.status, res.text).toBe(201);
      expect(res.json).toMatchObject({
        memorialId: memorials.friends.id,
        sharedByUserId: people.friend.id,
        shareType: "facebook",
        shareData: { from: "page" },
      });

      // navigator.sendBeacon with a string sends text/plain.
      const beacon = await visitor.request("POST", `/api/memorials/${memorials.public.id}/share`, {
        body: JSON.stringify({ shareType: "copy_link" }),
        headers: { "Content-Type": "text/plain;charset=UTF-8" },
      });
      expect(beacon.status, beacon.text).toBe(201);

      expect(await shares(memorials.friends.id)).toEqual([{ sharedByUserId: people.friend.id, shareType: "facebook", shareData: { from: "page" } }]);
      expect(await shares(memorials.public.id)).toEqual([{ sharedByUserId: null, shareType: "copy_link", shareData: null }]);
    });

    it("refuses a memorial the caller may not see (404) and an unknown channel (400), recording nothing", async () => {
      expectJsonError(await visitor.post(`/api/memorials/${memorials.friends.id}/share`, { shareType: "twitter" }), 404, "Memorial not found");
      expectJsonError(await people.other.api.post(`/api/memorials/${memorials.private.id}/share`, { shareType: "twitter" }), 404, "Memorial not found");
      expectJsonError(await people.owner.api.post(`/api/memorials/${memorials.private.id}/share`, { shareType: "myspace" }), 400);
      expectJsonError(
        await people.owner.api.post(`/api/memorials/${memorials.private.id}/share`, undefined, { body: "not json", headers: { "Content-Type": "text/plain" } }),
        400,
      );
      expect(await shares(memorials.private.id)).toEqual([]);
    });
  });
});
