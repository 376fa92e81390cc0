import { Prisma } from "~/generated/prisma/client";
import { deleteObject } from "~/services/storage.server";
import { prisma } from "~/services/db.server";
import { executeSql, queryRows, sqlCommand, sqlQuery, type RowOf } from "~/services/sql-statements.server";
import { holdAdvisoryLock } from "~/services/transaction-locks.server";
import { PURGE_NOTICE_DAYS, purgeDateOf, RECOVERY_DAYS } from "~/utils/deletion";
import { atFreeMemorialLimit, isPaidPlan } from "~/utils/plans";
import { recordAudit, type Actor } from "../audit.server";
import { queueMail } from "../mail/outbox.server";
import { deleteStoredMedia } from "./media.server";
import { isRecordId } from "./access.server";
import { deleteAvatarObject } from "../../services/avatars.server";
import { handOverAtDeletion, type DeletionChoices } from "./succession.server";

// Deletion keeps a 30-day window (docs/decisions/019-recoverable-deletion.md).
// A deleted memorial stays in "memorial_records" with its "deletedAt"; the "memorials" view that every
// other query reads leaves it out, so it is hidden everywhere at once. This module is the only one that
// reads "memorial_records" itself: Recently deleted, restore, and the purge that removes the rows and
// the files for good once the window is over. A deleted account keeps its row with "deletedAt" too,
// signed out everywhere; its memorials are deleted with it ("deletedWithAccount") and come back with it.

const DAY_MS = 86_400_000;
/** At most this many memorials and accounts are purged (or noticed) per round; the next round takes the rest. */
const PURGE_BATCH = 25;

const ownerOnly = (actor: Pick<Actor, "id" | "isAdmin">) => (actor.isAdmin ? Prisma.empty : Prisma.sql`AND m."userId" = ${actor.id}`);
const SAMPLE_MEMBER = { id: "member", isAdmin: false };
const SAMPLE_ADMIN = { id: "admin", isAdmin: true };
const SAMPLE_TIME = new Date(0);

// ───────────────────────────── the statements ─────────────────────────────

// "updatedAt" moves too, so that the page cache's copy of the memorial's page is never served again.
const markMemorialDeleted = sqlQuery({
  name: "deletion.markMemorialDeleted",
  columns: { firstName: "text", lastName: "text", email: "text" },
  sql: (id: string, actor: Pick<Actor, "id" | "isAdmin">, now: Date) => Prisma.sql`
      UPDATE "memorial_records" AS m
         SET "deletedAt" = ${now}, "deletedById" = ${actor.id},
             "removedByModeration" = ${actor.isAdmin} AND m."userId" <> ${actor.id},
             "updatedAt" = GREATEST(clock_timestamp(), m."updatedAt" + INTERVAL '1 millisecond')
        FROM "users" AS u
       WHERE m."id" = ${id} AND m."deletedAt" IS NULL AND u."id" = m."userId" ${ownerOnly(actor)}
   RETURNING m."firstName", m."lastName", u."email"`,
  examples: [
    ["memorial", SAMPLE_MEMBER, SAMPLE_TIME],
    ["memorial", SAMPLE_ADMIN, SAMPLE_TIME],
  ],
});

const deletedColumns = {
  id: "text",
  title: "text",
  deletedAt: "timestamp",
  ownerEmail: "text",
  deletedWithAccount: "bool",
  removedByModeration: "bool",
} as const;

const recentlyDeletedOfMember = sqlQuery({
  name: "deletion.recentlyDeletedOfMember",
  columns: deletedColumns,
  sql: (userId: string, limit: number) => Prisma.sql`
    SELECT m."id", m."title", m."deletedAt", u."email" AS "ownerEmail", m."deletedWithAccount", m."removedByModeration"
      FROM "memorial_records" AS m JOIN "users" AS u ON u."id" = m."userId"
     WHERE m."userId" = ${userId} AND m."deletedAt" IS NOT NULL AND NOT m."deletedWithAccount"
     ORDER BY m."deletedAt" DESC, m."id" LIMIT ${limit}`,
  examples: [["member", 50]],
});

const deletedAcrossSite = sqlQuery({
  name: "deletion.deletedAcrossSite",
  columns: deletedColumns,
  sql: (limit: number) => Prisma.sql`
    SELECT m."id", m."title", m."deletedAt", u."email" AS "ownerEmail", m."deletedWithAccount", m."removedByModeration"
      FROM "memorial_records" AS m JOIN "users" AS u ON u."id" = m."userId"
     WHERE m."deletedAt" IS NOT NULL
     ORDER BY m."deletedAt" DESC, m."id" LIMIT ${limit}`,
  examples: [[50]],
});

const deletedMemorialToRestore = sqlQuery({
  name: "deletion.deletedMemorialToRestore",
  columns: { userId: "text", title: "text", deletedWithAccount: "bool", removedByModeration: "bool" },
  sql: (id: string, actor: Pick<Actor, "id" | "isAdmin">) => Prisma.sql`
      SELECT m."userId", m."title", m."deletedWithAccount", m."removedByModeration" FROM "memorial_records" AS m
       WHERE m."id" = ${id} AND m."deletedAt" IS NOT NULL ${ownerOnly(actor)}`,
  examples: [
    ["memorial", SAMPLE_MEMBER],
    ["memorial", SAMPLE_ADMIN],
  ],
});

const restoreDeletedMemorial = sqlCommand({
  name: "deletion.restoreDeletedMemorial",
  sql: (id: string) => Prisma.sql`
      UPDATE "memorial_records" SET "deletedAt" = NULL, "deletedById" = NULL, "purgeNoticeAt" = NULL, "removedByModeration" = false,
             "updatedAt" = GREATEST(clock_timestamp(), "updatedAt" + INTERVAL '1 millisecond')
       WHERE "id" = ${id} AND "deletedAt" IS NOT NULL`,
  examples: [["memorial"]],
});

const deleteMemorialsWithAccount = sqlCommand({
  name: "deletion.deleteMemorialsWithAccount",
  sql: (userId: string, actorId: string, now: Date) => Prisma.sql`
      UPDATE "memorial_records" SET "deletedAt" = ${now}, "deletedById" = ${actorId}, "deletedWithAccount" = true,
             "updatedAt" = GREATEST(clock_timestamp(), "updatedAt" + INTERVAL '1 millisecond')
       WHERE "userId" = ${userId} AND "deletedAt" IS NULL`,
  examples: [["member", "admin", SAMPLE_TIME]],
});

const restoreMemorialsWithAccount = sqlCommand({
  name: "deletion.restoreMemorialsWithAccount",
  sql: (userId: string) => Prisma.sql`
      UPDATE "memorial_records" SET "deletedAt" = NULL, "deletedById" = NULL, "deletedWithAccount" = false, "purgeNoticeAt" = NULL,
             "updatedAt" = GREATEST(clock_timestamp(), "updatedAt" + INTERVAL '1 millisecond')
       WHERE "userId" = ${userId} AND "deletedWithAccount"`,
  examples: [["member"]],
});

/** The bounds of the purge's window, for the statements that notice and purge. */
type PurgeWindow = { now: Date; noticeFrom: Date; cutoff: Date };
const SAMPLE_WINDOW: PurgeWindow = { now: SAMPLE_TIME, noticeFrom: SAMPLE_TIME, cutoff: SAMPLE_TIME };

const noticeMemorialsComingPurge = sqlQuery({
  name: "deletion.noticeMemorialsComingPurge",
  columns: { title: "text", deletedAt: "timestamp", email: "text", firstName: "text" },
  sql: ({ now, noticeFrom, cutoff }: PurgeWindow) => Prisma.sql`
      UPDATE "memorial_records" AS m SET "purgeNoticeAt" = ${now}
        FROM "users" AS u
       WHERE m."id" IN (SELECT "id" FROM "memorial_records"
                         WHERE "deletedAt" <= ${noticeFrom} AND "deletedAt" > ${cutoff} AND "purgeNoticeAt" IS NULL AND NOT "deletedWithAccount"
                         ORDER BY "deletedAt" LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED)
         AND u."id" = m."userId" AND u."deletedAt" IS NULL
   RETURNING m."title", m."deletedAt", u."email", u."firstName"`,
  examples: [[SAMPLE_WINDOW]],
});

const noticeAccountsComingPurge = sqlQuery({
  name: "deletion.noticeAccountsComingPurge",
  columns: { email: "text", firstName: "text", deletedAt: "timestamp" },
  sql: ({ now, noticeFrom, cutoff }: PurgeWindow) => Prisma.sql`
      UPDATE "users" SET "purgeNoticeAt" = ${now}
       WHERE "id" IN (SELECT "id" FROM "users"
                       WHERE "deletedAt" <= ${noticeFrom} AND "deletedAt" > ${cutoff} AND "purgeNoticeAt" IS NULL
                       ORDER BY "deletedAt" LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED)
   RETURNING "email", "firstName", "deletedAt"`,
  examples: [[SAMPLE_WINDOW]],
});

const claimMemorialsDue = sqlQuery({
  name: "deletion.claimMemorialsDue",
  columns: { id: "text", profileImageUrl: "text | null" },
  sql: (cutoff: Date) => Prisma.sql`
      SELECT "id", "profileImageUrl" FROM "memorial_records"
       WHERE "deletedAt" <= ${cutoff} AND NOT "deletedWithAccount"
       ORDER BY "deletedAt" LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED`,
  examples: [[SAMPLE_TIME]],
});

const purgeMemorials = sqlCommand({
  name: "deletion.purgeMemorials",
  sql: (ids: string[]) => Prisma.sql`DELETE FROM "memorial_records" WHERE "id" = ANY(${ids})`,
  examples: [[["memorial"]]],
});

const claimAccountsDue = sqlQuery({
  name: "deletion.claimAccountsDue",
  columns: { id: "text", profileImageUrl: "text | null" },
  sql: (cutoff: Date) => Prisma.sql`
      SELECT "id", "profileImageUrl" FROM "users" WHERE "deletedAt" <= ${cutoff}
       ORDER BY "deletedAt" LIMIT ${PURGE_BATCH} FOR UPDATE SKIP LOCKED`,
  examples: [[SAMPLE_TIME]],
});

const memorialFilesOfAccounts = sqlQuery({
  name: "deletion.memorialFilesOfAccounts",
  columns: { url: "text | null" },
  sql: (ids: string[]) => Prisma.sql`
      SELECT m."profileImageUrl" AS url FROM "memorial_records" AS m WHERE m."userId" = ANY(${ids})
      UNION SELECT mm."mediaUrl" FROM "memorial_media" AS mm JOIN "memorial_records" AS m ON m."id" = mm."memorialId" WHERE m."userId" = ANY(${ids})`,
  examples: [[["member"]]],
});

const purgeAccounts = sqlCommand({
  name: "deletion.purgeAccounts",
  sql: (ids: string[]) => Prisma.sql`DELETE FROM "users" WHERE "id" = ANY(${ids})`,
  examples: [[["member"]]],
});

// ───────────────────────────── memorials ─────────────────────────────

/**
 * Deletes a memorial the caller owns (or any, for an administrator: access-rules.ts), from whichever
 * screen: hidden at once everywhere, kept with its photos, videos and tributes for RECOVERY_DAYS. An
 * administrator's deletion is audited here. False when there is no such live memorial the caller may delete.
 */
export async function deleteMemorial(id: string, actor: Actor, now = new Date()): Promise<boolean> {
  if (!isRecordId(id)) return false;
  return prisma().$transaction(async (tx) => {
    const rows = await queryRows(tx, markMemorialDeleted(id, actor, now));
    if (!rows.length) return false;
    if (actor.isAdmin) {
      const summary = `${rows[0].firstName} ${rows[0].lastName}`.trim() + ` (owner ${rows[0].email}); restorable until ${day(purgeDateOf(now))}`;
      await recordAudit(tx, actor, { action: "memorial.delete", targetType: "memorial", targetId: id, summary });
    }
    return true;
  });
}

/** `moderated`: removed by an administrator, which only an administrator undoes. */
export type DeletedMemorial = { id: string; title: string; deletedAt: Date; purgeAt: Date; ownerEmail: string; withAccount: boolean; moderated: boolean };

const toDeleted = (r: RowOf<typeof deletedColumns>): DeletedMemorial => ({
  id: r.id,
  title: r.title,
  deletedAt: r.deletedAt,
  purgeAt: purgeDateOf(r.deletedAt),
  ownerEmail: r.ownerEmail,
  withAccount: r.deletedWithAccount,
  moderated: r.removedByModeration,
});

/** My Memorials' "Recently deleted": the member's own deleted memorials, newest first (bounded). */
export async function listRecentlyDeleted(userId: string, limit = 50): Promise<DeletedMemorial[]> {
  const rows = await queryRows(prisma(), recentlyDeletedOfMember(userId, limit));
  return rows.map(toDeleted);
}

/** The dashboard's list of deleted memorials across the site, newest first (bounded). */
export async function listDeletedMemorialsForAdmin(limit = 50): Promise<DeletedMemorial[]> {
  const rows = await queryRows(prisma(), deletedAcrossSite(limit));
  return rows.map(toDeleted);
}

export type RestoreResult = { ok: true; title: string } | { ok: false; reason: "not-found" | "limit" | "with-account" | "moderated" };

/**
 * Brings a deleted memorial back exactly as it was, for its owner or an administrator (audited), until
 * the purge has removed it. A memorial deleted with its owner's account comes back with the account
 * (restoreAccount), not alone. One removed by moderation comes back only by an administrator. A member on
 * the free plan restores within its limit, counted under the same lock as createMemorial; an administrator
 * undoing a deletion is not held to it.
 */
export async function restoreMemorial(id: string, actor: Actor): Promise<RestoreResult> {
  if (!isRecordId(id)) return { ok: false, reason: "not-found" };
  return prisma().$transaction(async (tx): Promise<RestoreResult> => {
    const [found] = await queryRows(tx, deletedMemorialToRestore(id, actor));
    if (!found) return { ok: false, reason: "not-found" };
    if (found.deletedWithAccount) return { ok: false, reason: "with-account" };
    if (found.removedByModeration && !actor.isAdmin) return { ok: false, reason: "moderated" };
    if (!actor.isAdmin) {
      const owner = await tx.user.findUniqueOrThrow({
        where: { id: found.userId },
        select: { id: true, subscriptionPlan: true, subscriptionExpiryDate: true },
      });
      if (!isPaidPlan(owner.subscriptionPlan, owner.subscriptionExpiryDate)) {
        await holdAdvisoryLock(tx, owner.id);
        if (atFreeMemorialLimit(owner, await tx.memorial.count({ where: { userId: owner.id } }))) return { ok: false, reason: "limit" };
      }
    }
    const restored = await executeSql(tx, restoreDeletedMemorial(id));
    if (!restored) return { ok: false, reason: "not-found" };
    if (actor.isAdmin) await recordAudit(tx, actor, { action: "memorial.restore", targetType: "memorial", targetId: id, summary: found.title });
    return { ok: true, title: found.title };
  });
}

// ───────────────────────────── accounts ─────────────────────────────

type Closable = { id: string; email: string; firstName: string; lastName?: string };

/**
 * Deletes an account, whoever asked (the member, or an administrator: admin.server.ts): signed out
 * everywhere, its pending friend requests withdrawn, all kept for RECOVERY_DAYS. Its memorials with a
 * successor pass to them, and those the member chose to hand on pass to that co-manager (`choices`;
 * null for an administrator: succession.server.ts); the rest are hidden with the account.
 * `alsoInTransaction` runs first (the administrator's checks and audit; it may throw to call it all off).
 * False when the account was already deleted; throws SuccessionChangedError when the choices are stale.
 */
export async function closeAccount(
  user: Closable,
  actor: Pick<Actor, "id"> & Partial<Actor>,
  alsoInTransaction?: (tx: Prisma.TransactionClient) => Promise<void>,
  now = new Date(),
  choices: DeletionChoices | null = null,
) {
  return prisma().$transaction(async (tx) => {
    await alsoInTransaction?.(tx);
    // An administrator closing someone else's account removes it by moderation: its owner cannot undo that.
    const removedByModeration = !!actor.isAdmin && actor.id !== user.id;
    const { count } = await tx.user.updateMany({ where: { id: user.id, deletedAt: null }, data: { deletedAt: now, purgeNoticeAt: null, removedByModeration } });
    if (!count) return false;
    const auditActor = { id: actor.id, email: actor.email ?? user.email, isAdmin: actor.isAdmin ?? false, ip: actor.ip ?? "" };
    await handOverAtDeletion(tx, user, auditActor, choices, now);
    await executeSql(tx, deleteMemorialsWithAccount(user.id, actor.id, now));
    await tx.session.deleteMany({ where: { userId: user.id } });
    await tx.friendRequest.deleteMany({ where: { OR: [{ senderId: user.id }, { receiverId: user.id }], status: "pending" } });
    // Always sent: it says how to undo it, and until when.
    await queueMail(tx, { to: user.email, kind: "account-deleted", data: { firstName: user.firstName, purgeAt: purgeDateOf(now).toISOString() } });
    return true;
  });
}

/**
 * Brings a deleted account back with the memorials that went with it (the ones its owner had deleted
 * before stay in Recently deleted). By the member at sign-in, or by an administrator (audited). The
 * member is told by email either way. False when there is no such deleted account (purged meanwhile).
 */
export async function restoreAccount(userId: string, actor: Actor | null): Promise<boolean> {
  return prisma().$transaction(async (tx) => {
    // An account removed by moderation comes back only by an administrator, never by signing in.
    const who = actor?.isAdmin ? {} : { removedByModeration: false };
    const user = await tx.user.findFirst({ where: { id: userId, deletedAt: { not: null }, ...who }, select: { email: true, firstName: true, lastName: true } });
    if (!user) return false;
    const { count } = await tx.user.updateMany({
      where: { id: userId, deletedAt: { not: null }, ...who },
      data: { deletedAt: null, purgeNoticeAt: null, removedByModeration: false },
    });
    if (!count) return false;
    await executeSql(tx, restoreMemorialsWithAccount(userId));
    if (actor?.isAdmin) await recordAudit(tx, actor, { action: "user.restore", targetType: "user", targetId: userId, summary: user.email });
    await queueMail(tx, { to: user.email, kind: "account-restored", data: { firstName: user.firstName, byAdmin: !!actor?.isAdmin } });
    return true;
  });
}

export type DeletedAccount = { id: string; email: string; name: string; deletedAt: Date; purgeAt: Date };

/** The dashboard's list of deleted accounts, newest first (bounded). */
export async function listDeletedAccountsForAdmin(limit = 50): Promise<DeletedAccount[]> {
  const rows = await prisma().user.findMany({
    where: { deletedAt: { not: null } },
    orderBy: [{ deletedAt: "desc" }, { id: "asc" }],
    take: limit,
    select: { id: true, email: true, firstName: true, lastName: true, deletedAt: true },
  });
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    name: `${r.firstName} ${r.lastName}`.trim(),
    deletedAt: r.deletedAt!,
    purgeAt: purgeDateOf(r.deletedAt!),
  }));
}

// ───────────────────────────── the purge ─────────────────────────────

/**
 * The round (server/app.ts, with the housekeeping: at start and every hour): tells owners what goes for
 * good in PURGE_NOTICE_DAYS, then removes what is past the window, rows and files. Every instance runs
 * it; each memorial and account is claimed with a row lock that the others skip, and a notice is marked
 * in the transaction that queues it, so nothing is told or purged twice. After downtime the next round
 * catches up (a batch per kind at a time), without telling anyone about what is already due.
 */
export async function purgeDeleted(now = new Date()) {
  const noticed = await noticeComingPurges(now);
  let memorials = 0;
  let accounts = 0;
  for (;;) {
    const done = await purgeDueMemorials(now);
    memorials += done;
    if (done < PURGE_BATCH) break;
  }
  for (;;) {
    const done = await purgeDueAccounts(now);
    accounts += done;
    if (done < PURGE_BATCH) break;
  }
  return { noticed, memorials, accounts };
}

async function noticeComingPurges(now: Date) {
  const cutoff = new Date(now.getTime() - RECOVERY_DAYS * DAY_MS);
  const noticeFrom = new Date(now.getTime() - (RECOVERY_DAYS - PURGE_NOTICE_DAYS) * DAY_MS);
  return prisma().$transaction(async (tx) => {
    const memorials = await queryRows(tx, noticeMemorialsComingPurge({ now, noticeFrom, cutoff }));
    for (const m of memorials) {
      await queueMail(tx, {
        to: m.email,
        kind: "purge-notice",
        data: { firstName: m.firstName, what: "memorial", title: m.title, purgeAt: purgeDateOf(m.deletedAt).toISOString() },
      });
    }
    const users = await queryRows(tx, noticeAccountsComingPurge({ now, noticeFrom, cutoff }));
    for (const u of users) {
      await queueMail(tx, {
        to: u.email,
        kind: "purge-notice",
        data: { firstName: u.firstName, what: "account", purgeAt: purgeDateOf(u.deletedAt).toISOString() },
      });
    }
    return memorials.length + users.length;
  });
}

/** Removes up to PURGE_BATCH memorials past the window, rows in one transaction, then their files. */
async function purgeDueMemorials(now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - RECOVERY_DAYS * DAY_MS);
  const files = await prisma().$transaction(async (tx) => {
    const due = await queryRows(tx, claimMemorialsDue(cutoff));
    if (!due.length) return null;
    const ids = due.map((m) => m.id);
    const media = await tx.memorialMedia.findMany({ where: { memorialId: { in: ids } }, select: { mediaUrl: true } });
    await executeSql(tx, purgeMemorials(ids));
    return { count: due.length, urls: [...due.map((m) => m.profileImageUrl), ...media.map((m) => m.mediaUrl)] };
  });
  if (!files) return 0;
  await deleteStoredMedia([...new Set(files.urls.filter((u): u is string => !!u))]);
  return files.count;
}

/** Removes up to PURGE_BATCH accounts past the window with everything they held, then their files. */
async function purgeDueAccounts(now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - RECOVERY_DAYS * DAY_MS);
  const files = await prisma().$transaction(async (tx) => {
    const due = await queryRows(tx, claimAccountsDue(cutoff));
    if (!due.length) return null;
    const ids = due.map((u) => u.id);
    const memorialFiles = await queryRows(tx, memorialFilesOfAccounts(ids));
    const vault = await tx.vaultFile.findMany({ where: { userId: { in: ids } }, select: { storageKey: true } });
    await executeSql(tx, purgeAccounts(ids));
    return {
      count: due.length,
      avatars: due.map((u) => u.profileImageUrl),
      media: memorialFiles.map((f) => f.url).filter((u): u is string => !!u),
      vault: vault.map((v) => v.storageKey).filter((k): k is string => !!k),
    };
  });
  if (!files) return 0;
  await Promise.all(files.avatars.map((url) => deleteAvatarObject(url)));
  await deleteStoredMedia(files.media);
  await Promise.all(files.vault.map((key) => deleteObject(key).catch((error) => console.error(`Could not delete ${key}:`, error))));
  return files.count;
}

function day(date: Date) {
  return date.toISOString().slice(0, 10);
}
