import { describe, expect, it } from "vitest";
import { deliverDueMail } from "../../../server/mail-worker";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import type { MailTransport, OutgoingMail } from "~/services/mail.server";
import {
  confirmFollow,
  deleteExpiredFollows,
  findFollowConfirmation,
  followAsMember,
  followAsVisitor,
  followerSummary,
  listFollowedMemorials,
  unfollowAsMember,
  unfollowByLink,
} from "./follows.server";
import { keepHouse } from "../housekeeping.server";
import { followConfirmTokenFor } from "~/services/signed-links.server";
import { deleteMemorial } from "../memorials/deletion.server";
import { moderateTribute } from "../tributes/tributes.server";

// Following a memorial on PGlite and PostgreSQL: a member follows only what they may
// see; a visitor's follow waits for its link (used once, gone after 7 days); two approved tributes make
// one digest listing both, at most one a day; a memorial made private or deleted sends nothing more.

const HOUR = 3600_000;
let n = 0;

function capture() {
  const sent: OutgoingMail[] = [];
  const transport: MailTransport = { name: "outbox", send: async (m) => void sent.push(m), close() {} };
  return { sent, transport };
}

describe.each(databaseKinds)("following a memorial on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const person = async () => {
    const u = await app.db.prisma.user.create({
      data: { email: `fo${Date.now().toString(36)}${n++}@example.com`, firstName: "Fern", lastName: `F${n}`, password: "x" },
    });
    return { id: u.id, email: u.email, isAdmin: false, ip: "127.0.0.1", firstName: u.firstName, lastName: u.lastName };
  };
  const memorialOf = (userId: string, visibility = "public") =>
    app.db.prisma.memorial.create({ data: { userId, title: "Iris Vale", firstName: "Iris", lastName: "Vale", visibility, isPublished: true } });
  const tribute = (memorialId: string, authorName: string, content: string) =>
    app.db.prisma.tribute.create({ data: { memorialId, authorName, content, isApproved: false } });
  const outboxFor = (to: string, kind: string) => app.db.prisma.mailOutbox.findMany({ where: { to, kind } });

  it.skipIf(skip)("lets a member follow and unfollow what they may see, and only that; the family sees a count and agreed names", async () => {
    const owner = await person();
    const fan = await person();
    const shy = await person();
    const open = await memorialOf(owner.id);
    const closed = await memorialOf(owner.id, "private");
    expect(await followAsMember(closed.id, fan, { reminders: false, showName: true })).toEqual({ ok: false, reason: "not-found" });
    expect(await followAsMember(open.id, fan, { reminders: true, showName: true })).toEqual({ ok: true });
    expect(await followAsMember(open.id, fan, { reminders: true, showName: true })).toEqual({ ok: true });
    expect(await followAsMember(open.id, shy, { reminders: false, showName: false })).toEqual({ ok: true });
    const row = await app.db.prisma.memorialFollow.findUniqueOrThrow({ where: { memorialId_userId: { memorialId: open.id, userId: fan.id } } });
    expect(row.anniversaryReminders).toBe(true);
    expect(await listFollowedMemorials(fan.id)).toEqual([expect.objectContaining({ memorialId: open.id, name: "Iris Vale", reminders: true })]);
    expect(await followerSummary(open.id)).toEqual({ count: 2, names: [`${fan.firstName} ${fan.lastName}`] });
    expect(await unfollowAsMember(open.id, fan.id)).toBe(true);
    expect(await unfollowAsMember(open.id, fan.id)).toBe(false);
    expect(await listFollowedMemorials(fan.id)).toEqual([]);
    expect(await followerSummary(open.id)).toEqual({ count: 1, names: [] });
  });

  it.skipIf(skip)("sends a visitor nothing but the confirmation until its link is used, once; an unconfirmed follow expires", async () => {
    const owner = await person();
    const memorial = await memorialOf(owner.id);
    const email = `visitor${n++}@example.com`;
    const asked = await followAsVisitor(memorial.id, { email, reminders: false }, `10.0.0.${n}`);
    if (!asked.ok || !asked.followId) throw new Error("not asked");
    expect(await outboxFor(email, "follow-confirm")).toHaveLength(1);
    // Not counted until confirmed, and no digest for it.
    expect((await followerSummary(memorial.id)).count).toBe(0);
    const t = await tribute(memorial.id, "Ada", "She sang.");
    expect(await moderateTribute("approve", t.id, owner)).toBe("ok");
    expect(await outboxFor(email, "follow-digest")).toHaveLength(0);

    const token = followConfirmTokenFor(asked.followId);
    const stored = await app.db.prisma.memorialFollow.findUniqueOrThrow({ where: { id: asked.followId } });
    expect(stored.tokenHash).not.toBe(token);
    expect((await findFollowConfirmation("not-a-token")).state).toBe("invalid");
    const [a, b] = await Promise.all([confirmFollow(token), confirmFollow(token)]);
    expect([a.state, b.state]).toEqual(["confirmed", "confirmed"]);
    expect((await findFollowConfirmation(token)).state).toBe("confirmed");
    expect((await followerSummary(memorial.id)).count).toBe(1);
    // Asking again for an address that follows sends nothing more.
    expect(await followAsVisitor(memorial.id, { email, reminders: false }, `10.0.1.${n}`)).toEqual({ ok: true, followId: null });
    expect(await outboxFor(email, "follow-confirm")).toHaveLength(1);

    // Another visitor never confirms: after 7 days the link is dead and housekeeping deletes the follow.
    const late = `late${n++}@example.com`;
    const lateAsk = await followAsVisitor(memorial.id, { email: late, reminders: true }, `10.0.2.${n}`);
    if (!lateAsk.ok || !lateAsk.followId) throw new Error("not asked");
    const eightDays = new Date(Date.now() + 8 * 24 * HOUR);
    expect((await confirmFollow(followConfirmTokenFor(lateAsk.followId), eightDays)).state).toBe("invalid");
    expect(await deleteExpiredFollows(new Date(Date.now() + 24 * HOUR))).toBe(0);
    expect((await keepHouse(eightDays)).follows).toBeGreaterThanOrEqual(1);
    expect(await app.db.prisma.memorialFollow.count({ where: { id: lateAsk.followId } })).toBe(0);
    expect(await app.db.prisma.memorialFollow.count({ where: { id: asked.followId } })).toBe(1);
    // A follow of a memorial only friends see: refused to a visitor.
    const friendsOnly = await memorialOf(owner.id, "friends");
    expect(await followAsVisitor(friendsOnly.id, { email, reminders: false }, "10.0.3.1")).toEqual({ ok: false, reason: "not-found" });
  });

  it.skipIf(skip)("folds two approved tributes and a photo into one digest, at most one a day, with one-click unsubscribe", async () => {
    const owner = await person();
    const fan = await person();
    const memorial = await memorialOf(owner.id);
    await followAsMember(memorial.id, fan, { reminders: false, showName: false });
    const first = await tribute(memorial.id, "Ada Lark", "She sang in the kitchen every morning.");
    const second = await tribute(memorial.id, "Ben Moss", "Her garden was the best in the street.");
    expect(await moderateTribute("approve", first.id, owner)).toBe("ok");
    expect(await moderateTribute("approve", second.id, owner)).toBe("ok");
    await app.db.prisma.memorialMedia.create({ data: { memorialId: memorial.id, mediaUrl: "/media/x.jpg", mediaType: "image/jpeg" } });
    expect(await outboxFor(fan.email, "follow-digest")).toHaveLength(1);

    const { sent, transport } = capture();
    // Folded for an hour: nothing yet.
    await deliverDueMail(transport, new Date());
    expect(sent.filter((m) => m.to === fan.email)).toHaveLength(0);
    await deliverDueMail(transport, new Date(Date.now() + 2 * HOUR));
    const mine = sent.filter((m) => m.to === fan.email);
    expect(mine).toHaveLength(1);
    expect(mine[0].subject).toBe("2 new tributes and 1 new photo or video on the memorial of Iris Vale");
    expect(mine[0].text).toContain("She sang in the kitchen every morning.");
    expect(mine[0].text).toContain("Her garden was the best in the street.");
    expect(mine[0].headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mine[0].headers?.["List-Unsubscribe"]).toMatch(/^<https?:\/\/[^>]+\/unsubscribe\?follow=[^&]+&sig=[^>]+>$/);

    // The worker's clock ran two hours ahead above; the digest is put back to "just now", when the tributes below come.
    await app.db.prisma.mailOutbox.updateMany({ where: { to: fan.email, kind: "follow-digest", status: "sent" }, data: { sentAt: new Date() } });
    // A third tribute the next hour: its digest waits for a day after the last.
    const third = await tribute(memorial.id, "Cy Dale", "Always a kind word.");
    await moderateTribute("approve", third.id, owner);
    await deliverDueMail(transport, new Date(Date.now() + 4 * HOUR));
    expect(sent.filter((m) => m.to === fan.email)).toHaveLength(1);
    await deliverDueMail(transport, new Date(Date.now() + 25 * HOUR));
    const next = sent.filter((m) => m.to === fan.email);
    expect(next).toHaveLength(2);
    expect(next[1].subject).toBe("1 new tribute on the memorial of Iris Vale");
    expect(next[1].text).toContain("Always a kind word.");
    expect(next[1].text).not.toContain("She sang in the kitchen");

    // The link in the header unsubscribes.
    const follow = await app.db.prisma.memorialFollow.findFirstOrThrow({ where: { memorialId: memorial.id, userId: fan.id } });
    expect(await unfollowByLink(follow.id)).toBe(true);
    expect(await listFollowedMemorials(fan.id)).toEqual([]);
  });

  it.skipIf(skip)("approvals at the same moment leave one digest waiting per follower, and an approval twice at once is done once", async () => {
    const owner = await person();
    const [fan, friend] = [await person(), await person()];
    const memorial = await memorialOf(owner.id);
    for (const f of [fan, friend]) await followAsMember(memorial.id, f, { reminders: false, showName: false });
    const tributes = await Promise.all(["One", "Two", "Three"].map((w) => tribute(memorial.id, `Author ${w}`, `Memory ${w}.`)));
    const [twice] = tributes;
    const results = await Promise.all([twice, ...tributes].map((t) => moderateTribute("approve", t.id, owner)));
    expect(results).toEqual(["ok", "ok", "ok", "ok"]);
    for (const f of [fan, friend]) expect(await outboxFor(f.email, "follow-digest"), f.email).toHaveLength(1);
    expect(await app.db.prisma.tribute.count({ where: { memorialId: memorial.id, isApproved: true } })).toBe(3);
  });

  it.skipIf(skip)("sends nothing for a memorial made private or deleted since", async () => {
    const owner = await person();
    const fan = await person();
    const guest = `guest${n++}@example.com`;
    const hidden = await memorialOf(owner.id);
    const gone = await memorialOf(owner.id);
    for (const m of [hidden, gone]) {
      await followAsMember(m.id, fan, { reminders: false, showName: false });
      const asked = await followAsVisitor(m.id, { email: guest, reminders: false }, `10.1.0.${n++}`);
      if (!asked.ok || !asked.followId) throw new Error("not asked");
      await confirmFollow(followConfirmTokenFor(asked.followId));
      const t = await tribute(m.id, "Dee", "Missed.");
      await moderateTribute("approve", t.id, owner);
    }
    await app.db.prisma.memorial.update({ where: { id: hidden.id }, data: { visibility: "private" } });
    expect(await deleteMemorial(gone.id, owner)).toBe(true);
    const { sent, transport } = capture();
    const report = await deliverDueMail(transport, new Date(Date.now() + 2 * HOUR));
    expect(sent.filter((m) => m.to === fan.email || m.to === guest)).toHaveLength(0);
    expect(report.skipped).toBeGreaterThanOrEqual(4);
    const reasons = await app.db.prisma.mailOutbox.findMany({ where: { kind: "follow-digest", to: { in: [fan.email, guest] } }, select: { lastError: true } });
    expect(new Set(reasons.map((r) => r.lastError))).toEqual(new Set(["the follower may no longer see the memorial", "the memorial was deleted"]));
  });
});
