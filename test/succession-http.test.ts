import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";
import { invitationLink, mailsTo } from "./invitations";
import { formPost } from "./shop";

// A successor over real HTTP, with the plain forms a browser without JavaScript posts:
// the succession matrix (owner, manager, editor, another member, a visitor and an administrator naming
// or clearing a successor, inviting one, choosing the absence period), an invitation that makes a
// successor, and the account deletion screen: what passes on, what the owner must decide, what goes,
// the answers it refuses, and who owns what afterwards.

const plain = (html: string) => html.replace(/<!-- -->/g, "").replace(/&#x27;|&#39;/g, "'");
const PASSWORD = "Correct1horse";

type Who = "owner" | "manager" | "editor" | "other" | "heir" | "visitor" | "admin";

describe.each(serverDatabases())("a successor over HTTP on %s", (database) => {
  let server: TestServer;
  const c = {} as Record<Who, Client>;
  const id = {} as Record<Who, string>;
  const email = {} as Record<Who, string>;
  const seen = new Set<string>();
  let kept: string; // the memorial with the co-managers
  let shared: string; // another with an editor and no successor: the owner decides
  let alone: string; // nobody else manages it: it goes with the account

  const managers = (m: string) => `/memorials/${m}/managers`;
  const post = (who: Who, path: string, fields: Record<string, string>) => formPost(c[who], path, fields);
  const outcome = async (res: Promise<{ status: number; headers: Headers }>) => {
    const r = await res;
    return (r.status === 302 || r.status === 303) && /^\/login/.test(r.headers.get("Location") ?? "") ? "login" : r.status;
  };
  const memorial = async (firstName: string) => {
    const created = await c.owner.post("/api/memorials", { firstName, lastName: "Heywood", visibility: "private", isPublished: true });
    expect(created.status, created.text).toBe(201);
    return created.json.id as string;
  };
  async function inviteAndAccept(memorialId: string, to: Who, role: "editor" | "manager", successor = false) {
    const sent = await post("owner", managers(memorialId), { intent: "invite", email: email[to], role, ...(successor ? { successor: "on" } : {}) });
    expect(sent.status, sent.text).toBe(303);
    const link = await invitationLink(server.dataDir, email[to], seen);
    const page = await c[to].get(link);
    expect(plain(page.text)).toContain(successor ? "You would also be its successor" : "invited you as");
    expect((await formPost(c[to], link, { answer: "accept" })).status).toBe(303);
  }

  beforeAll(async () => {
    server = await startServer({ SEED_DEMO_DATA: "true" }, { database });
    for (const who of ["owner", "manager", "editor", "other", "heir"] as const) {
      const member = await registerMember(server.url, { firstName: who[0].toUpperCase() + who.slice(1), lastName: "Person" });
      c[who] = member.api;
      id[who] = member.id;
      email[who] = (await c[who].get("/api/auth/user")).json.email;
    }
    c.visitor = client(server.url);
    c.admin = client(server.url);
    expect((await c.admin.post("/api/auth/login", { email: "admin@everlight.test", password: "AdminDemo123" })).json.isAdmin).toBe(true);
    kept = await memorial("Kept");
    shared = await memorial("Shared");
    alone = await memorial("Alone");
    await inviteAndAccept(kept, "manager", "manager");
    await inviteAndAccept(kept, "editor", "editor");
    await inviteAndAccept(shared, "editor", "editor");
  }, 120_000);
  afterAll(async () => server?.stop());

  it("lets the owner alone name or clear the successor, among the co-managers only", async () => {
    const name = (who: Who, target: string) => outcome(post(who, managers(kept), { intent: "successor", target }));
    const clear = (who: Who) => outcome(post(who, managers(kept), { intent: "no-successor", target: "" }));
    expect({
      manager: await name("manager", id.editor),
      editor: await name("editor", id.editor),
      other: await name("other", id.editor),
      visitor: await name("visitor", id.editor),
      admin: await name("admin", id.editor),
      managerClears: await clear("manager"),
      editorClears: await clear("editor"),
      ownerNamesAStranger: await name("owner", id.other),
      ownerNamesAMadeUpId: await name("owner", "not-an-id"),
    }).toEqual({
      manager: 403,
      editor: 403,
      other: 404,
      visitor: "login",
      admin: 404,
      managerClears: 403,
      editorClears: 403,
      ownerNamesAStranger: 404,
      ownerNamesAMadeUpId: 404,
    });
    expect(await name("owner", id.editor)).toBe(303);
    const page = plain((await c.owner.get(managers(kept))).text);
    expect(page).toContain("Editor Person is the successor");
    expect(page).toContain("No longer successor");
    // Co-managers see who it is, without the controls.
    const managerView = plain((await c.manager.get(managers(kept))).text);
    expect(managerView).toContain("· Successor");
    expect(managerView).not.toContain("Make successor");
    expect(await mailsTo(server.dataDir, email.editor, "You are the successor of the memorial of Kept Heywood")).toHaveLength(1);
    expect(await clear("owner")).toBe(303);
    expect(plain((await c.owner.get(managers(kept))).text)).toContain("Nobody is the successor yet");
  });

  it("makes whoever accepts an invitation to be the successor the successor; a manager cannot send one", async () => {
    const byManager = await post("manager", managers(kept), { intent: "invite", email: email.heir, role: "editor", successor: "on" });
    expect(byManager.status).toBe(403);
    await inviteAndAccept(kept, "heir", "editor", true);
    expect(await mailsTo(server.dataDir, email.heir, "also asks you to be its successor")).toHaveLength(1);
    const page = plain((await c.owner.get(managers(kept))).text);
    expect(page).toContain("Heir Person is the successor");
  });

  it("keeps the period of absence the member chooses, and refuses anything else", async () => {
    expect(await outcome(post("visitor", "/account/manage", { intent: "period", months: "6" }))).toBe("login");
    expect((await post("owner", "/account/manage", { intent: "period", months: "5" })).status).toBe(400);
    expect((await post("owner", "/account/manage", { intent: "period", months: "" })).status).toBe(400);
    expect((await post("owner", "/account/manage", { intent: "period", months: "24" })).status).toBe(303);
    const page = plain((await c.owner.get("/account/manage")).text);
    expect(page).toMatch(/id="months-24"[^>]* checked=""/);
    expect(plain((await c.owner.get(managers(kept))).text)).toContain("If you are away: After two years without a visit");
  });

  it("shows what passes on at deletion, asks about the rest, and hands each memorial to the right person", async () => {
    const page = plain((await c.owner.get("/account/manage")).text);
    expect(page).toContain("These memorials pass to their successors");
    expect(page).toContain(`The memorial of Kept Heywood, to Heir Person (${email.heir})`);
    expect(page).toContain("Choose what happens to these memorials");
    expect(page).toContain("Hand it on to Editor Person (editor)");
    expect(page).toContain("These memorials are deleted with your account");
    expect(page).toContain("The memorial of Alone Heywood");

    const form = { password: PASSWORD, confirm: "on", username: email.owner };
    const unanswered = await post("owner", "/account/manage", form);
    expect(unanswered.status).toBe(400);
    expect(plain(unanswered.text)).toContain("Choose what happens to this memorial");
    const stranger = await post("owner", "/account/manage", { ...form, [`fate-${shared}`]: id.other });
    expect(stranger.status).toBe(400);
    expect(plain(stranger.text)).toContain("This person no longer helps manage the memorial. Choose again.");
    // The answer given is kept on the page that asks again.
    const wrongPassword = await post("owner", "/account/manage", { ...form, password: "Wrong1horse", [`fate-${shared}`]: id.editor });
    expect(wrongPassword.status).toBe(400);
    expect(plain(wrongPassword.text)).toMatch(new RegExp(`id="fate-${shared}-${id.editor}"[^>]* checked=""`));
    expect((await c.owner.get("/api/auth/user")).status).toBe(200);

    const deleted = await post("owner", "/account/manage", { ...form, [`fate-${shared}`]: id.editor });
    expect(deleted.status, deleted.text).toBe(303);
    expect((await c.owner.get("/api/auth/user")).status).toBe(401);

    // The heir owns Kept now (and the others still help); the editor owns Shared; Alone went with the account.
    const heirView = plain((await c.heir.get(managers(kept))).text);
    expect(heirView).toMatch(new RegExp(`${email.heir.replace(/[.]/g, "\\.")} · Owner`));
    expect(heirView).toContain(email.manager);
    expect(heirView).not.toContain(`${email.owner} · `); // the previous owner is gone from the people…
    expect(heirView).toContain(`Handed the memorial on to its successor. Passed from ${email.owner} to ${email.heir}`); // …and in the history
    expect((await c.heir.get(`/memorials/${kept}/edit`)).status).toBe(200);
    expect(plain((await c.editor.get(managers(shared))).text)).toMatch(new RegExp(`${email.editor.replace(/[.]/g, "\\.")} · Owner`));
    expect((await c.admin.get(`/api/memorials/${alone}`)).status).toBe(404);
    expect(await mailsTo(server.dataDir, email.heir, "is now in your care")).toHaveLength(1);
    expect(await mailsTo(server.dataDir, email.editor, "The memorial of Shared Heywood is now in your care")).toHaveLength(1);
    // The new owner may now name their own successor.
    expect(await outcome(post("heir", managers(kept), { intent: "successor", target: id.manager }))).toBe(303);
  });
});
