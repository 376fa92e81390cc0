import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, startServer, type TestServer } from "./http";
import { freePort, linkIn, startSmtp, type TestSmtp } from "./smtp-server";

// Email over real HTTP against the built server, whose own worker delivers through the real nodemailer
// to a local SMTP server: the links in the messages, one-click unsubscribe without signing in,
// the password reset from the forms, and a mail server that is down never failing a request.

const SITE = "https://everlight.example";
const form = (values: Record<string, string>) => ({
  body: new URLSearchParams(values).toString(),
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
});
/** A link from an email, sent to this test's server instead of PUBLIC_URL's host. */
const local = (server: TestServer, link: string) => link.replace(SITE, "");

describe("email from the running server", () => {
  let server: TestServer;
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer({ SMTP_URL: smtp.url, PUBLIC_URL: SITE, MAIL_FROM: "Everlight <no-reply@everlight.test>" });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  async function ownerWithMemorial() {
    const email = `owner-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.test`;
    const owner = client(server.url);
    expect((await owner.post("/api/auth/register", { firstName: "Ruth", lastName: "Owner", email, password: "Correct1horse" })).status).toBe(201);
    const memorial = await owner.post("/api/memorials", { firstName: "Edith", lastName: "Hart", visibility: "public", isPublished: true });
    return { owner, email, memorialId: memorial.json.id as string };
  }
  const mailTo = async (address: string) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const index = smtp.recipients.findIndex((r) => r.includes(address));
      if (index >= 0) return smtp.received[index];
      if (Date.now() > deadline) throw new Error(`No email to ${address}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it("tells the family a tribute is waiting, and its one-click unsubscribe works without signing in", async () => {
    const { owner, email, memorialId } = await ownerWithMemorial();
    const sent = await client(server.url).post(`/api/memorials/${memorialId}/tributes`, { authorName: "Ann Visitor", content: "She taught me to swim." });
    expect(sent.status).toBe(201);
    const mail = await mailTo(email);
    expect(mail.subject).toBe("A tribute to Edith Hart is waiting for you");
    const unsubscribe = linkIn(mail, `${SITE}/unsubscribe?`);

    // Opening the link asks; it changes nothing (a link scanner must not unsubscribe anyone).
    const page = await client(server.url).get(local(server, unsubscribe));
    expect(page.status).toBe(200);
    expect(page.text).toContain("Unsubscribe?");
    expect((await owner.get("/api/auth/user")).json.notificationPreferences.tributes).toBe(true);
    // A mail program's one-click (RFC 8058), from no page at all.
    const oneClick = await client(server.url).request("POST", local(server, unsubscribe), form({ "List-Unsubscribe": "One-Click" }));
    expect(oneClick.status).toBe(200);
    expect(oneClick.text).toContain("You are unsubscribed");
    expect((await owner.get("/api/auth/user")).json.notificationPreferences.tributes).toBe(false);
  });

  it("refuses an unsubscribe link that was tampered with", async () => {
    const { owner } = await ownerWithMemorial();
    const id = (await owner.get("/api/auth/user")).json.id;
    const forged = await client(server.url).request("POST", `/unsubscribe?user=${id}&topic=tributes&sig=forged`, form({}));
    expect(forged.status).toBe(400);
    expect((await owner.get("/api/auth/user")).json.notificationPreferences.tributes).toBe(true);
  });

  it("resets a forgotten password from the forms: link by email, old sessions ended, signed in with the new one", async () => {
    const { owner, email } = await ownerWithMemorial();
    const asked = await client(server.url).request("POST", "/forgot-password", form({ email }));
    expect(asked.status).toBe(303);
    const mail = await mailTo(email);
    const link = linkIn(mail, `${SITE}/reset-password?token=`);

    const visitor = client(server.url);
    const page = await visitor.get(local(server, link));
    expect(page.status).toBe(200);
    expect(page.text).toContain("Choose a new password");
    const token = new URL(link).searchParams.get("token")!;
    const done = await visitor.request("POST", "/reset-password", form({ token, password: "Brand2new-pass", confirmPassword: "Brand2new-pass" }));
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/");
    expect((await visitor.get("/api/auth/user")).json.email).toBe(email);
    // The session from before the reset is over; the old password no longer works, the new one does.
    expect((await owner.get("/api/auth/user")).status).toBe(401);
    expect((await client(server.url).post("/api/auth/login", { email, password: "Correct1horse" })).status).toBe(401);
    expect((await client(server.url).post("/api/auth/login", { email, password: "Brand2new-pass" })).status).toBe(200);
    // The link works once.
    const again = await client(server.url).get(local(server, link));
    expect(again.status).toBe(410);
    expect(again.text).toContain("already been used");
  });

  it("a reset link asked for earlier dies when the member changes the password in Account → Security", async () => {
    const { owner, email } = await ownerWithMemorial();
    expect((await client(server.url).request("POST", "/forgot-password", form({ email }))).status).toBe(303);
    const link = linkIn(await mailTo(email), `${SITE}/reset-password?token=`);
    expect((await client(server.url).get(local(server, link))).status).toBe(200);
    expect((await owner.put("/api/auth/change-password", { currentPassword: "Correct1horse", newPassword: "Changed2pass" })).status).toBe(200);
    // Whoever read the email cannot take the account over.
    const attacker = client(server.url);
    expect((await attacker.get(local(server, link))).status).toBe(410);
    const token = new URL(link).searchParams.get("token")!;
    const taken = await attacker.request("POST", "/reset-password", form({ token, password: "Takeover3pass", confirmPassword: "Takeover3pass" }));
    expect(taken.status).not.toBe(303);
    expect((await client(server.url).post("/api/auth/login", { email, password: "Takeover3pass" })).status).toBe(401);
    expect((await client(server.url).post("/api/auth/login", { email, password: "Changed2pass" })).status).toBe(200);
  });

  it("gives the same answer for an address without an account, and sends nothing", async () => {
    const before = smtp.received.length;
    const asked = await client(server.url).request("POST", "/forgot-password", form({ email: "nobody-here@example.test" }));
    expect(asked.status).toBe(303);
    expect(asked.headers.get("location")).toBe("/forgot-password?sent");
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.recipients.slice(before).flat()).not.toContain("nobody-here@example.test");
  });
});

describe("a mail server that is down", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("never fails or slows the request that sends mail", async () => {
    const { api } = await registerMember(server.url);
    const started = Date.now();
    const changed = await api.put("/api/auth/change-password", { currentPassword: "Correct1horse", newPassword: "Brand2new-pass" });
    expect(changed.status).toBe(200);
    const asked = await client(server.url).request("POST", "/forgot-password", {
      body: "email=someone%40example.test",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(asked.status).toBe(303);
    expect(Date.now() - started).toBeLessThan(5000);
    // The worker tried, failed, and will try again (its log says so); the server is as healthy as ever.
    // (Polled: the worker's round comes when it comes, later on a busy machine.)
    const deadline = Date.now() + 15_000;
    while (!/not sent, attempt 1/.test(server.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(server.output()).toMatch(/not sent, attempt 1/);
    expect((await client(server.url).get("/healthz")).status).toBe(200);
  });
});
