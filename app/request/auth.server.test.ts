import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../test/databases";
import { getUserById } from "~/models/accounts/users.server";
import { getOptionalUser } from "./auth.server";
import { startSession } from "./session.server";

// Who is asking: the session and its member are read in one statement. A request counts as
// signed in only with a live session of an account that still exists; the member's activity is noted.

process.env.SESSION_SECRET ??= "auth-test-secret-that-is-long-enough-0123456789";

const DAY_MS = 24 * 60 * 60 * 1000;

describe.each(databaseKinds)("who is asking, on $name", (kind) => {
  const app = useAppDatabase(kind);

  async function member(lastActiveAt = new Date()) {
    const email = `m-${Math.random().toString(36).slice(2)}@example.test`;
    const user = await app.db.prisma.user.create({ data: { email, password: "x", firstName: "Mara", lastName: "Lind", lastActiveAt } });
    const setCookie = await startSession(new Request("http://localhost/"), user.id);
    const cookie = setCookie.split(";")[0];
    const sid = (await app.db.prisma.session.findFirstOrThrow({ where: { userId: user.id }, select: { sid: true } })).sid;
    return { user, cookie, sid };
  }
  /** A page read as a browser sends it: a fresh Request each time, as each request is. */
  const asking = (cookie: string) => getOptionalUser(new Request("http://localhost/account", { method: "POST", headers: { Cookie: cookie } }));

  it.skipIf(kind.skip)("finds the member of a live session, and notes that they were seen when a day has passed", async () => {
    const { user, cookie } = await member(new Date(Date.now() - 2 * DAY_MS));
    const found = await asking(cookie);
    expect(found).toMatchObject({ id: user.id, email: user.email, firstName: "Mara" });
    expect(found).not.toHaveProperty("password");
    // Read past Prisma, the member is the one Prisma reads, to the millisecond and the last preference.
    await app.db.prisma.user.update({
      where: { id: user.id },
      data: { subscriptionPlan: "premium", subscriptionExpiryDate: new Date("2027-03-04T05:06:07.089Z"), notificationPreferences: { news: false } },
    });
    expect(await asking(cookie)).toEqual(await getUserById(user.id));
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York"; // and on a server whose clock is not in UTC
    try {
      expect(new Date("2027-03-04T05:06:07.089Z").getTimezoneOffset()).toBe(300);
      expect(await asking(cookie)).toEqual(await getUserById(user.id));
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    const seen = await app.db.prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { lastActiveAt: true } });
    expect(Date.now() - seen.lastActiveAt.getTime()).toBeLessThan(60_000);
  });

  it.skipIf(kind.skip)("finds no one for an expired session, a deleted account, a session ended, or a cookie not signed by us", async () => {
    const expired = await member();
    await app.db.prisma.session.update({ where: { sid: expired.sid }, data: { expire: new Date(Date.now() - 1000) } });
    expect(await asking(expired.cookie)).toBeNull();

    const deleted = await member();
    expect(await asking(deleted.cookie)).not.toBeNull();
    await app.db.prisma.user.update({ where: { id: deleted.user.id }, data: { deletedAt: new Date() } });
    expect(await asking(deleted.cookie)).toBeNull();

    // A cookie's signature is checked once and remembered, its session row read every time: ending
    // the session signs it out at once.
    const ended = await member();
    expect(await asking(ended.cookie)).toMatchObject({ id: ended.user.id });
    await app.db.prisma.session.delete({ where: { sid: ended.sid } });
    expect(await asking(ended.cookie)).toBeNull();

    const other = await member();
    expect(await asking(other.cookie)).toMatchObject({ id: other.user.id });
    const forged = `__session=${encodeURIComponent(Buffer.from(JSON.stringify(other.sid)).toString("base64"))}.forged`;
    expect(await asking(forged)).toBeNull();
    const dot = other.cookie.lastIndexOf(".") + 1;
    const tampered = other.cookie.slice(0, dot) + (other.cookie[dot] === "A" ? "B" : "A") + other.cookie.slice(dot + 1);
    expect(await asking(tampered)).toBeNull();
    expect(await asking("")).toBeNull();
    expect(await asking(other.cookie)).toMatchObject({ id: other.user.id });
  });
});
