import { randomUUID } from "node:crypto";
import { prisma } from "~/services/db.server";
import { DIGEST_MAX_TRIBUTES, FOLLOW_CONFIRM_VALID_DAYS, FOLLOW_MESSAGES, type VisitorFollowInput } from "~/utils/follow";
import { followConfirmTokenFor, hashResetToken } from "~/services/signed-links.server";
import { queueMail } from "../mail/outbox.server";
import { decideAccess, isCoManagerRole, type Viewer } from "../memorials/access-rules";
import { areFriends, findMemorialForViewer, isRecordId } from "../memorials/access.server";
import { describeRetry, hitRateLimit, RATE_LIMITS, type RateLimited } from "../rate-limit.server";
import { digestGroup } from "../mail/follower-digests.server";

// Following a memorial (docs/decisions/023-follow.md). A member follows with one click;
// a visitor with an email address, confirmed by an emailed link (double opt-in: nothing but that one email
// is sent until it is used; only a hash of its token is stored; housekeeping deletes it unconfirmed after
// FOLLOW_CONFIRM_VALID_DAYS). Confirmed followers get a digest of the tributes approved and the photos
// added since their last one: queued (folded per follow) when something new appears, at most one a day,
// and written when it is sent, with a fresh look at who may still see the memorial.

const DAY_MS = 24 * 3600_000;

export type FollowChoices = { reminders: boolean; showName: boolean };
export type FollowResult = { ok: true } | { ok: false; reason: "not-found" };

/** A member follows a memorial they may see (decideAccess), or changes their choices if they already do. */
export async function followAsMember(memorialId: string, viewer: NonNullable<Viewer>, choices: FollowChoices, now = new Date()): Promise<FollowResult> {
  if (!isRecordId(memorialId) || (await findMemorialForViewer(memorialId, viewer)).status !== "ok") return { ok: false, reason: "not-found" };
  const data = { anniversaryReminders: choices.reminders, showName: choices.showName };
  await prisma().memorialFollow.upsert({
    where: { memorialId_userId: { memorialId, userId: viewer.id } },
    create: { memorialId, userId: viewer.id, confirmedAt: now, createdAt: now, ...data },
    update: data,
  });
  return { ok: true };
}

/** A member stops following a memorial (from its page); true when they followed it. */
export async function unfollowAsMember(memorialId: string, userId: string): Promise<boolean> {
  if (!isRecordId(memorialId)) return false;
  return (await prisma().memorialFollow.deleteMany({ where: { memorialId, userId } })).count > 0;
}

/** A member turns a follow's anniversary reminders on or off, from Account → Following (their own only). */
export async function setRemindersById(followId: string, userId: string, on: boolean): Promise<boolean> {
  if (!isRecordId(followId)) return false;
  return (await prisma().memorialFollow.updateMany({ where: { id: followId, userId }, data: { anniversaryReminders: on } })).count > 0;
}

/** The "stop these reminders only" link of a reminder email: the follow stays, its reminders stop. */
export async function stopRemindersByLink(followId: string): Promise<boolean> {
  if (!isRecordId(followId)) return false;
  return (await prisma().memorialFollow.updateMany({ where: { id: followId }, data: { anniversaryReminders: false } })).count > 0;
}

/** A member stops following, from Account → Following (by the follow's id, their own only). */
export async function unfollowById(followId: string, userId: string): Promise<boolean> {
  if (!isRecordId(followId)) return false;
  return (await prisma().memorialFollow.deleteMany({ where: { id: followId, userId } })).count > 0;
}

/** The one-click unsubscribe link of a follower email: the follow goes (member's or visitor's). */
export async function unfollowByLink(followId: string): Promise<boolean> {
  if (!isRecordId(followId)) return false;
  return (await prisma().memorialFollow.deleteMany({ where: { id: followId } })).count > 0;
}

export type VisitorFollowResult = { ok: true; followId: string | null } | { ok: false; reason: "not-found" } | RateLimited;

/**
 * A visitor asks to follow a public memorial with an email address. Counted per network address and per
 * email address asked about (the form must not mail-bomb anyone). The answer is the same whether the
 * address already follows or not ("check your email"); an address that already follows gets nothing,
 * one that has not confirmed yet gets the link again, valid for FOLLOW_CONFIRM_VALID_DAYS from now.
 */
export async function followAsVisitor(memorialId: string, input: VisitorFollowInput, ip: string, now = new Date()): Promise<VisitorFollowResult> {
  if (!isRecordId(memorialId) || (await findMemorialForViewer(memorialId, null)).status !== "ok") return { ok: false, reason: "not-found" };
  const hits = await Promise.all([hitRateLimit(RATE_LIMITS.followPerIp, ip, now), hitRateLimit(RATE_LIMITS.followPerEmail, input.email, now)]);
  if (hits.some((h) => !h.allowed)) {
    const retryAfterSeconds = Math.max(...hits.map((h) => h.retryAfterSeconds));
    return { ok: false, reason: "rate-limited", retryAfterSeconds, message: `${FOLLOW_MESSAGES.rateLimited} ${describeRetry(retryAfterSeconds)}` };
  }
  const expiresAt = new Date(now.getTime() + FOLLOW_CONFIRM_VALID_DAYS * DAY_MS);
  return prisma().$transaction(async (tx) => {
    const id = randomUUID();
    await tx.memorialFollow.createMany({
      data: [
        {
          id,
          memorialId,
          email: input.email,
          anniversaryReminders: input.reminders,
          tokenHash: hashResetToken(followConfirmTokenFor(id)),
          createdAt: now,
          expiresAt,
        },
      ],
      skipDuplicates: true,
    });
    const row = await tx.memorialFollow.findUniqueOrThrow({
      where: { memorialId_email: { memorialId, email: input.email } },
      select: { id: true, confirmedAt: true },
    });
    if (row.confirmedAt) return { ok: true, followId: null } as const;
    if (row.id !== id) await tx.memorialFollow.update({ where: { id: row.id }, data: { expiresAt, anniversaryReminders: input.reminders } });
    await queueMail(tx, { to: input.email, kind: "follow-confirm", data: { followId: row.id } });
    return { ok: true, followId: row.id } as const;
  });
}

export type ConfirmState = "pending" | "confirmed" | "invalid";
export type FollowConfirmation = { state: ConfirmState; follow: null | { id: string; memorialId: string; memorialName: string; email: string } };

/** What a confirmation link stands for now (the /follow/:token page). */
export async function findFollowConfirmation(token: string, now = new Date()): Promise<FollowConfirmation> {
  if (!token || token.length > 200) return { state: "invalid", follow: null };
  const row = await prisma().memorialFollow.findUnique({
    where: { tokenHash: hashResetToken(token) },
    select: { id: true, memorialId: true, email: true, confirmedAt: true, expiresAt: true, memorial: { select: { firstName: true, lastName: true } } },
  });
  // A memorial deleted meanwhile (the view finds none): the link is as good as gone.
  if (!row || !row.memorial || !row.email) return { state: "invalid", follow: null };
  const follow = { id: row.id, memorialId: row.memorialId, memorialName: `${row.memorial.firstName} ${row.memorial.lastName}`, email: row.email };
  if (row.confirmedAt) return { state: "confirmed", follow };
  if (!row.expiresAt || row.expiresAt <= now) return { state: "invalid", follow: null };
  return { state: "pending", follow };
}

/** Confirms a visitor's follow with its link, once (a conditional update: two clicks confirm it once). */
export async function confirmFollow(token: string, now = new Date()): Promise<FollowConfirmation> {
  const found = await findFollowConfirmation(token, now);
  if (found.state !== "pending" || !found.follow) return found;
  const done = await prisma().memorialFollow.updateMany({
    where: { id: found.follow.id, confirmedAt: null, expiresAt: { gt: now } },
    data: { confirmedAt: now, expiresAt: null },
  });
  if (done.count === 0) return findFollowConfirmation(token, now);
  return { state: "confirmed", follow: found.follow };
}

/** Unconfirmed visitors' follows past their expiry (housekeeping); says how many went. */
export async function deleteExpiredFollows(now = new Date()): Promise<number> {
  return (await prisma().memorialFollow.deleteMany({ where: { confirmedAt: null, expiresAt: { lte: now } } })).count;
}

/** Whether this member follows the memorial, and with which choices (the memorial page's button). */
export async function followOf(memorialId: string, userId: string) {
  return prisma().memorialFollow.findUnique({
    where: { memorialId_userId: { memorialId, userId } },
    select: { id: true, anniversaryReminders: true, showName: true },
  });
}

/** The memorials a member follows (Account → Following), live ones only. */
export async function listFollowedMemorials(userId: string) {
  const rows = await prisma().memorialFollow.findMany({
    where: { userId, memorial: { is: {} } },
    orderBy: { createdAt: "desc" },
    take: 200,
    select: { id: true, memorialId: true, anniversaryReminders: true, createdAt: true, memorial: { select: { firstName: true, lastName: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    memorialId: r.memorialId,
    name: `${r.memorial.firstName} ${r.memorial.lastName}`,
    reminders: r.anniversaryReminders,
    since: r.createdAt,
  }));
}

/** For the family: how many follow (confirmed), and the names of the members who agreed to show theirs. */
export async function followerSummary(memorialId: string) {
  const [count, named] = await Promise.all([
    prisma().memorialFollow.count({ where: { memorialId, confirmedAt: { not: null } } }),
    prisma().memorialFollow.findMany({
      where: { memorialId, confirmedAt: { not: null }, showName: true, user: { is: { deletedAt: null } } },
      orderBy: { createdAt: "asc" },
      take: 100,
      select: { user: { select: { firstName: true, lastName: true } } },
    }),
  ]);
  return { count, names: named.flatMap((f) => (f.user ? [`${f.user.firstName} ${f.user.lastName}`] : [])) };
}

export type DigestFacts = {
  to: string;
  firstName: string | null;
  memorialId: string;
  memorialName: string;
  tributes: { authorName: string; excerpt: string }[];
  tributeCount: number;
  photoCount: number;
};

/**
 * What a follower's digest says now: the tributes approved and the photos and videos added since their
 * last digest (or since they followed). Null, with why, when nothing is to be sent: the follow is gone or
 * unconfirmed, the memorial was deleted, the follower may no longer see it, or nothing is new.
 */
export async function digestFacts(followId: string): Promise<DigestFacts | { skip: string }> {
  const follow = await prisma().memorialFollow.findUnique({
    where: { id: followId },
    select: {
      id: true,
      email: true,
      confirmedAt: true,
      user: { select: { id: true, email: true, firstName: true, isAdmin: true, deletedAt: true } },
      memorial: { select: { id: true, userId: true, firstName: true, lastName: true, isPublished: true, visibility: true } },
    },
  });
  if (!follow || !follow.confirmedAt) return { skip: "no longer followed" };
  const memorial = follow.memorial;
  if (!memorial) return { skip: "the memorial was deleted" };
  if (follow.user?.deletedAt) return { skip: "the follower's account was deleted" };
  if (!(await mayStillSee(memorial, follow.user))) return { skip: "the follower may no longer see the memorial" };
  const last = await prisma().mailOutbox.findFirst({
    where: { groupKey: digestGroup(follow.id), status: "sent" },
    orderBy: { sentAt: "desc" },
    select: { sentAt: true },
  });
  const since = last?.sentAt && last.sentAt > follow.confirmedAt ? last.sentAt : follow.confirmedAt;
  const newTributes = { memorialId: memorial.id, isApproved: true, approvedAt: { gt: since } };
  const [tributeCount, tributes, photoCount] = await Promise.all([
    prisma().tribute.count({ where: newTributes }),
    prisma().tribute.findMany({ where: newTributes, orderBy: { approvedAt: "asc" }, take: DIGEST_MAX_TRIBUTES, select: { authorName: true, content: true } }),
    prisma().memorialMedia.count({ where: { memorialId: memorial.id, createdAt: { gt: since } } }),
  ]);
  if (tributeCount + photoCount === 0) return { skip: "nothing new since the last digest" };
  return {
    to: follow.user?.email ?? follow.email ?? "",
    firstName: follow.user?.firstName ?? null,
    memorialId: memorial.id,
    memorialName: `${memorial.firstName} ${memorial.lastName}`.trim(),
    tributes: tributes.map((t) => ({ authorName: t.authorName, excerpt: excerpt(t.content) })),
    tributeCount,
    photoCount,
  };
}

/** The viewing rule at send time: a visitor's follow needs a published public memorial; a member's, decideAccess. */
export async function mayStillSee(
  memorial: { id: string; userId: string; isPublished: boolean; visibility: string },
  user: { id: string; isAdmin: boolean } | null,
): Promise<boolean> {
  if (!user) return decideAccess(memorial, null, false).allowed;
  const viewer = { id: user.id, isAdmin: user.isAdmin };
  const isFriend =
    memorial.isPublished && memorial.visibility === "friends" && user.id !== memorial.userId ? await areFriends(memorial.userId, user.id) : false;
  const co = await prisma().memorialManager.findUnique({ where: { memorialId_userId: { memorialId: memorial.id, userId: user.id } }, select: { role: true } });
  return decideAccess(memorial, viewer, isFriend, isCoManagerRole(co?.role) ? co.role : null).allowed;
}

function excerpt(content: string, max = 200) {
  const flat = content.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/** The facts of a visitor's confirmation email, or null once the link can no longer be used. */
export async function followConfirmFacts(followId: string, now = new Date()) {
  const row = await prisma().memorialFollow.findUnique({
    where: { id: followId },
    select: { id: true, email: true, confirmedAt: true, expiresAt: true, memorial: { select: { firstName: true, lastName: true } } },
  });
  if (!row || !row.memorial || !row.email || row.confirmedAt || !row.expiresAt || row.expiresAt <= now) return null;
  return {
    email: row.email,
    memorialName: `${row.memorial.firstName} ${row.memorial.lastName}`,
    token: followConfirmTokenFor(row.id),
    expiresAt: row.expiresAt,
  };
}
