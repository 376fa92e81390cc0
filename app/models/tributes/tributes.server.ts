import { getDatabase, prisma } from "~/services/db.server";
import { driverRows, sqlQuery } from "~/services/sql-statements.server";
import { TRIBUTE_MESSAGES, type TributeInput } from "~/utils/validation/tribute";
import { Prisma, type PrismaClient } from "~/generated/prisma/client";
import { recordAudit, type Actor } from "../audit.server";
import { followDigestsInsert } from "../mail/follower-digests.server";

import { canModerateAs, roleOf } from "../memorials/access-rules";
import { isRecordId, LIVE } from "../memorials/access.server";
import { describeRetry, RATE_LIMITS, rateLimitHitSql, rateLimitState, type RateLimited, type RateLimitRule } from "../rate-limit.server";
import type { EmailKind } from "~/emails";
import { DEFAULT_NOTIFICATIONS } from "~/utils/validation/account";
import { notBeforeSql } from "../mail/outbox.server";

// Tributes: they start pending, become public only when approved, and are
// removed when rejected. Who may moderate: the memorial's owner; an administrator only where the
// memorial's creator is an administrator too.

export const TRIBUTES_PER_PAGE = 10;
export const PENDING_LIST_LIMIT = 50;

/** Only approved tributes are public and counted. */
export function countApprovedTributes(memorialId: string) {
  return prisma().tribute.count({ where: { memorialId, isApproved: true } });
}

const publicFields = { id: true, authorName: true, content: true, createdAt: true, isApproved: true } as const;

/** One page of approved tributes, newest first (uses the memorialId+isApproved+createdAt index). */
export async function listApprovedTributes(memorialId: string, page = 1) {
  const total = await countApprovedTributes(memorialId);
  const pages = Math.max(1, Math.ceil(total / TRIBUTES_PER_PAGE));
  // A page past the last shows the last (a tribute removed since the link was made shortens the list).
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const items = await prisma().tribute.findMany({
    where: { memorialId, isApproved: true },
    orderBy: { createdAt: "desc" },
    skip: (current - 1) * TRIBUTES_PER_PAGE,
    take: TRIBUTES_PER_PAGE,
    select: publicFields,
  });
  return { items, total, page: current, pages };
}

/** Pending tributes of one memorial, for its owner or an administrator (bounded). */
export function listPendingTributes(memorialId: string) {
  return prisma().tribute.findMany({
    where: { memorialId, isApproved: false },
    orderBy: { createdAt: "desc" },
    take: PENDING_LIST_LIMIT,
    select: { ...publicFields, authorEmail: true },
  });
}

export type LeaveTributeResult = { ok: true; tribute: Awaited<ReturnType<typeof createTribute>> } | RateLimited;

// Past Prisma, as approving is; times come back with their zone (UTC), as rateLimitHitSql's does.
const leaveCounted = sqlQuery({
  name: "tributes.leaveCounted",
  columns: {
    count: "int4",
    windowStart: "timestamptz",
    id: "text | null",
    authorName: "text | null",
    content: "text | null",
    createdAt: "timestamptz | null",
    isApproved: "bool | null",
    memorialId: "text | null",
    authorEmail: "text | null",
  },
  sql: (rule: RateLimitRule, ip: string, memorialId: string, input: TributeInput, now: Date) => Prisma.sql`
    WITH "hit" AS (${rateLimitHitSql(rule, ip, now)}),
    "created" AS (
      INSERT INTO "tributes" ("memorialId", "authorName", "authorEmail", "content", "isApproved", "createdAt")
      SELECT ${memorialId}, ${input.authorName}, ${input.authorEmail}, ${input.content}, false, CAST(${now} AS timestamp(3)) FROM "hit" WHERE "hit"."count" <= ${rule.limit}
      RETURNING "id", "authorName", "content", "createdAt", "isApproved", "memorialId", "authorEmail"
    ), "notice" AS (${tributeNotificationInsert(memorialId, now, Prisma.sql`EXISTS (SELECT 1 FROM "created")`)})
    SELECT "hit"."count", "hit"."windowStart", c."id", c."authorName", c."content", c."createdAt" AT TIME ZONE 'UTC' AS "createdAt",
           c."isApproved", c."memorialId", c."authorEmail"
      FROM "hit" LEFT JOIN "created" c ON true`,
  examples: [
    [{ name: "example", limit: 5, windowMs: 60_000 }, "203.0.113.1", "memorial", { authorName: "A", authorEmail: "a@example.com", content: "c" }, new Date(0)],
  ],
});

/**
 * Leave Tribute, from the memorial page's form and POST /api/memorials/{id}/tributes alike: the caller has
 * checked that this visitor may see the memorial (and, for an anonymous form, its spam checks). Counted
 * per address before anything is stored; the tribute waits for the family's approval.
 */
export async function leaveTribute(memorialId: string, input: TributeInput, ip: string): Promise<LeaveTributeResult> {
  const rule = RATE_LIMITS.tributePerIp;
  const now = new Date();
  // One statement: the hit counted against the address, the tribute stored if the count allows it, and the
  // family's email about it queued if it was stored (no email for a tribute not saved).
  type Tribute = Awaited<ReturnType<typeof createTribute>>;
  const [row] = await driverRows(getDatabase().sql, leaveCounted(rule, ip, memorialId, input, now));
  const { count, windowStart, ...tribute } = row;
  if (tribute.id === null) {
    const { retryAfterSeconds } = rateLimitState(rule, { count, windowStart }, now);
    return { ok: false, reason: "rate-limited", retryAfterSeconds, message: `${TRIBUTE_MESSAGES.rateLimited} ${describeRetry(retryAfterSeconds)}` };
  }
  return { ok: true, tribute: tribute as Tribute };
}

export function createTribute(memorialId: string, input: TributeInput, db: Prisma.TransactionClient | PrismaClient = prisma()) {
  return db.tribute.create({
    data: { memorialId, authorName: input.authorName, authorEmail: input.authorEmail, content: input.content, isApproved: false },
    select: { ...publicFields, memorialId: true, authorEmail: true },
  });
}

/**
 * Whether this person sees a memorial's pending tributes: its owner and administrators. An administrator
 * sees them on any memorial, but may act only where canModerate says so.
 */
export function canSeePendingTributes(viewer: { id: string; isAdmin: boolean } | null, memorial: ModeratedMemorial) {
  return !!viewer && (canModerateAs(coManagerRole(memorial, viewer)) || viewer.isAdmin);
}

/** A memorial as the moderation rule needs it: its owner, whether an administrator made it, its co-managers. */
type ModeratedMemorial = { userId: string; managers?: { userId: string; role: string }[] };

function coManagerRole(memorial: ModeratedMemorial, viewer: { id: string; isAdmin: boolean }) {
  return roleOf(memorial, viewer, memorial.managers?.find((m) => m.userId === viewer.id)?.role);
}

/** Whether this person may approve or reject tributes on a memorial with this owner. */
export function canModerate(actor: { id: string; isAdmin: boolean } | null, memorial: ModeratedMemorial & { user: { isAdmin: boolean } }) {
  if (!actor) return false;
  // The owner, a manager or an editor (memorials/access-rules.ts).
  if (canModerateAs(coManagerRole(memorial, actor))) return true;
  return actor.isAdmin && memorial.user.isAdmin;
}

export type ModerationResult = "ok" | "not-found" | "forbidden";

/** A tribute as moderating it needs: who wrote it, its memorial, and the memorial's rule (canModerate). */
const moderatedRow = sqlQuery({
  name: "tributes.moderatedRow",
  columns: { authorName: "text", memorialId: "text", title: "text", userId: "text", ownerIsAdmin: "bool", coRole: "varchar | null" },
  sql: (tributeId: string, actorId: string, onMemorial: string | null) =>
    Prisma.sql`SELECT t."authorName", m."id" AS "memorialId", m."title", m."userId", o."isAdmin" AS "ownerIsAdmin", c."role" AS "coRole"
       FROM "tributes" t
       JOIN "memorials" m ON m."id" = t."memorialId"
       JOIN "users" o ON o."id" = m."userId"
       LEFT JOIN "memorial_managers" c ON c."memorialId" = m."id" AND c."userId" = ${actorId}
      WHERE t."id" = ${tributeId} AND (${onMemorial}::text IS NULL OR t."memorialId" = ${onMemorial})`,
  examples: [
    ["tribute", "actor", null],
    ["tribute", "actor", "memorial"],
  ],
});

/**
 * The tribute, if this person may approve or reject it; `onMemorial`, only if it is on that memorial. One
 * statement past Prisma (approving is a common post, so it must be cheap); the rule is canModerate's, as everywhere.
 */
async function moderatable(tributeId: string, actor: Actor, onMemorial?: string) {
  // Not one of our ids (a NUL byte, a made-up value): no such tribute, without asking the database.
  if (!isRecordId(tributeId)) return { result: "not-found" as const };
  const [row] = await driverRows(getDatabase().sql, moderatedRow(tributeId, actor.id, onMemorial ?? null));
  if (!row) return { result: "not-found" as const };
  const managers = row.coRole ? [{ userId: actor.id, role: row.coRole }] : [];
  if (!canModerate(actor, { userId: row.userId, managers, user: { isAdmin: row.ownerIsAdmin } })) {
    // A member who is not the owner must not learn the tribute exists; an administrator is told why.
    return { result: actor.isAdmin ? ("forbidden" as const) : ("not-found" as const) };
  }
  return { result: "ok" as const, tribute: { authorName: row.authorName, memorial: { id: row.memorialId, title: row.title, userId: row.userId } } };
}

export type ModerationIntent = "approve" | "reject";

const approveOnce = sqlQuery({
  name: "tributes.approveOnce",
  columns: { approved: "int4", exists: "bool" },
  sql: (tributeId: string, now: Date) => Prisma.sql`
    WITH "approved" AS (
      UPDATE "tributes" SET "isApproved" = true, "approvedAt" = ${now} WHERE "id" = ${tributeId} AND NOT "isApproved" RETURNING "memorialId"
    ), "digests" AS (${followDigestsInsert(Prisma.sql`SELECT "memorialId" FROM "approved"`)})
    SELECT (SELECT count(*)::int FROM "approved") AS "approved", EXISTS (SELECT 1 FROM "tributes" WHERE "id" = ${tributeId}) AS "exists"`,
  examples: [["tribute", new Date(0)]],
});

/**
 * Approves a tribute, in one statement: approved now the first time only, and then its memorial's followers
 * hear of it in their next digest. Approved already counts as done; gone, as none.
 */
async function approve(tributeId: string) {
  const [{ approved, exists }] = await driverRows(getDatabase().sql, approveOnce(tributeId, new Date()));
  return { count: approved || (exists ? 1 : 0) };
}

/**
 * Approves or rejects (deletes) a tribute as this person, from any screen or the /api, under the one
 * moderation rule (canModerate); from a memorial's page (`onMemorial`), only that memorial's. What an
 * administrator does is recorded in the audit log, wherever it was done from; an owner's own moderation is not.
 */
export async function moderateTribute(intent: ModerationIntent, tributeId: string, actor: Actor, onMemorial?: string): Promise<ModerationResult> {
  const found = await moderatable(tributeId, actor, onMemorial);
  if (found.result !== "ok") return found.result;
  // updateMany/deleteMany: a tribute removed by someone else at the same moment is "not found", not an
  // error. The memorial's version moves with its approved tributes in the database (a trigger).
  const where = { id: tributeId };
  const { count } = intent === "approve" ? await approve(tributeId) : await prisma().tribute.deleteMany({ where });
  if (!count) return "not-found";
  if (actor.isAdmin) {
    await recordAudit(prisma(), actor, {
      action: intent === "approve" ? "tribute.approve" : "tribute.delete",
      targetType: "tribute",
      targetId: tributeId,
      summary: `by ${found.tribute.authorName} on ${found.tribute.memorial.title}`,
    });
  } else if (actor.id !== found.tribute.memorial.userId) {
    // A co-manager's moderation goes into the memorial's history.
    await recordAudit(prisma(), actor, {
      action: "memorial.co-moderate",
      targetType: "memorial",
      targetId: found.tribute.memorial.id,
      summary: `${intent === "approve" ? "Approved" : "Rejected"} the tribute by ${found.tribute.authorName}`,
    });
  }
  return "ok";
}

/** GET /api/tributes/pending: pending tributes on the caller's own memorials only. */
export function listPendingForOwner(userId: string) {
  return prisma().tribute.findMany({
    where: { isApproved: false, memorial: { userId } },
    orderBy: { createdAt: "desc" },
    take: PENDING_LIST_LIMIT,
    include: { memorial: { select: { id: true, title: true, firstName: true, lastName: true } } },
  });
}

/** The dashboard's Pending Tributes counter: counted in the database, on the member's own memorials. */
export function countPendingForOwner(userId: string) {
  return prisma().tribute.count({ where: { isApproved: false, memorial: { userId } } });
}

/** GET /api/tributes?approved=false (administrators): with the memorialCreatorIsAdmin flag. */
export async function listTributesForAdmin(approved: boolean, limit = PENDING_LIST_LIMIT) {
  const rows = await prisma().tribute.findMany({
    where: { isApproved: approved, memorial: LIVE },
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(limit, 1), 100),
    include: { memorial: { select: { id: true, title: true, user: { select: { isAdmin: true } } } } },
  });
  return rows.map(({ memorial, ...t }) => ({ ...t, memorial: { id: memorial.id, title: memorial.title }, memorialCreatorIsAdmin: memorial.user.isAdmin }));
}

/** What the member is told after approving or rejecting: a toast for each outcome. */
export function moderationToast(intent: ModerationIntent, result: ModerationResult) {
  if (result === "ok") {
    return intent === "approve"
      ? { type: "success" as const, title: "Tribute approved", description: "The tribute has been approved and is now visible." }
      : { type: "success" as const, title: "Tribute deleted", description: "The tribute has been deleted." };
  }
  const description =
    result === "forbidden" ? TRIBUTE_MESSAGES.adminRestricted : intent === "approve" ? TRIBUTE_MESSAGES.approveFailed : TRIBUTE_MESSAGES.deleteFailed;
  return { type: "error" as const, title: "Error", description };
}

/** The hourly limit of waiting-tribute emails per memorial. */
export const TRIBUTE_NOTICE_INTERVAL_MS = 60 * 60_000;

/**
 * A tribute is waiting on a memorial: its owner hears of it, at most once an hour per memorial (a second
 * tribute within the hour joins the email already waiting, which lists every author when it goes).
 * The statement that queues it, for the tribute's own statement to run with it (leaveTribute: one round
 * trip): the owner's address and wish, the hour since the group's last email, and the message folded into
 * one already waiting (as queueMail's skipDuplicates does).
 */
export function tributeNotificationInsert(memorialId: string, now = new Date(), onlyIf: Prisma.Sql = Prisma.sql`true`) {
  const groupKey = Prisma.sql`${`tributes-waiting:${memorialId}`}`;
  return Prisma.sql`
    INSERT INTO "mail_outbox" ("to", "kind", "data", "groupKey", "nextAttemptAt")
    SELECT u."email", ${"tributes-waiting" satisfies EmailKind}, jsonb_build_object('memorialId', m."id"), ${groupKey},
           ${notBeforeSql(groupKey, now, TRIBUTE_NOTICE_INTERVAL_MS)}
      FROM "memorials" m JOIN "users" u ON u."id" = m."userId"
     WHERE m."id" = ${memorialId} AND COALESCE((u."notificationPreferences"->>'tributes')::boolean, ${DEFAULT_NOTIFICATIONS.tributes}) AND ${onlyIf}
    ON CONFLICT DO NOTHING`;
}
