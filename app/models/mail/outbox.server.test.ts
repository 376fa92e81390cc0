import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { deliverDueMail } from "../../../server/mail-worker";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { useTempDataDir } from "../../../test/data-dir";
import { freePort, linkIn, startSmtp, type TestSmtp } from "../../../test/smtp-server";
import { parseEnv } from "~/services/env.server";
import { createMailTransport, type MailTransport } from "~/services/mail.server";
import { hashPassword } from "~/services/password.server";
import { changePassword } from "../accounts/account.server";
import { MAIL_MAX_ATTEMPTS, queueMail } from "./outbox.server";
import { TRIBUTE_NOTICE_INTERVAL_MS } from "../tributes/tributes.server";
import { checkResetToken, requestPasswordReset, resetPassword } from "../accounts/password-reset.server";
import { RATE_LIMITS } from "../rate-limit.server";
import { leaveTribute } from "../tributes/tributes.server";

// The email outbox end to end in one process, on PGlite and PostgreSQL: what the models queue in their
// transactions, delivered by the worker's own function (deliverDueMail, given the time) through the real
// nodemailer to a real SMTP server, and parsed back.

process.env.SESSION_SECRET ??= "mail-test-secret-that-is-long-enough-0123456789";
process.env.PUBLIC_URL ??= "https://everlight.example";
const SITE = process.env.PUBLIC_URL;

const mailDir = useTempDataDir("mail");
const smtpTransport = (url: string): MailTransport =>
  createMailTransport(parseEnv({ SMTP_URL: url, MAIL_FROM: "Everlight <no-reply@everlight.test>", DATA_DIR: mailDir }));

let n = 0;
const email = () => `mail-${Date.now().toString(36)}-${n++}@example.test`;

describe.each(databaseKinds)("email on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  let smtp: TestSmtp;
  let transport: MailTransport;

  beforeAll(async () => {
    if (skip) return;
    smtp = await startSmtp();
    transport = smtpTransport(smtp.url);
  });
  afterEach(async () => {
    if (skip) return;
    smtp.received.length = 0;
    smtp.recipients.length = 0;
    // Each test starts with nothing waiting: what one left behind must not be delivered in the next.
    await app.db.prisma.mailOutbox.updateMany({ where: { status: "pending" }, data: { status: "skipped" } });
  });
  afterAll(async () => {
    transport?.close();
    await smtp?.stop();
  });

  const prisma = () => app.db.prisma;
  async function member(prefs: Record<string, boolean> = {}, password = "Correct1horse") {
    return prisma().user.create({
      data: { email: email(), firstName: "Mary", lastName: "Owner", password: await hashPassword(password), notificationPreferences: prefs },
    });
  }
  async function memorialOf(userId: string) {
    return prisma().memorial.create({ data: { userId, title: "Edith Hart", firstName: "Edith", lastName: "Hart", isPublished: true } });
  }
  /** Everything due now, as the worker would. */
  const deliver = (at = new Date()) => deliverDueMail(transport, at);

  it.skipIf(skip)("writes the waiting-tributes email to the owner, From, To, Subject, HTML and text, with a one-click unsubscribe", async () => {
    const owner = await member();
    const memorial = await memorialOf(owner.id);
    expect((await leaveTribute(memorial.id, { authorName: "Ann Lee", authorEmail: null, content: "She taught me to swim." }, "10.0.0.1")).ok).toBe(true);
    expect(await deliver()).toEqual({ sent: 1, skipped: 0, failed: 0 });
    const [mail] = await smtp.waitFor(1);
    expect(mail.from?.value).toEqual([{ name: "Everlight", address: "no-reply@everlight.test" }]);
    expect(smtp.recipients[0]).toEqual([owner.email]);
    expect(mail.subject).toBe("A tribute to Edith Hart is waiting for you");
    expect(mail.html).toContain("Ann Lee left a tribute");
    expect(mail.text).toContain("Ann Lee left a tribute on the memorial of Edith Hart");
    expect(mail.html).not.toMatch(/<img/i);
    // Links come from PUBLIC_URL, never from a request.
    expect(linkIn(mail, `${SITE}/memorials/`)).toBe(`${SITE}/memorials/${memorial.id}#tributes`);
    const unsubscribe = linkIn(mail, `${SITE}/unsubscribe?`);
    const header = (name: string) =>
      mail.headerLines
        .find((h) => h.key === name)
        ?.line.replace(/^[^:]+:\s*/, "")
        .replace(/\r?\n\s+/g, "");
    expect(header("list-unsubscribe")).toBe(`<${unsubscribe}>`);
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
  });

  it.skipIf(skip)("sends at most one waiting-tributes email an hour per memorial, naming everyone who wrote", async () => {
    const owner = await member();
    const memorial = await memorialOf(owner.id);
    await leaveTribute(memorial.id, { authorName: "Ann", authorEmail: null, content: "A first memory of her." }, "10.0.0.2");
    await leaveTribute(memorial.id, { authorName: "Bob", authorEmail: null, content: "A second memory of her." }, "10.0.0.3");
    const t0 = new Date();
    // Two tributes before the worker came by: one email, naming both.
    expect(await deliver(t0)).toMatchObject({ sent: 1 });
    expect((await smtp.waitFor(1))[0].text).toContain("Bob and Ann left 2 tributes");
    // A third within the hour waits for the hour to pass.
    await leaveTribute(memorial.id, { authorName: "Cy", authorEmail: null, content: "A third memory of her." }, "10.0.0.4");
    expect(await deliver(new Date(t0.getTime() + 10 * 60_000))).toMatchObject({ sent: 0 });
    expect(smtp.received).toHaveLength(1);
    expect(await deliver(new Date(t0.getTime() + TRIBUTE_NOTICE_INTERVAL_MS + 60_000))).toMatchObject({ sent: 1 });
    expect((await smtp.waitFor(2))[1].subject).toBe("3 tributes to Edith Hart are waiting for you");
  });

  it.skipIf(skip)("tributes left at the same moment are all kept, with one waiting-tributes email for the family", async () => {
    const owner = await member();
    const memorial = await memorialOf(owner.id);
    const left = await Promise.all(
      ["Ann", "Bob", "Cy", "Di"].map((authorName, i) =>
        leaveTribute(memorial.id, { authorName, authorEmail: null, content: `A memory from ${authorName}.` }, `10.0.1.${i + 1}`),
      ),
    );
    expect(left.map((r) => r.ok)).toEqual([true, true, true, true]);
    expect(await app.db.prisma.tribute.count({ where: { memorialId: memorial.id } })).toBe(4);
    const waiting = await app.db.prisma.mailOutbox.findMany({ where: { groupKey: `tributes-waiting:${memorial.id}` } });
    expect(waiting).toMatchObject([{ to: owner.email, kind: "tributes-waiting", status: "pending" }]);
  });

  it.skipIf(skip)("a tribute refused by its address's limit is not kept and emails nobody; those from the address before it are", async () => {
    const owner = await member();
    const first = await memorialOf(owner.id);
    const second = await memorialOf(owner.id);
    const ip = `10.0.2.${n++ % 250}`;
    const leave = (memorialId: string, i: number) => leaveTribute(memorialId, { authorName: "Al", authorEmail: null, content: `Memory ${i}.` }, ip);
    // The limit's tributes from one address, on one memorial; then one more, on another (the limit is per address).
    for (let i = 0; i < RATE_LIMITS.tributePerIp.limit; i++) expect((await leave(first.id, i)).ok).toBe(true);
    const refused = await leave(second.id, 99);
    expect(refused).toMatchObject({ ok: false, reason: "rate-limited", message: expect.stringMatching(/Please try again in 10 minutes\.$/) });
    expect(refused.ok === false && refused.retryAfterSeconds).toBeGreaterThan(9 * 60);
    expect(await prisma().tribute.count({ where: { memorialId: first.id } })).toBe(RATE_LIMITS.tributePerIp.limit);
    expect(await prisma().tribute.count({ where: { memorialId: second.id } })).toBe(0);
    expect(await prisma().mailOutbox.count({ where: { groupKey: `tributes-waiting:${first.id}` } })).toBe(1);
    expect(await prisma().mailOutbox.count({ where: { groupKey: `tributes-waiting:${second.id}` } })).toBe(0);
    // Another address is not held back.
    expect((await leaveTribute(second.id, { authorName: "Bo", authorEmail: null, content: "From elsewhere." }, `${ip}9`)).ok).toBe(true);
  });

  it.skipIf(skip)("sends nothing to a member who turned these emails off, and nothing once the tributes were moderated", async () => {
    const quiet = await member({ tributes: false });
    await leaveTribute((await memorialOf(quiet.id)).id, { authorName: "Ann", authorEmail: null, content: "A memory nobody hears of." }, "10.0.0.5");
    expect(await prisma().mailOutbox.count({ where: { to: quiet.email } })).toBe(0);

    const owner = await member();
    const memorial = await memorialOf(owner.id);
    await leaveTribute(memorial.id, { authorName: "Ann", authorEmail: null, content: "Approved before the email went." }, "10.0.0.6");
    await prisma().tribute.updateMany({ where: { memorialId: memorial.id }, data: { isApproved: true } });
    expect(await deliver()).toMatchObject({ sent: 0, skipped: 1 });
  });

  it.skipIf(skip)("delays mail while the mail server is down, and delivers it when it is back; never fails the change", async () => {
    const port = await freePort();
    const down = smtpTransport(`smtp://127.0.0.1:${port}`);
    const user = await member();
    // The password change itself succeeds whatever the mail server does.
    expect(
      await changePassword(user, { currentPassword: "Correct1horse", newPassword: "Brand2new-pass" }, { ip: "10.0.0.7", keepSessionId: undefined }),
    ).toEqual({ ok: true });
    const t0 = new Date();
    expect(await deliverDueMail(down, t0)).toMatchObject({ sent: 0, failed: 1 });
    const row = await prisma().mailOutbox.findFirstOrThrow({ where: { to: user.email } });
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row.lastError).toBeTruthy();
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(t0.getTime());

    const back = await startSmtp(port);
    try {
      expect(await deliverDueMail(down, t0)).toMatchObject({ sent: 0, failed: 0 }); // not yet due again
      expect(await deliverDueMail(down, new Date(t0.getTime() + 60_000))).toMatchObject({ sent: 1 });
      const [mail] = await back.waitFor(1);
      expect(mail.subject).toBe("Your Everlight password was changed");
      expect(await prisma().mailOutbox.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "sent", attempts: 2 });
    } finally {
      down.close();
      await back.stop();
    }
  });

  it.skipIf(skip)("gives a message up after the last attempt, and says why", async () => {
    const port = await freePort();
    const down = smtpTransport(`smtp://127.0.0.1:${port}`);
    const to = email();
    await queueMail(prisma(), { to, kind: "account-deleted", data: { firstName: "Gone" } });
    let at = new Date();
    for (let i = 0; i < MAIL_MAX_ATTEMPTS; i++) {
      await deliverDueMail(down, at);
      at = new Date(at.getTime() + 25 * 3600_000);
    }
    down.close();
    expect(await prisma().mailOutbox.findFirstOrThrow({ where: { to } })).toMatchObject({ status: "failed", attempts: MAIL_MAX_ATTEMPTS });
  });

  it.skipIf(skip)("two workers at once never send the same message twice", async () => {
    const tos = Array.from({ length: 24 }, email);
    for (const to of tos) await queueMail(prisma(), { to, kind: "password-changed", data: { firstName: "Twin" } });
    const other = smtpTransport(smtp.url);
    const [a, b] = await Promise.all([deliverDueMail(transport, new Date(), 4), deliverDueMail(other, new Date(), 4)]);
    other.close();
    expect(a.sent + b.sent).toBe(24);
    await smtp.waitFor(24);
    const delivered = smtp.recipients.flat().filter((r) => tos.includes(r));
    expect(delivered.sort()).toEqual([...tos].sort());
    expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(smtp.received.length);
  });

  describe("password reset", () => {
    it.skipIf(skip)("emails a single-use link valid for an hour, storing only a hash of its token", async () => {
      const user = await member();
      const t0 = new Date();
      expect(await requestPasswordReset(user.email.toUpperCase(), "10.1.0.1", t0)).toEqual({ ok: true });
      await deliver();
      const [mail] = await smtp.waitFor(1);
      expect(mail.subject).toBe("Reset your Everlight password");
      const link = new URL(linkIn(mail, `${SITE}/reset-password?token=`));
      const token = link.searchParams.get("token")!;
      // Only a hash is kept, and the token is nowhere in the database.
      const row = await prisma().passwordResetToken.findFirstOrThrow({ where: { userId: user.id } });
      expect(row.tokenHash).not.toContain(token);
      const outbox = await prisma().mailOutbox.findFirstOrThrow({ where: { to: user.email, kind: "password-reset" } });
      expect(JSON.stringify(outbox.data)).not.toContain(token);

      expect(await checkResetToken(token, t0)).toEqual({ ok: true, userId: user.id });
      expect(await checkResetToken(`${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, t0)).toMatchObject({ ok: false, reason: "invalid" });
      expect(await checkResetToken(token, new Date(t0.getTime() + 61 * 60_000))).toMatchObject({ ok: false, reason: "expired" });

      await prisma().session.create({ data: { sid: `s-${user.id}`, sess: { userId: user.id }, userId: user.id, expire: new Date(Date.now() + 86_400_000) } });
      const reset = await resetPassword(token, "Another3pass", t0);
      expect(reset).toMatchObject({ ok: true, user: { id: user.id } });
      expect(await prisma().session.count({ where: { userId: user.id } })).toBe(0);
      expect(await resetPassword(token, "Yet4another", t0)).toMatchObject({ ok: false, reason: "used" });
      await deliver();
      expect((await smtp.waitFor(2))[1].subject).toBe("Your Everlight password was changed");
    });

    it.skipIf(skip)("answers the same for an address with no account, doing the same work, and sends nothing", async () => {
      const nobody = email();
      expect(await requestPasswordReset(nobody, "10.1.0.2")).toEqual({ ok: true });
      // The same one row as for a member (so the answer takes the same time); the worker finds no one to write to.
      expect(await prisma().mailOutbox.count({ where: { to: nobody } })).toBe(1);
      expect(await deliver()).toEqual({ sent: 0, skipped: 1, failed: 0 });
      expect(await prisma().mailOutbox.findFirstOrThrow({ where: { to: nobody } })).toMatchObject({
        status: "skipped",
        lastError: expect.stringContaining("no account"),
      });
      expect(smtp.received).toHaveLength(0);
    });

    /** Asks for a reset link for the member and returns the token the email carried. */
    async function resetLinkFor(address: string, at = new Date()) {
      const before = smtp.received.length;
      expect(await requestPasswordReset(address, `10.2.${n % 250}.${n++ % 250}`, at)).toEqual({ ok: true });
      await deliver();
      const mails = await smtp.waitFor(before + 1);
      return new URL(linkIn(mails[before], `${SITE}/reset-password?token=`)).searchParams.get("token")!;
    }

    it.skipIf(skip)("a link dies when the member changes the password in Account → Security", async () => {
      const user = await member();
      const token = await resetLinkFor(user.email);
      expect(await checkResetToken(token)).toMatchObject({ ok: true });
      expect(
        await changePassword(user, { currentPassword: "Correct1horse", newPassword: "Changed2pass" }, { ip: "10.1.3.1", keepSessionId: undefined }),
      ).toEqual({ ok: true });
      expect(await checkResetToken(token)).toMatchObject({ ok: false, reason: "used" });
      expect(await resetPassword(token, "Takeover3pass")).toMatchObject({ ok: false, reason: "used" });
    });

    it.skipIf(skip)("a newer request uses up the earlier link; the newest works", async () => {
      const user = await member();
      const first = await resetLinkFor(user.email);
      const second = await resetLinkFor(user.email);
      expect(second).not.toBe(first);
      expect(await checkResetToken(first)).toMatchObject({ ok: false, reason: "used" });
      expect(await resetPassword(second, "Another3pass")).toMatchObject({ ok: true, user: { id: user.id } });
    });

    it.skipIf(skip)("an older request the worker reaches after a newer one sends no link", async () => {
      const user = await member();
      const t0 = new Date(Date.now() - 60_000);
      expect(await requestPasswordReset(user.email, "10.1.4.1", t0)).toEqual({ ok: true });
      const older = await prisma().mailOutbox.findFirstOrThrow({ where: { to: user.email, kind: "password-reset" } });
      // Held back (a failed attempt) while the newer one goes out.
      await prisma().mailOutbox.update({ where: { id: older.id }, data: { nextAttemptAt: new Date(Date.now() + 60_000) } });
      const newer = await resetLinkFor(user.email);
      await deliver(new Date(Date.now() + 120_000));
      expect(await prisma().mailOutbox.findUniqueOrThrow({ where: { id: older.id } })).toMatchObject({ status: "skipped" });
      expect(await checkResetToken(newer)).toMatchObject({ ok: true });
    });

    it.skipIf(skip)("a request made before a password change, reached by the worker after it, sends no link (either way of changing)", async () => {
      for (const change of ["account-security", "reset-link"] as const) {
        const user = await member();
        // A link already out, for the reset-link case (using it is the change).
        const used = change === "reset-link" ? await resetLinkFor(user.email) : null;
        const before = smtp.received.length;
        expect(await requestPasswordReset(user.email, `10.1.5.${n++ % 250}`)).toEqual({ ok: true });
        if (used) expect(await resetPassword(used, "Another3pass")).toMatchObject({ ok: true });
        else
          expect(
            await changePassword(user, { currentPassword: "Correct1horse", newPassword: "Changed2pass" }, { ip: "10.1.5.1", keepSessionId: undefined }),
          ).toEqual({ ok: true });
        await deliver();
        const row = await prisma().mailOutbox.findFirstOrThrow({ where: { to: user.email, kind: "password-reset" }, orderBy: { createdAt: "desc" } });
        expect(row).toMatchObject({ status: "skipped", lastError: "the password was changed since the link was asked for" });
        await smtp.waitFor(before + 1);
        expect(smtp.received.slice(before).map((m) => m.subject)).toEqual(["Your Everlight password was changed"]);
        expect(await prisma().passwordResetToken.count({ where: { userId: user.id, usedAt: null } })).toBe(0);
      }
    });

    it.skipIf(skip)("limits requests per email address, whether or not it has an account", async () => {
      for (const address of [(await member()).email, email()]) {
        const results = [];
        for (let i = 0; i < 4; i++) results.push(await requestPasswordReset(address, `10.1.1.${i}`));
        expect(results.map((r) => r.ok)).toEqual([true, true, true, false]);
        expect(results[3]).toMatchObject({ reason: "rate-limited", message: expect.stringContaining("Too many password reset requests.") });
      }
    });
  });
});
