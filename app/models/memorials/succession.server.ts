import { Prisma, type PrismaClient } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { executeSql, queryRows, sqlCommand, sqlQuery } from "~/services/sql-statements.server";
import { holdAdvisoryLock } from "~/services/transaction-locks.server";
import { DELETE_WITH_ACCOUNT, FIRST_REMINDER_DAYS, REMINDER_GAP_DAYS, SUCCESSION_MESSAGES, type HandOverPeriod } from "~/utils/succession";
import { recordAudit, type Actor } from "../audit.server";
import { queueMail } from "../mail/outbox.server";
import { canDeleteOrExport } from "./access-rules";
import { isRecordId, memorialRole } from "./access.server";

// A successor (docs/decisions/021-successor.md). The owner names one of a memorial's
// co-managers as its successor (or invites someone by email to be one: managers.server.ts).
// When the owner deletes their account, or has not been seen for the months they chose (after two
// reminder emails), the memorial passes to the successor instead of going with the account. Without a
// successor the owner chooses at deletion: hand it on to a co-manager, or delete it with the account.

type Db = PrismaClient | Prisma.TransactionClient;

const DAY_MS = 86_400_000;
/** At most this many absent owners are reminded or handed on per round; the next round takes the rest. */
const ROUND_BATCH = 25;

export type SuccessionResult = { ok: true } | { ok: false; reason: "forbidden" | "not-found" };

// ───────────────────────────── naming ─────────────────────────────

/** Serialises changes of one memorial's successor (two tabs, an acceptance at the same moment). */
export async function lockSuccession(tx: Prisma.TransactionClient, memorialId: string) {
  await holdAdvisoryLock(tx, `successor:${memorialId}`);
}

/**
 * Makes one co-manager the memorial's successor (the owner alone: canDeleteOrExport), in place of any
 * other, and withdraws a pending invitation to be the successor. The successor is told by email.
 */
export async function nameSuccessor(memorialId: string, userId: string, actor: Actor): Promise<SuccessionResult> {
  if (!canDeleteOrExport(await memorialRole(memorialId, actor))) return { ok: false, reason: "forbidden" };
  if (!isRecordId(userId)) return { ok: false, reason: "not-found" };
  return prisma().$transaction(async (tx) => {
    await lockSuccession(tx, memorialId);
    const row = await tx.memorialManager.findUnique({
      where: { memorialId_userId: { memorialId, userId } },
      select: {
        id: true,
        isSuccessor: true,
        user: { select: { email: true, firstName: true, deletedAt: true } },
        memorial: { select: { firstName: true, lastName: true, user: { select: { firstName: true, lastName: true } } } },
      },
    });
    if (!row || row.user.deletedAt) return { ok: false, reason: "not-found" } as const;
    if (row.isSuccessor) return { ok: true } as const;
    await tx.memorialManager.updateMany({ where: { memorialId, isSuccessor: true }, data: { isSuccessor: false } });
    await tx.memorialManager.update({ where: { id: row.id }, data: { isSuccessor: true } });
    await tx.memorialInvitation.updateMany({ where: { memorialId, asSuccessor: true, acceptedAt: null }, data: { asSuccessor: false } });
    const name = `${row.memorial.firstName} ${row.memorial.lastName}`;
    await queueMail(tx, {
      to: row.user.email,
      kind: "successor-named",
      data: { firstName: row.user.firstName, memorialId, name, owner: `${row.memorial.user.firstName} ${row.memorial.user.lastName}` },
    });
    await recordAudit(tx, actor, {
      action: "memorial.successor",
      targetType: "memorial",
      targetId: memorialId,
      summary: `Named ${row.user.email} the successor`,
    });
    return { ok: true } as const;
  });
}

/** The memorial has no successor any more (the owner alone); a pending invitation to be one becomes a plain one. */
export async function clearSuccessor(memorialId: string, actor: Actor): Promise<SuccessionResult> {
  if (!canDeleteOrExport(await memorialRole(memorialId, actor))) return { ok: false, reason: "forbidden" };
  return prisma().$transaction(async (tx) => {
    await lockSuccession(tx, memorialId);
    const cleared = await tx.memorialManager.updateMany({ where: { memorialId, isSuccessor: true }, data: { isSuccessor: false } });
    const withdrawn = await tx.memorialInvitation.updateMany({ where: { memorialId, asSuccessor: true, acceptedAt: null }, data: { asSuccessor: false } });
    if (cleared.count + withdrawn.count === 0) return { ok: true } as const;
    await recordAudit(tx, actor, { action: "memorial.successor", targetType: "memorial", targetId: memorialId, summary: "No successor now" });
    return { ok: true } as const;
  });
}

/** The months of absence after which the member's memorials pass to their successors (0: never). */
export async function setHandOverPeriod(userId: string, months: HandOverPeriod) {
  await prisma().user.updateMany({ where: { id: userId, deletedAt: null }, data: { handOverAfterMonths: months } });
}

export async function handOverPeriodOf(userId: string): Promise<number> {
  const row = await prisma().user.findUnique({ where: { id: userId }, select: { handOverAfterMonths: true } });
  return row?.handOverAfterMonths ?? 0;
}

// ───────────────────────────── what happens to each memorial ─────────────────────────────

type Person = { userId: string; name: string; firstName: string; email: string; role: string };

export type SuccessionPlan = {
  /** Memorials with a successor: they pass to them. */
  handedOn: { id: string; name: string; successor: Person }[];
  /** Memorials with co-managers but no successor: the owner chooses (a co-manager, or deletion). */
  choose: { id: string; name: string; coManagers: Person[]; invitedSuccessor: string | null }[];
  /** Memorials nobody else manages: deleted with the account. */
  deleted: { id: string; name: string; invitedSuccessor: string | null }[];
};

/** For each of the owner's live memorials, what happens when the owner goes (bounded at 500: no plan holds more). */
export async function successionPlanFor(ownerId: string, db: Db = prisma(), now = new Date()): Promise<SuccessionPlan> {
  const memorials = await db.memorial.findMany({
    where: { userId: ownerId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: 500,
    select: {
      id: true,
      firstName: true,
      lastName: true,
      managers: {
        where: { user: { deletedAt: null } },
        orderBy: { createdAt: "asc" },
        select: { userId: true, role: true, isSuccessor: true, user: { select: { firstName: true, lastName: true, email: true } } },
      },
      invitations: {
        where: { asSuccessor: true, acceptedAt: null, declinedAt: null, revokedAt: null, expiresAt: { gt: now } },
        select: { email: true },
        take: 1,
      },
    },
  });
  const plan: SuccessionPlan = { handedOn: [], choose: [], deleted: [] };
  for (const m of memorials) {
    const name = `${m.firstName} ${m.lastName}`;
    const people = m.managers.map((p) => ({
      userId: p.userId,
      name: `${p.user.firstName} ${p.user.lastName}`,
      firstName: p.user.firstName,
      email: p.user.email,
      role: p.role,
    }));
    const successor = m.managers.findIndex((p) => p.isSuccessor);
    const invitedSuccessor = m.invitations[0]?.email ?? null;
    if (successor >= 0) plan.handedOn.push({ id: m.id, name, successor: people[successor] });
    else if (people.length) plan.choose.push({ id: m.id, name, coManagers: people, invitedSuccessor });
    else plan.deleted.push({ id: m.id, name, invitedSuccessor });
  }
  return plan;
}

/** The owner's choices at deletion: memorial id → a co-manager's user id, or DELETE_WITH_ACCOUNT. */
export type DeletionChoices = Record<string, string>;

/** Field errors for the memorials the owner has not decided about (or chose someone no longer there). */
export function checkChoices(plan: SuccessionPlan, choices: DeletionChoices): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const m of plan.choose) {
    const choice = choices[m.id];
    if (!choice) errors[m.id] = SUCCESSION_MESSAGES.chooseFate;
    else if (choice !== DELETE_WITH_ACCOUNT && !m.coManagers.some((p) => p.userId === choice)) errors[m.id] = SUCCESSION_MESSAGES.chosenGone;
  }
  return errors;
}

/** Thrown inside the account deletion when what happens to a memorial is no longer what the owner saw. */
export class SuccessionChangedError extends Error {
  constructor() {
    super(SUCCESSION_MESSAGES.changed);
  }
}

type Owner = { id: string; email: string; firstName: string; lastName?: string };

/**
 * At account deletion, inside its transaction: memorials with a successor pass to them; the others pass
 * to the co-manager the owner chose. `choices` null (an administrator deletes the account) deletes those
 * without a successor with the account. Throws SuccessionChangedError when the owner's choices no longer
 * fit (someone left, or a memorial gained a co-manager since the screen was shown).
 */
export async function handOverAtDeletion(tx: Prisma.TransactionClient, owner: Owner, actor: Actor, choices: DeletionChoices | null, now: Date) {
  const plan = await successionPlanFor(owner.id, tx, now);
  const handovers = plan.handedOn.map((m) => ({ memorialId: m.id, name: m.name, to: m.successor }));
  if (choices) {
    if (Object.keys(checkChoices(plan, choices)).length) throw new SuccessionChangedError();
    for (const m of plan.choose) {
      const to = m.coManagers.find((p) => p.userId === choices[m.id]);
      if (to) handovers.push({ memorialId: m.id, name: m.name, to });
    }
  }
  await handOver(tx, owner, handovers, { reason: "account-deleted", keepOwner: false, actor });
  return handovers.length;
}

type Handover = { memorialId: string; name: string; to: Person };

const giveMemorial = sqlCommand({
  name: "succession.giveMemorial",
  sql: (memorialId: string, fromId: string, toId: string) => Prisma.sql`
      UPDATE "memorials" SET "userId" = ${toId},
             "updatedAt" = GREATEST(clock_timestamp(), "updatedAt" + INTERVAL '1 millisecond')
       WHERE "id" = ${memorialId} AND "userId" = ${fromId}`,
  examples: [["memorial", "owner", "successor"]],
});

/**
 * Gives each memorial to its new owner: their co-manager row goes (an owner is not their own co-manager),
 * the other co-managers stay, and the previous owner stays as a manager when they are only absent. The
 * page's "updatedAt" moves so that no cached copy names the old owner's controls. Audited, and both told.
 */
async function handOver(
  tx: Prisma.TransactionClient,
  from: Owner,
  handovers: Handover[],
  how: { reason: "account-deleted" | "absent"; keepOwner: boolean; actor: Actor },
) {
  for (const h of handovers) {
    const moved = await executeSql(tx, giveMemorial(h.memorialId, from.id, h.to.userId));
    if (!moved) continue;
    await tx.memorialManager.deleteMany({ where: { memorialId: h.memorialId, userId: h.to.userId } });
    if (how.keepOwner) {
      await tx.memorialManager.create({ data: { memorialId: h.memorialId, userId: from.id, role: "manager" } });
    }
    const why = how.reason === "absent" ? "after its owner's long absence" : "when its owner deleted their account";
    await recordAudit(tx, how.actor, {
      action: "memorial.hand-over",
      targetType: "memorial",
      targetId: h.memorialId,
      summary: `Passed from ${from.email} to ${h.to.email} ${why}`,
    });
    const previousOwner = `${from.firstName} ${from.lastName ?? ""}`.trim();
    await queueMail(tx, {
      to: h.to.email,
      kind: "memorial-handed-over",
      data: { audience: "successor", firstName: h.to.firstName, memorialId: h.memorialId, name: h.name, previousOwner, reason: how.reason },
    });
    if (how.keepOwner) {
      await queueMail(tx, {
        to: from.email,
        kind: "memorial-handed-over",
        data: { audience: "previous-owner", firstName: from.firstName, memorialId: h.memorialId, name: h.name, successor: h.to.name, reason: how.reason },
      });
    }
  }
}

// ───────────────────────────── the absence round ─────────────────────────────

/**
 * The round (housekeeping, at start and hourly, on every instance). For owners with at least one
 * memorial that has a successor and who chose a period: a first reminder FIRST_REMINDER_DAYS before the
 * period is over, a second REMINDER_GAP_DAYS before (and at least that long after the first), then the
 * hand-over at the end of the period (and at least REMINDER_GAP_DAYS after the second). Each step claims
 * the member's row with a lock the other instances skip and is marked in the transaction that does it,
 * so nothing is sent or handed on twice; after downtime the steps still come in order, a week apart.
 * Being seen again (accounts/users.server.ts noteActivity) starts it all over.
 */
export async function handOverForAbsentOwners(now = new Date()) {
  let reminded = 0;
  let handedOn = 0;
  for (const stage of [1, 2] as const) {
    for (;;) {
      const done = await remindAbsentOwners(stage, now);
      reminded += done;
      if (done < ROUND_BATCH) break;
    }
  }
  for (;;) {
    const done = await handOverForAbsent(now);
    handedOn += done;
    if (done < ROUND_BATCH) break;
  }
  return { reminded, handedOn };
}

/** Owners in `stage` - 1 whose next step is due, claimed (locked) and moved on to `next` in `tx`. */
const claimAbsentOwners = sqlQuery({
  name: "succession.claimAbsentOwners",
  columns: {
    id: "text",
    email: "text",
    firstName: "text",
    lastName: "text",
    lastActiveAt: "timestamp",
    months: "int4",
    dueAt: "timestamp",
  },
  sql: (stage: 0 | 1 | 2, next: 1 | 2 | 3, daysBefore: number, now: Date) => {
    const gapAgo = new Date(now.getTime() - REMINDER_GAP_DAYS * DAY_MS);
    // Due when the period ends within `daysBefore` days (calendar months, counted by the database).
    const dueBy = new Date(now.getTime() + daysBefore * DAY_MS);
    const spaced = stage === 0 ? Prisma.empty : Prisma.sql`AND x."inactivityReminderAt" <= ${gapAgo}`;
    // The coarse bound lets the partial index on "lastActiveAt" find the candidates: no period is under
    // 6 months, so nobody is due who was seen in the last 5 months.
    const coarse = new Date(now.getTime() - 150 * DAY_MS);
    return Prisma.sql`
    UPDATE "users" AS u SET "inactivityReminders" = ${next}, "inactivityReminderAt" = ${now}
     WHERE u."id" IN (
       SELECT x."id" FROM "users" AS x
        WHERE x."deletedAt" IS NULL AND x."handOverAfterMonths" > 0 AND x."lastActiveAt" <= ${coarse}
          AND x."inactivityReminders" = ${stage}
          ${spaced}
          AND x."lastActiveAt" + make_interval(months => x."handOverAfterMonths") <= ${dueBy}
          AND EXISTS (SELECT 1 FROM "memorials" AS m
                        JOIN "memorial_managers" AS mm ON mm."memorialId" = m."id" AND mm."isSuccessor"
                        JOIN "users" AS s ON s."id" = mm."userId" AND s."deletedAt" IS NULL
                       WHERE m."userId" = x."id")
        ORDER BY x."lastActiveAt", x."id" LIMIT ${ROUND_BATCH} FOR UPDATE SKIP LOCKED)
 RETURNING u."id", u."email", u."firstName", u."lastName", u."lastActiveAt", u."handOverAfterMonths" AS "months",
           u."lastActiveAt" + make_interval(months => u."handOverAfterMonths") AS "dueAt"`;
  },
  examples: [
    [0, 1, 30, new Date(0)],
    [1, 2, 7, new Date(0)],
  ],
});

async function remindAbsentOwners(stage: 1 | 2, now: Date): Promise<number> {
  return prisma().$transaction(async (tx) => {
    const owners = await queryRows(tx, claimAbsentOwners(stage === 1 ? 0 : 1, stage, stage === 1 ? FIRST_REMINDER_DAYS : REMINDER_GAP_DAYS, now));
    for (const owner of owners) {
      // What was promised: the end of the period, but never sooner than the steps still to come.
      const stepsLeft = stage === 1 ? 2 : 1;
      const handOverAt = new Date(Math.max(owner.dueAt.getTime(), now.getTime() + stepsLeft * REMINDER_GAP_DAYS * DAY_MS));
      await queueMail(tx, {
        to: owner.email,
        kind: "inactivity-reminder",
        data: { userId: owner.id, stage, lastSeen: owner.lastActiveAt.toISOString(), handOverAt: handOverAt.toISOString() },
      });
    }
    return owners.length;
  });
}

async function handOverForAbsent(now: Date): Promise<number> {
  return prisma().$transaction(async (tx) => {
    const owners = await queryRows(tx, claimAbsentOwners(2, 3, 0, now));
    for (const owner of owners) {
      const plan = await successionPlanFor(owner.id, tx, now);
      const actor: Actor = { id: owner.id, email: owner.email, isAdmin: false, ip: "housekeeping" };
      await handOver(
        tx,
        owner,
        plan.handedOn.map((m) => ({ memorialId: m.id, name: m.name, to: m.successor })),
        { reason: "absent", keepOwner: true, actor },
      );
    }
    return owners.length;
  });
}

/**
 * What a reminder says when it is sent: the memorials that would pass, and to whom; null when the owner
 * has been seen since it was queued (or deleted the account), so that it is not sent at all.
 */
export async function reminderFacts(userId: string, stage: number) {
  const user = await prisma().user.findFirst({
    where: { id: userId, deletedAt: null, inactivityReminders: { gte: stage } },
    select: { firstName: true },
  });
  if (!user) return null;
  const plan = await successionPlanFor(userId);
  if (!plan.handedOn.length) return null;
  return { firstName: user.firstName, memorials: plan.handedOn.slice(0, 50).map((m) => ({ name: m.name, successor: m.successor.name })) };
}
