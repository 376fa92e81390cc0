import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/services/db.server";
import { client, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";
import { invitationLink, mailsTo } from "./invitations";
import { formPost } from "./shop";

// Co-managers by invitation over real HTTP: the owner invites by email with plain form
// posts, the invitee opens the emailed link, signs in and accepts; then the role matrix — owner, manager,
// editor, another member, a visitor and an administrator against viewing a draft, editing, moderating,
// changing visibility, inviting, removing, deleting and taking a copy — and the invitation matrix: valid,
// used twice, declined, revoked, expired, wrong token.

/** The page's text without the markers React puts between adjacent pieces of text. */
const plain = (html: string) => html.replace(/<!-- -->/g, "");

type Who = "owner" | "manager" | "editor" | "other" | "visitor" | "admin";

describe.each(serverDatabases())("co-managers over HTTP on %s", (database) => {
  let server: TestServer;
  const c = {} as Record<Who, Client>;
  const email = {} as Record<Who, string>;
  let memorialId: string;

  const seen = new Set<string>();
  const invite = (who: Client, to: string, role: string) => formPost(who, `/memorials/${memorialId}/managers`, { intent: "invite", email: to, role });

  async function invitedAndAccepted(to: Who, role: "editor" | "manager") {
    const sent = await invite(c.owner, email[to], role);
    expect(sent.status, sent.text).toBe(303);
    const link = await invitationLink(server.dataDir, email[to], seen);
    const page = await c[to].get(link);
    expect(page.status).toBe(200);
    expect(plain(page.text)).toContain("Help manage the memorial of Mabel Draft");
    expect(plain(page.text)).toContain(`invited you as ${role === "manager" ? "a manager" : "an editor"}`);
    const accepted = await formPost(c[to], link, { answer: "accept" });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get("Location")).toBe(`/memorials/${memorialId}`);
  }

  beforeAll(async () => {
    server = await startServer({ SEED_DEMO_DATA: "true" }, { database });
    for (const who of ["owner", "manager", "editor", "other"] as const) {
      c[who] = (await registerMember(server.url, { firstName: who[0].toUpperCase() + who.slice(1), lastName: "Person" })).api;
      email[who] = (await c[who].get("/api/auth/user")).json.email;
    }
    c.visitor = client(server.url);
    c.admin = client(server.url);
    expect((await c.admin.post("/api/auth/login", { email: "admin@everlight.test", password: "AdminDemo123" })).json.isAdmin).toBe(true);
    // A private draft: nobody but its owner (and administrators) sees it until people are invited.
    const created = await c.owner.post("/api/memorials", {
      firstName: "Mabel",
      lastName: "Draft",
      biography: "First words.",
      visibility: "private",
      isPublished: false,
    });
    expect(created.status, created.text).toBe(201);
    memorialId = created.json.id;
    expect((await c.manager.get(`/api/memorials/${memorialId}`)).status).toBe(404);
    await invitedAndAccepted("manager", "manager");
    await invitedAndAccepted("editor", "editor");
  }, 120_000);
  afterAll(async () => server?.stop());

  it("lists who manages the memorial, with a history of every step", async () => {
    const page = await c.owner.get(`/memorials/${memorialId}/managers`);
    expect(page.status).toBe(200);
    for (const text of [
      email.owner,
      email.manager,
      email.editor,
      "Manager since",
      "Editor since",
      "Invited a co-manager",
      "Accepted an invitation to co-manage",
    ])
      expect(plain(page.text)).toContain(text);
    const shared = await c.editor.get("/my-memorials");
    expect(plain(shared.text)).toContain("Shared with me");
    expect(plain(shared.text)).toContain("Editor · owned by Owner Person");
  });

  it("keeps the invite form's input and says what is wrong next to the field", async () => {
    const bad = await invite(c.owner, "not-an-address", "editor");
    expect(bad.status).toBe(400);
    expect(plain(bad.text)).toContain("Enter an email address like name@example.com");
    expect(plain(bad.text)).toContain('value="not-an-address"');
    const twice = await invite(c.owner, email.editor, "manager");
    expect(twice.status).toBe(400);
    expect(plain(twice.text)).toContain("This person already helps manage this memorial");
    const noRole = await invite(c.owner, "new@example.test", "owner");
    expect(noRole.status).toBe(400);
    expect(plain(noRole.text)).toContain("Choose a role");
  });

  const statusOf = async (res: Promise<{ status: number; headers: Headers }>) => {
    const r = await res;
    return (r.status === 302 || r.status === 303) && /^\/login/.test(r.headers.get("Location") ?? "") ? "login" : r.status;
  };

  it("applies the role matrix to viewing, editing, visibility, people, deleting and copies", async () => {
    const expected: Record<Who, Record<string, number | string>> = {
      owner: { view: 200, edit: 200, editPage: 200, visibility: 200, people: 200, invite: 303, delete: -1, copy: -1 },
      manager: { view: 200, edit: 200, editPage: 200, visibility: 200, people: 200, invite: 303, delete: 404, copy: 404 },
      editor: { view: 200, edit: 200, editPage: 200, visibility: 403, people: 200, invite: 403, delete: 404, copy: 404 },
      other: { view: 404, edit: 404, editPage: 303, visibility: 404, people: 404, invite: 404, delete: 404, copy: 404 },
      visitor: { view: 404, edit: 401, editPage: "login", visibility: 401, people: "login", invite: "login", delete: 401, copy: "login" },
      admin: { view: 200, edit: 404, editPage: 303, visibility: 404, people: 404, invite: 404, delete: -1, copy: 404 },
    };
    let flip = 0;
    for (const [who, want] of Object.entries(expected) as [Who, Record<string, number | string>][]) {
      const api = c[who];
      const got: Record<string, number | string> = {
        view: await statusOf(api.get(`/api/memorials/${memorialId}`)),
        edit: await statusOf(api.put(`/api/memorials/${memorialId}`, { biography: `Written by the ${who}.` })),
        editPage: await statusOf(api.get(`/memorials/${memorialId}/edit`)),
        visibility: await statusOf(api.put(`/api/memorials/${memorialId}`, { visibility: flip++ % 2 ? "private" : "friends" })),
        people: await statusOf(api.get(`/memorials/${memorialId}/managers`)),
        invite: await statusOf(invite(api, `someone-${who}@example.test`, "editor")),
        delete: want.delete === -1 ? -1 : await statusOf(api.delete(`/api/memorials/${memorialId}`)),
        copy: want.copy === -1 ? -1 : await statusOf(formPost(api, `/memorials/${memorialId}/export`, {})),
      };
      expect({ who, ...got }).toEqual({ who, ...want });
    }
    // Nobody but the owner could delete it: it is still there, with the editor's words, the last allowed to write.
    const now = await c.owner.get(`/api/memorials/${memorialId}`);
    expect(now.status).toBe(200);
    expect(now.json.biography).toBe("Written by the editor.");
  });

  it("lets owner, manager and editor moderate tributes, not another member or an administrator", async () => {
    const want: Record<Who, number> = { owner: 200, manager: 200, editor: 200, other: 404, visitor: 401, admin: 403 };
    // Tributes can be left on a published memorial: the owner publishes it for this.
    expect((await c.owner.put(`/api/memorials/${memorialId}`, { isPublished: true, visibility: "public" })).status).toBe(200);
    for (const [who, status] of Object.entries(want) as [Who, number][]) {
      const left = await client(server.url).post(`/api/memorials/${memorialId}/tributes`, { authorName: "Ann", content: `A kind word for the ${who}.` });
      expect(left.status, left.text).toBe(201);
      const res = await c[who].put(`/api/tributes/${left.json.id}/approve`);
      expect({ who, status: res.status }).toEqual({ who, status });
    }
  });

  it("moderates from the memorial page's form as the /api does: its own tributes only, a 404 for whoever may not see it", async () => {
    const leave = async (on: string) => {
      const left = await client(server.url).post(`/api/memorials/${on}/tributes`, { authorName: "Ann", content: "A kind word left on the page." });
      expect(left.status, left.text).toBe(201);
      return left.json.id as string;
    };
    const approved = async (on: string, id: string) => ((await c.owner.get(`/api/memorials/${on}/tributes`)).json as { id: string }[]).some((t) => t.id === id);
    const approve = (who: Who, on: string, tributeId: string) => formPost(c[who], `/memorials/${on}`, { intent: "approve", tributeId });
    /** The title of the toast a redirect carries (a signed cookie: its value, then a dot and the signature). */
    const toastOf = (res: { headers: Headers }) => {
      const cookie = res.headers.getSetCookie().find((line) => line.startsWith("__toast="));
      const value = decodeURIComponent(cookie?.slice("__toast=".length).split(";")[0] ?? "");
      return value ? (JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString()) as { title: string }).title : null;
    };

    // A tribute of another memorial is not moderated from this one's page, even by the owner of both.
    const elsewhere = await c.owner.post("/api/memorials", { firstName: "Other", lastName: "Page", visibility: "public", isPublished: true });
    expect(elsewhere.status, elsewhere.text).toBe(201);
    const theirs = await leave(elsewhere.json.id);
    const fromHere = await approve("owner", memorialId, theirs);
    expect([fromHere.status, fromHere.headers.get("Location"), toastOf(fromHere)]).toEqual([303, `/memorials/${memorialId}#tributes`, "Error"]);
    expect(await approved(elsewhere.json.id, theirs)).toBe(false);
    const fromThere = await approve("owner", elsewhere.json.id, theirs);
    expect([fromThere.status, toastOf(fromThere)]).toEqual([303, "Tribute approved"]);
    expect(await approved(elsewhere.json.id, theirs)).toBe(true);

    // The roles as on the /api, on a private memorial: someone who may not see it is answered as every address of it answers them.
    const want: Record<Who, [number, string | null, boolean]> = {
      owner: [303, "Tribute approved", true],
      manager: [303, "Tribute approved", true],
      editor: [303, "Tribute approved", true],
      other: [404, null, false],
      visitor: [404, null, false],
      admin: [303, "Error", false],
    };
    const tributes = {} as Record<Who, string>;
    for (const who of Object.keys(want) as Who[]) tributes[who] = await leave(memorialId);
    expect((await c.owner.put(`/api/memorials/${memorialId}`, { visibility: "private" })).status).toBe(200);
    try {
      for (const [who, [status, toast, done]] of Object.entries(want) as [Who, [number, string | null, boolean]][]) {
        const res = await approve(who, memorialId, tributes[who]);
        expect({ who, status: res.status, toast: toastOf(res), done: await approved(memorialId, tributes[who]) }).toEqual({ who, status, toast, done });
      }
    } finally {
      expect((await c.owner.put(`/api/memorials/${memorialId}`, { visibility: "public" })).status).toBe(200);
    }
  });

  it("audits a co-manager's edit and shows it to the owner", async () => {
    const page = await c.owner.get(`/memorials/${memorialId}/managers`);
    expect(plain(page.text)).toContain("Edited a memorial as a co-manager");
    expect(plain(page.text)).toContain("Edited as editor: biography");
    expect(plain(page.text)).toContain("Moderated a tribute as a co-manager");
  });

  it("answers each invitation link once: valid, used twice, declined, revoked, expired, wrong", async () => {
    const member = (await registerMember(server.url)).api;
    const address = (await member.get("/api/auth/user")).json.email as string;
    // A visitor is sent to sign in, and brought back to the link.
    expect((await invite(c.manager, address, "editor")).status).toBe(303);
    const first = await invitationLink(server.dataDir, address, seen);
    const anon = await c.visitor.get(first);
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toBe(`/login?${new URLSearchParams({ redirectTo: first })}`);
    expect((await member.get(first)).status).toBe(200);
    expect((await formPost(member, first, { answer: "decline" })).status).toBe(303);
    const declined = await member.get(first);
    expect(declined.status).toBe(410);
    expect(plain(declined.text)).toContain("This invitation was declined.");
    expect((await formPost(member, first, { answer: "accept" })).status).toBe(410);
    expect((await member.get(`/api/memorials/${memorialId}/tributes?approved=false`)).status).toBe(403);

    // Revoked by a manager before it was answered.
    expect((await invite(c.owner, address, "manager")).status).toBe(303);
    const second = await invitationLink(server.dataDir, address, seen);
    const people = await c.manager.get(`/memorials/${memorialId}/managers`);
    const pendingId = /name="target" value="([^"]+)"[^]*?Revoke invitation/.exec(people.text.slice(people.text.indexOf(`">${address}</p>`)))?.[1];
    expect(pendingId).toBeTruthy();
    expect((await formPost(c.editor, `/memorials/${memorialId}/managers`, { intent: "revoke", target: pendingId! })).status).toBe(403);
    expect((await formPost(c.manager, `/memorials/${memorialId}/managers`, { intent: "revoke", target: pendingId! })).status).toBe(303);
    const revoked = await member.get(second);
    expect(revoked.status).toBe(410);
    expect(plain(revoked.text)).toContain("withdrawn");

    // Accepted once; the second use (another member holding the same link) is refused.
    expect((await invite(c.owner, address, "editor")).status).toBe(303);
    const third = await invitationLink(server.dataDir, address, seen);
    expect((await formPost(member, third, { answer: "accept" })).status).toBe(303);
    expect((await member.get(`/api/memorials/${memorialId}`)).status).toBe(200);
    const again = await formPost(c.other, third, { answer: "accept" });
    expect(again.status).toBe(410);
    expect(plain(again.text)).toContain("This invitation has already been used.");
    expect((await c.other.get(`/memorials/${memorialId}/edit`)).status).toBe(303);

    // Wrong token.
    const wrong = await member.get(`/invitations/${"x".repeat(43)}`);
    expect(wrong.status).toBe(404);
    expect(plain(wrong.text)).toContain("This invitation link is not valid.");

    // Expired (seven days later): the database is moved on, where the test can reach it.
    if (server.databaseUrl) {
      expect((await invite(c.owner, "late@example.test", "editor")).status).toBe(303);
      const fourth = await invitationLink(server.dataDir, "late@example.test", seen);
      const db = openDatabase({ databaseUrl: server.databaseUrl });
      try {
        await db.sql.query(`UPDATE memorial_invitations SET "expiresAt" = now() - interval '1 second' WHERE email = 'late@example.test'`);
      } finally {
        await db.close();
      }
      const expired = await c.other.get(fourth);
      expect(expired.status).toBe(410);
      expect(plain(expired.text)).toContain("This invitation has expired.");
    }
  });

  it("changes roles and removes people; an editor may leave but not remove others", async () => {
    const managers = `/memorials/${memorialId}/managers`;
    const ids = {
      manager: (await c.manager.get("/api/auth/user")).json.id as string,
      editor: (await c.editor.get("/api/auth/user")).json.id as string,
    };
    expect((await formPost(c.editor, managers, { intent: "remove", target: ids.manager })).status).toBe(403);
    expect((await formPost(c.editor, managers, { intent: "role", target: ids.editor, role: "manager" })).status).toBe(403);
    expect((await formPost(c.manager, managers, { intent: "role", target: ids.editor, role: "manager" })).status).toBe(303);
    expect((await c.editor.put(`/api/memorials/${memorialId}`, { visibility: "friends" })).status).toBe(200);
    expect((await formPost(c.manager, managers, { intent: "remove", target: ids.editor })).status).toBe(303);
    expect((await c.editor.get(`/memorials/${memorialId}/edit`)).status).toBe(303);
    expect((await c.editor.put(`/api/memorials/${memorialId}`, { biography: "Too late." })).status).toBe(404);
    const left = await formPost(c.manager, managers, { intent: "remove", target: ids.manager });
    expect(left.headers.get("Location")).toBe("/my-memorials");
    expect((await c.manager.get(managers)).status).toBe(404);
    const history = plain((await c.owner.get(managers)).text);
    for (const text of [
      "Changed a co-manager&#x27;s role",
      "Removed a co-manager",
      "Left the memorial (was manager)",
      "Revoked an invitation",
      "Declined an invitation to co-manage",
    ])
      expect(history).toContain(text);
    // The person removed is told who did it; the one who left by themselves is not emailed about it.
    expect(await mailsTo(server.dataDir, email.editor, "You no longer help manage the memorial of Mabel Draft")).toHaveLength(1);
    expect(await mailsTo(server.dataDir, email.editor, "Manager Person has removed you")).toHaveLength(1);
    expect(await mailsTo(server.dataDir, email.manager, "You no longer help manage the memorial", 2_000)).toHaveLength(0);
  });
});
