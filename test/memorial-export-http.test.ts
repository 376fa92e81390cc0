import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";

// "Download a copy" of a memorial over real HTTP against the built server: the owner asks
// with a plain form post, the server's own builder makes the copy, and the owner downloads a ZIP no cache
// keeps. Another member (an administrator too) gets 404 for the page, the request and the download; a
// visitor is sent to sign in (the emailed link leads there).

describe.each(serverDatabases())("memorial copies over HTTP on %s", (database) => {
  let server: TestServer;
  let owner: Client;
  let other: Client;
  let memorialId: string;
  const form = (who: Client, path: string, body = "") =>
    who.request("POST", path, { body, headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url } });

  beforeAll(async () => {
    server = await startServer({}, { database });
    owner = (await registerMember(server.url, { firstName: "Olive", lastName: "Owner" })).api;
    other = (await registerMember(server.url)).api;
    const created = await owner.post("/api/memorials", {
      firstName: "Edith",
      lastName: "Export",
      biography: "She kept bees.",
      visibility: "public",
      isPublished: true,
    });
    expect(created.status).toBe(201);
    memorialId = created.json.id;
  });
  afterAll(async () => server?.stop());

  it("is refused to anyone but the owner", async () => {
    const page = `/memorials/${memorialId}/export`;
    expect((await other.get(page)).status).toBe(404);
    expect((await form(other, page)).status).toBe(404);
    expect((await other.get(`${page}/download`)).status).toBe(404);
    const visitor = client(server.url);
    for (const res of [await visitor.get(page), await visitor.get(`${page}/download`)]) {
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toMatch(/^\/login/);
    }
    // Nothing was asked for by them.
    expect((await owner.get(page)).text).toContain("You have not asked for a copy of this memorial yet.");
    expect((await owner.get(`${page}/download`)).status).toBe(404);
  });

  it("is prepared in the background after the owner's form post, then downloaded as a ZIP that no cache keeps", async () => {
    const page = `/memorials/${memorialId}/export`;
    const asked = await form(owner, page);
    expect([302, 303]).toContain(asked.status);
    expect(asked.headers.get("Location")).toBe(page);
    // The builder was nudged by the request; the page is the owner's way to see it done.
    const deadline = Date.now() + 30_000;
    let text = "";
    while (Date.now() < deadline && !text.includes("Your copy is ready")) {
      const res = await owner.get(page);
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toMatch(/no-store/);
      text = res.text;
      if (!text.includes("Your copy is ready")) await new Promise((r) => setTimeout(r, 250));
    }
    expect(text).toContain("Download the ZIP");
    const res = await fetch(`${server.url}${page}/download`, { headers: { Cookie: owner.cookie, "X-Forwarded-For": owner.ip } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/zip");
    expect(res.headers.get("Cache-Control")).toMatch(/no-store/);
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="everlight-edith-export-\d{4}-\d{2}-\d{2}\.zip"$/);
    const zip = Buffer.from(await res.arrayBuffer());
    expect(zip.subarray(0, 4).toString("latin1")).toBe("PK\x03\x04");
    expect(zip.length).toBe(Number(res.headers.get("Content-Length")));
    expect(zip.includes(Buffer.from("She kept bees."))).toBe(true);
    // Still nobody else's.
    expect((await other.get(`${page}/download`)).status).toBe(404);
    // The owner was emailed (the outbox on disk, as no SMTP server is set).
    const deadlineMail = Date.now() + 15_000;
    const { readdirSync, readFileSync, existsSync } = await import("node:fs");
    const outbox = `${server.dataDir}/outbox`;
    let found = false;
    while (!found && Date.now() < deadlineMail) {
      found =
        existsSync(outbox) &&
        readdirSync(outbox).some((f) => readFileSync(`${outbox}/${f}`, "utf8").includes("Your copy of the memorial of Edith Export is ready"));
      if (!found) await new Promise((r) => setTimeout(r, 250));
    }
    expect(found).toBe(true);

    // "Download a copy" again opens the copy still ready (its toast says so); "Prepare a new copy" makes another.
    expect((await form(owner, page)).headers.get("Location")).toBe(page);
    const reopened = (await owner.get(page)).text;
    expect(reopened).toContain("Your copy is ready");
    expect(reopened).not.toContain("We are preparing your copy");
    expect((await form(owner, page, "intent=new")).headers.get("Location")).toBe(page);
    expect((await owner.get(page)).text).toContain("We are preparing your copy");
    expect((await form(other, page, "intent=new")).status).toBe(404);
  });
});
