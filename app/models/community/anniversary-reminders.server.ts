import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { queryRows, sqlQuery, type RowOf } from "~/services/sql-statements.server";
import { toIsoDate } from "~/utils/dates";
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
import { queueMail } from "../mail/outbox.server";
import { mayStillSee } from "./follows.server";

// Anniversary reminders: a follower who asked for them hears a week before a birthday or the day of
// passing, and again on the day. One instance runs each day (a claimed row), and a
// run after downtime catches up on the days it missed without sending anything twice.

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

const claimDay = sqlQuery({
  name: "anniversaries.claimDay",
  columns: { coveredThrough: "text" },
  sql: (today: string, now: Date) => Prisma.sql`
    UPDATE "daily_job_days" SET "claimedUntil" = ${new Date(now.getTime() + REMINDER_CLAIM_MS)}
    WHERE "job" = ${REMINDER_JOB} AND "coveredThrough" < ${today}::date AND ("claimedUntil" IS NULL OR "claimedUntil" <= ${now})
    RETURNING to_char("coveredThrough", 'YYYY-MM-DD') AS "coveredThrough"`,
  examples: [["2026-01-01", new Date(0)]],
});

/** Claims the job for `today` (a conditional update), or null when it is covered or another instance has it. */
async function claimReminderDay(today: string, now: Date): Promise<{ lastCovered: string | null } | null> {
  // The first run ever covers today only (it has nothing to catch up).
  await prisma().dailyJobDay.createMany({ data: [{ job: REMINDER_JOB, coveredThrough: new Date(`${addDays(today, -1)}T00:00:00Z`) }], skipDuplicates: true });
  const rows = await queryRows(prisma(), claimDay(today, now));
  return rows.length ? { lastCovered: rows[0].coveredThrough } : null;
}

const candidateColumns = {
  followId: "text",
  to: "text",
  memorialId: "text",
  ownerId: "text",
  visibility: "text",
  isPublished: "bool",
  userId: "text | null",
  isAdmin: "bool",
  // YYYY-MM-DD (written by the database, so no time zone of this process can move it).
  dateOfBirth: "text | null",
  dateOfPassing: "text | null",
} as const;

type ReminderCandidate = RowOf<typeof candidateColumns>;

// Confirmed follows with reminders on, of live memorials (the view) that are published, by a member not deleted.
const reminderCandidates = sqlQuery({
  name: "anniversaries.reminderCandidates",
  columns: candidateColumns,
  sql: (monthDays: string[]) => Prisma.sql`
    SELECT f."id" AS "followId", COALESCE(u."email", f."email") AS "to", m."id" AS "memorialId", m."userId" AS "ownerId",
           m."visibility", m."isPublished", u."id" AS "userId", COALESCE(u."isAdmin", false) AS "isAdmin",
           to_char(m."dateOfBirth", 'YYYY-MM-DD') AS "dateOfBirth", to_char(m."dateOfPassing", 'YYYY-MM-DD') AS "dateOfPassing"
    FROM "memorial_follows" f
    JOIN "memorials" m ON m."id" = f."memorialId"
    LEFT JOIN "users" u ON u."id" = f."userId"
    WHERE f."anniversaryReminders" AND f."confirmedAt" IS NOT NULL AND m."isPublished"
      AND (f."userId" IS NULL OR u."deletedAt" IS NULL)
      AND (to_char(m."dateOfBirth", 'MM-DD') IN (${Prisma.join(monthDays)}) OR to_char(m."dateOfPassing", 'MM-DD') IN (${Prisma.join(monthDays)}))`,
  examples: [[["02-28", "02-29"]]],
});

/** Queues the reminders of anniversaries remembered on `occursOn` for `occasion`; says how many were new. */
async function queueRemindersFor({ occursOn, occasion }: DueReminder, now: Date): Promise<number> {
  const candidates = await queryRows(prisma(), reminderCandidates(monthDaysRememberedOn(occursOn)));
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

const recordReminder = sqlQuery({
  name: "anniversaries.recordReminder",
  columns: { id: "text" },
  sql: (followId: string, kind: AnniversaryKind, occursOn: string, occasion: ReminderOccasion, now: Date) => Prisma.sql`
      INSERT INTO "anniversary_reminders" ("followId", "kind", "occursOn", "occasion", "queuedAt")
      VALUES (${followId}, ${kind}, ${occursOn}::date, ${occasion}, ${now})
      ON CONFLICT ("followId", "kind", "occursOn", "occasion") DO NOTHING
      RETURNING "id"`,
  examples: [["follow", "birthday", "2026-01-01", "week-before", new Date(0)]],
});

/** Records one reminder and queues its email, in one transaction; false when it was recorded before. */
async function queueReminder(c: ReminderCandidate, kind: AnniversaryKind, occursOn: string, occasion: ReminderOccasion, now: Date) {
  return prisma().$transaction(async (tx) => {
    const inserted = await queryRows(tx, recordReminder(c.followId, kind, occursOn, occasion, now));
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
