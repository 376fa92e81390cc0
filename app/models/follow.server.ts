import { randomUUID } from "node:crypto";
import { Prisma, type PrismaClient } from "~/generated/prisma/client";
import type { EmailKind } from "~/emails";
import { prisma } from "~/services/db.server";
import {
  addDays,
  isRememberedOn,
  monthDaysRememberedOn,
  REMINDER_CATCH_UP_DAYS,
  REMINDER_DAYS_AHEAD,
  reminderDayAt,
  yearsBetween,
  type AnniversaryKind,
  type ReminderOccasion,
} from "~/utils/anniversaries";
import { toIsoDate } from "~/utils/dates";
import { DIGEST_FOLD_MS, DIGEST_INTERVAL_MS, DIGEST_MAX_TRIBUTES, FOLLOW_CONFIRM_VALID_DAYS, FOLLOW_MESSAGES, type VisitorFollowInput } from "~/utils/follow";
import { followConfirmTokenFor, hashResetToken, notBeforeSql, queueMail } from "./mail.server";
import { decideAccess, isCoManagerRole, type Viewer } from "./memorial-access";
import { areFriends, findMemorialForViewer, isRecordId } from "./memorial.server";
import { describeRetry, hitRateLimit, RATE_LIMITS, type RateLimited } from "./rate-limit.server";

// Following a memorial (docs/decisions/023-follow.md). A member follows with one click;
// a visitor with an email address, confirmed by an emailed link (double opt-in: nothing but that one email
// is sent until it is used; only a hash of its token is stored; housekeeping deletes it unconfirmed after
// FOLLOW_CONFIRM_VALID_DAYS). Confirmed followers get a digest of the tributes approved and the photos
// added since their last one: queued (folded per follow) when something new appears, at most one a day,
// and written when it is sent, with a fresh look at who may still see the memorial.

type Db = PrismaClient | Prisma.TransactionClient;
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

// ------------------------------------------------------------------------------------------------
// The digest.

const DIGEST_GROUP = "follow-digest:";
const digestGroup = (followId: string) => DIGEST_GROUP + followId;

/**
 * Something new appeared on a memorial (a tribute approved, a photo added): each confirmed follower's
 * digest is queued, folded into the one already waiting (groupKey), to go DIGEST_FOLD_MS from now and
 * no sooner than DIGEST_INTERVAL_MS after their last one.
 */
export async function queueFollowDigests(db: Db, memorialId: string, now = new Date()) {
  await db.$executeRaw(followDigestsInsert(Prisma.sql`${memorialId}`, now));
}

/**
 * queueFollowDigests as one statement, the memorial given as SQL, for a write to run with it in one round
 * trip (approving a tribute, tribute.server.ts): a digest per confirmed follower, to their account's address
 * or the one they gave, folded into one already waiting (as queueMails' skipDuplicates does).
 */
export function followDigestsInsert(memorialId: Prisma.Sql, now = new Date()) {
  const groupKey = Prisma.sql`${DIGEST_GROUP} || f."id"`;
  return Prisma.sql`
    INSERT INTO "mail_outbox" ("to", "kind", "data", "groupKey", "nextAttemptAt")
    SELECT COALESCE(u."email", f."email", ''), ${"follow-digest" satisfies EmailKind}, jsonb_build_object('followId', f."id"), ${groupKey},
           ${notBeforeSql(groupKey, new Date(now.getTime() + DIGEST_FOLD_MS), DIGEST_INTERVAL_MS)}
      FROM "memorial_follows" f LEFT JOIN "users" u ON u."id" = f."userId"
     WHERE f."memorialId" = (${memorialId}) AND f."confirmedAt" IS NOT NULL
    ON CONFLICT DO NOTHING`;
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
async function mayStillSee(
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

// ------------------------------------------------------------------------------------------------
// Anniversary reminders (docs/decisions/025-anniversary-reminders.md).

const REMINDER_JOB = "anniversary-reminders";
/** How long an instance has the day's run before another may take it over (a crashed one's). */
const REMINDER_CLAIM_MS = 15 * 60_000;
/** Rows of reminders whose date is this long past are deleted by housekeeping. */
const REMINDER_KEEP_DAYS = 30;

type DueReminder = { occursOn: string; occasion: ReminderOccasion };

/**
 * What a run on `today` after `lastCovered` queues: "on the day" for today only (one missed by a day or
 * more would arrive after the day), and "a week before" for each day not covered since, up to
 * REMINDER_CATCH_UP_DAYS back, while the anniversary is still ahead.
 */
export function remindersDue(today: string, lastCovered: string | null): DueReminder[] {
  if (lastCovered !== null && lastCovered >= today) return [];
  const due: DueReminder[] = [{ occursOn: today, occasion: "on-the-day" }];
  const earliest = addDays(today, -REMINDER_CATCH_UP_DAYS + 1);
  const next = lastCovered === null ? today : addDays(lastCovered, 1);
  const first = next < earliest ? earliest : next;
  for (let day = first; day <= today; day = addDays(day, 1)) {
    const occursOn = addDays(day, REMINDER_DAYS_AHEAD);
    if (occursOn > today) due.push({ occursOn, occasion: "week-before" });
  }
  return due;
}

export type ReminderRun = { ran: false } | { ran: true; day: string; queued: number };

/**
 * The daily reminders job (server/app.ts checks hourly): the first instance to claim the day queues its
 * reminders, and those of the days missed while no instance ran (remindersDue); another instance, or a
 * second check the same day, does nothing. Each reminder is recorded (unique per follow, kind, date and
 * occasion) in the same transaction as its outbox row, so a run repeated after a crash sends nothing twice.
 */
export async function runAnniversaryReminders(now = new Date()): Promise<ReminderRun> {
  const today = reminderDayAt(now);
  const claimed = await claimReminderDay(today, now);
  if (!claimed) return { ran: false };
  let queued = 0;
  for (const due of remindersDue(today, claimed.lastCovered)) queued += await queueRemindersFor(due, now);
  await prisma().dailyJobDay.update({ where: { job: REMINDER_JOB }, data: { coveredThrough: new Date(`${today}T00:00:00Z`), claimedUntil: null } });
  return { ran: true, day: today, queued };
}

/** Claims the job for `today` (a conditional update), or null when it is covered or another instance has it. */
async function claimReminderDay(today: string, now: Date): Promise<{ lastCovered: string | null } | null> {
  // The first run ever covers today only (it has nothing to catch up).
  await prisma().dailyJobDay.createMany({ data: [{ job: REMINDER_JOB, coveredThrough: new Date(`${addDays(today, -1)}T00:00:00Z`) }], skipDuplicates: true });
  const rows = await prisma().$queryRaw<{ coveredThrough: string }[]>`
    UPDATE "daily_job_days" SET "claimedUntil" = ${new Date(now.getTime() + REMINDER_CLAIM_MS)}
    WHERE "job" = ${REMINDER_JOB} AND "coveredThrough" < ${today}::date AND ("claimedUntil" IS NULL OR "claimedUntil" <= ${now})
    RETURNING to_char("coveredThrough", 'YYYY-MM-DD') AS "coveredThrough"`;
  return rows.length ? { lastCovered: rows[0].coveredThrough } : null;
}

type ReminderCandidate = {
  followId: string;
  to: string;
  memorialId: string;
  ownerId: string;
  visibility: string;
  isPublished: boolean;
  userId: string | null;
  isAdmin: boolean;
  /** YYYY-MM-DD (written by the database, so no time zone of this process can move it). */
  dateOfBirth: string | null;
  dateOfPassing: string | null;
};

/** Queues the reminders of anniversaries remembered on `occursOn` for `occasion`; says how many were new. */
async function queueRemindersFor({ occursOn, occasion }: DueReminder, now: Date): Promise<number> {
  const monthDays = monthDaysRememberedOn(occursOn);
  // Confirmed follows with reminders on, of live memorials (the view) that are published, by a member not deleted.
  const candidates = await prisma().$queryRaw<ReminderCandidate[]>`
    SELECT f."id" AS "followId", COALESCE(u."email", f."email") AS "to", m."id" AS "memorialId", m."userId" AS "ownerId",
           m."visibility", m."isPublished", u."id" AS "userId", COALESCE(u."isAdmin", false) AS "isAdmin",
           to_char(m."dateOfBirth", 'YYYY-MM-DD') AS "dateOfBirth", to_char(m."dateOfPassing", 'YYYY-MM-DD') AS "dateOfPassing"
    FROM "memorial_follows" f
    JOIN "memorials" m ON m."id" = f."memorialId"
    LEFT JOIN "users" u ON u."id" = f."userId"
    WHERE f."anniversaryReminders" AND f."confirmedAt" IS NOT NULL AND m."isPublished"
      AND (f."userId" IS NULL OR u."deletedAt" IS NULL)
      AND (to_char(m."dateOfBirth", 'MM-DD') IN (${Prisma.join(monthDays)}) OR to_char(m."dateOfPassing", 'MM-DD') IN (${Prisma.join(monthDays)}))`;
  let queued = 0;
  for (const c of candidates) {
    const memorial = { id: c.memorialId, userId: c.ownerId, isPublished: c.isPublished, visibility: c.visibility };
    if (!(await mayStillSee(memorial, c.userId ? { id: c.userId, isAdmin: c.isAdmin } : null))) continue;
    for (const kind of anniversaryKindsOn(c, occursOn)) {
      if (await queueReminder(c, kind, occursOn, occasion, now)) queued++;
    }
  }
  return queued;
}

function anniversaryKindsOn(dates: { dateOfBirth: string | null; dateOfPassing: string | null }, day: string): AnniversaryKind[] {
  const kinds: AnniversaryKind[] = [];
  if (dates.dateOfBirth && isRememberedOn(dates.dateOfBirth, day)) kinds.push("birthday");
  if (dates.dateOfPassing && isRememberedOn(dates.dateOfPassing, day)) kinds.push("passing");
  return kinds;
}

/** Records one reminder and queues its email, in one transaction; false when it was recorded before. */
async function queueReminder(c: ReminderCandidate, kind: AnniversaryKind, occursOn: string, occasion: ReminderOccasion, now: Date) {
  return prisma().$transaction(async (tx) => {
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "anniversary_reminders" ("followId", "kind", "occursOn", "occasion", "queuedAt")
      VALUES (${c.followId}, ${kind}, ${occursOn}::date, ${occasion}, ${now})
      ON CONFLICT ("followId", "kind", "occursOn", "occasion") DO NOTHING
      RETURNING "id"`;
    if (!inserted.length) return false;
    await queueMail(tx, { to: c.to, kind: "anniversary-reminder", data: { followId: c.followId, kind, occursOn, occasion } });
    return true;
  });
}

/** Housekeeping: the records of reminders whose date is long past; says how many went. */
export async function deleteOldReminderRecords(now = new Date()): Promise<number> {
  const before = new Date(`${addDays(now.toISOString().slice(0, 10), -REMINDER_KEEP_DAYS)}T00:00:00Z`);
  return (await prisma().anniversaryReminder.deleteMany({ where: { occursOn: { lt: before } } })).count;
}

export type ReminderFacts = {
  to: string;
  firstName: string | null;
  memorialId: string;
  memorialName: string;
  kind: AnniversaryKind;
  occasion: ReminderOccasion;
  occursOn: string;
  years: number;
};

/**
 * What a reminder says when it is sent, or why nothing is sent: the follow is gone or its reminders were
 * turned off, the memorial was deleted or its date changed, the follower may no longer see it, or the
 * email is late (a "week before" on or after the day, an "on the day" after it: the outbox was held up).
 */
export async function anniversaryReminderFacts(
  followId: string,
  kind: AnniversaryKind,
  occursOn: string,
  occasion: ReminderOccasion,
  now = new Date(),
): Promise<ReminderFacts | { skip: string }> {
  const follow = await prisma().memorialFollow.findUnique({
    where: { id: followId },
    select: {
      email: true,
      confirmedAt: true,
      anniversaryReminders: true,
      user: { select: { id: true, email: true, firstName: true, isAdmin: true, deletedAt: true } },
      memorial: {
        select: { id: true, userId: true, firstName: true, lastName: true, isPublished: true, visibility: true, dateOfBirth: true, dateOfPassing: true },
      },
    },
  });
  if (!follow || !follow.confirmedAt || !follow.anniversaryReminders) return { skip: "no longer followed with reminders" };
  const memorial = follow.memorial;
  if (!memorial) return { skip: "the memorial was deleted" };
  if (follow.user?.deletedAt) return { skip: "the follower's account was deleted" };
  if (!(await mayStillSee(memorial, follow.user))) return { skip: "the follower may no longer see the memorial" };
  const date = toIsoDate(kind === "birthday" ? memorial.dateOfBirth : memorial.dateOfPassing);
  if (!date || !isRememberedOn(date, occursOn)) return { skip: "the date was changed" };
  const sentOn = now.toISOString().slice(0, 10);
  if (occasion === "on-the-day" ? sentOn > occursOn : sentOn >= occursOn) return { skip: "too late to remind" };
  return {
    to: follow.user?.email ?? follow.email ?? "",
    firstName: follow.user?.firstName ?? null,
    memorialId: memorial.id,
    memorialName: `${memorial.firstName} ${memorial.lastName}`.trim(),
    kind,
    occasion,
    occursOn,
    years: yearsBetween(date, occursOn),
  };
}
