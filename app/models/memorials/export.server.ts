import { randomUUID } from "node:crypto";
import { openAsBlob } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { Prisma } from "~/generated/prisma/client";
import { getDatabase, prisma } from "~/services/db.server";
import { driverRows, sqlQuery } from "~/services/sql-statements.server";
import { getEnv, publicUrl } from "~/services/env.server";
import { deleteObject, openObjectStream, putObject } from "~/services/storage.server";
import { EXPORT_LIFETIME_DAYS, EXPORT_MAX_BYTES, EXPORT_MESSAGES, exportBaseName } from "~/utils/memorial-export";
import { describeBytes } from "~/utils/upload-limits";
import { queueMail } from "../mail/outbox.server";
import { describeRetry, hitRateLimit, RATE_LIMITS, type RateLimited } from "../rate-limit.server";
import { isRecordId } from "./access.server";
import { listEventsWithReplyTotals } from "./events.server";
import { listTimeline } from "./timeline.server";
import { TooLargeExportError, writeArchive } from "./export-archive.server";

// "Take a memorial away". The owner asks (requestMemorialExport); a background round in
// every instance (server/app.ts) claims one queued export at a time with a conditional UPDATE … SKIP LOCKED,
// so two instances never build the same one; the builder streams the ZIP (app/services/zip-stream.server.ts)
// to a temp file under DATA_DIR, photo by photo, writing its progress (and renewing its lease) as it goes;
// then stores it (local disk or S3), marks it ready and emails the link, in one transaction. A builder that
// died leaves its lease to run out, and the next round takes the export again (EXPORT_MAX_ATTEMPTS times).
//
// Only the memorial's owner may ask for a copy or download it; administrators may not (a family's photos
// and tributes are theirs to take away, not ours: docs/memorial-export.md).

/** A builder that has not written for this long is taken to have died. */
export const EXPORT_LEASE_MS = 2 * 60_000;
/** A crashed build is tried this many times in all, then the export fails. */
export const EXPORT_MAX_ATTEMPTS = 3;
const LIFETIME_MS = EXPORT_LIFETIME_DAYS * 24 * 60 * 60_000;

export type ExportStatus = "queued" | "building" | "ready" | "failed";

export type ExportView = {
  id: string;
  memorialId: string;
  status: ExportStatus;
  progress: number;
  fileName: string | null;
  bytes: number | null;
  error: string | null;
  missingFiles: number;
  createdAt: Date;
  readyAt: Date | null;
  expiresAt: Date | null;
};

type ExportRow = Prisma.MemorialExportGetPayload<object>;

function toView(row: ExportRow): ExportView {
  return {
    id: row.id,
    memorialId: row.memorialId,
    status: row.status as ExportStatus,
    progress: row.progress,
    fileName: row.fileName,
    bytes: row.bytes === null ? null : Number(row.bytes),
    error: row.error,
    missingFiles: row.missingFiles,
    createdAt: row.createdAt,
    readyAt: row.readyAt,
    expiresAt: row.expiresAt,
  };
}

/** The owner's memorial (just its name), or null: not there, or not theirs. */
export async function findOwnMemorialForExport(memorialId: string, ownerId: string) {
  if (!isRecordId(memorialId)) return null;
  return prisma().memorial.findFirst({ where: { id: memorialId, userId: ownerId }, select: { id: true, firstName: true, lastName: true } });
}

/**
 * Asks for a copy of a memorial the caller owns: a new export, or the one already queued or being built
 * (one at a time per memorial: a partial unique index). A new one counts against the member's daily
 * limit; once ready it replaces the memorial's earlier copy. Null when the memorial is not theirs.
 */
export async function requestMemorialExport(
  memorialId: string,
  owner: { id: string },
  now = new Date(),
): Promise<{ export: ExportView; joined: boolean } | RateLimited | null> {
  if (!(await findOwnMemorialForExport(memorialId, owner.id))) return null;
  const active = () => prisma().memorialExport.findFirst({ where: { memorialId, status: { in: ["queued", "building"] } } });
  const running = await active();
  if (running) return { export: toView(running), joined: true };
  const hit = await hitRateLimit(RATE_LIMITS.exportPerUser, owner.id, now);
  if (!hit.allowed) {
    const message = `${EXPORT_MESSAGES.rateLimited} ${describeRetry(hit.retryAfterSeconds)}`;
    return { ok: false, reason: "rate-limited", retryAfterSeconds: hit.retryAfterSeconds, message };
  }
  try {
    const row = await prisma().memorialExport.create({ data: { memorialId, userId: owner.id } });
    nudge?.();
    return { export: toView(row), joined: false };
  } catch (error) {
    // Two quick clicks: the other request made it first.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      const row = await active();
      if (row) return { export: toView(row), joined: true };
    }
    throw error;
  }
}

let nudge: (() => void) | null = null;

/** The server's builder (server/app.ts) is told at once of a new request, rather than at its next round. */
export function whenExportRequested(listener: (() => void) | null) {
  nudge = listener;
}

/** The newest export of a memorial the caller owns that can still be shown; null when the memorial is not theirs. */
export async function latestMemorialExport(memorialId: string, ownerId: string, now = new Date()) {
  const memorial = await findOwnMemorialForExport(memorialId, ownerId);
  if (!memorial) return null;
  const row = await prisma().memorialExport.findFirst({
    where: { memorialId, userId: ownerId, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    orderBy: { createdAt: "desc" },
  });
  return { memorial, export: row ? toView(row) : null };
}

/** A ready export's stored ZIP as a stream, for its owner only; null for anyone else or when there is none. */
export async function openMemorialExportDownload(memorialId: string, ownerId: string, now = new Date()) {
  const latest = await latestMemorialExport(memorialId, ownerId, now);
  const view = latest?.export;
  if (!view || view.status !== "ready") return null;
  const row = await prisma().memorialExport.findUnique({ where: { id: view.id }, select: { storageKey: true } });
  if (!row?.storageKey) return null;
  const stream = await openObjectStream(row.storageKey);
  return stream ? { stream, fileName: view.fileName ?? "memorial.zip", bytes: view.bytes } : null;
}

/** Every export of a member's (the account export links each memorial's export page). */
export function listExportsOfUser(userId: string) {
  return prisma().memorialExport.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { id: true, memorialId: true, status: true, createdAt: true, readyAt: true, expiresAt: true, fileName: true },
  });
}

// ------------------------------------------------------------------------------------------------
// The background round.

export type ClaimedExport = { id: string; memorialId: string; userId: string; attempts: number; claimToken: string };

const claimExport = sqlQuery({
  name: "exports.claim",
  // claimToken is the one just written, never NULL.
  columns: { id: "text", memorialId: "text", userId: "text", attempts: "int4", claimToken: "text" },
  sql: (now: Date, token: string, lockedUntil: Date) =>
    Prisma.sql`UPDATE "memorial_exports" SET "status" = 'building', "claimToken" = ${token}, "lockedUntil" = ${lockedUntil}, "attempts" = "attempts" + 1, "updatedAt" = ${now}
     WHERE "id" = (
       SELECT "id" FROM "memorial_exports"
       WHERE "status" = 'queued' OR ("status" = 'building' AND "lockedUntil" <= ${now})
       ORDER BY "createdAt" LIMIT 1
       FOR UPDATE SKIP LOCKED)
     RETURNING "id", "memorialId", "userId", "attempts", "claimToken"`,
  examples: [[new Date(0), "token", new Date(0)]],
});

const expiredExports = sqlQuery({
  name: "exports.expired",
  columns: { id: "text", storageKey: "text | null" },
  sql: (now: Date, failedBefore: Date) =>
    Prisma.sql`SELECT e."id", e."storageKey" FROM "memorial_exports" e
     WHERE e."expiresAt" <= ${now}
        OR (e."status" = 'failed' AND e."updatedAt" <= ${failedBefore})
        OR (e."status" IN ('ready', 'failed', 'queued') AND NOT EXISTS (SELECT 1 FROM "memorials" m WHERE m."id" = e."memorialId"))
     LIMIT 500`,
  examples: [[new Date(0), new Date(0)]],
});

/**
 * Takes the oldest queued export, or one whose builder's lease ran out, for this builder alone: the row is
 * locked by the UPDATE's subquery (SKIP LOCKED), so two instances asking at once get different rows or none.
 */
export async function claimNextExport(now = new Date()): Promise<ClaimedExport | null> {
  const token = randomUUID();
  // A build that has died EXPORT_MAX_ATTEMPTS times is not tried again.
  await prisma().memorialExport.updateMany({
    where: { status: "building", lockedUntil: { lte: now }, attempts: { gte: EXPORT_MAX_ATTEMPTS } },
    data: { status: "failed", error: EXPORT_MESSAGES.buildFailed, claimToken: null, lockedUntil: null },
  });
  const rows = await driverRows(getDatabase().sql, claimExport(now, token, new Date(now.getTime() + EXPORT_LEASE_MS)));
  return rows[0] ?? null;
}

/** The builder no longer holds its export (its lease ran out and another took it, or it was deleted). */
export class LostExportError extends Error {
  constructor() {
    super("The export is no longer this builder's");
  }
}

/** Writes progress and renews the lease, only while this builder still holds the export. */
async function heartbeat(job: ClaimedExport, progress: number, now = new Date()) {
  const { count } = await prisma().memorialExport.updateMany({
    where: { id: job.id, claimToken: job.claimToken, status: "building" },
    data: { progress: Math.min(99, Math.max(0, Math.floor(progress))), lockedUntil: new Date(now.getTime() + EXPORT_LEASE_MS) },
  });
  if (count === 0) throw new LostExportError();
}

async function failExport(job: ClaimedExport, message: string) {
  await prisma().memorialExport.updateMany({
    where: { id: job.id, claimToken: job.claimToken },
    data: { status: "failed", error: message, claimToken: null, lockedUntil: null },
  });
}

/** One round: claims one export and builds it. Says what happened (for tests and logs). */
export async function runExportRound(options: { now?: () => Date } = {}): Promise<"idle" | "ready" | "failed" | "lost"> {
  const job = await claimNextExport(options.now?.());
  if (!job) return "idle";
  return buildExport(job);
}

/** Builds a claimed export; every failure ends in a "failed" export with a message, never a stuck one. */
export async function buildExport(job: ClaimedExport): Promise<"ready" | "failed" | "lost"> {
  const temp = path.join(getEnv().dataDir, "exports-building", `${job.id}-${job.claimToken}.zip`);
  try {
    const memorial = await prisma().memorial.findFirst({
      where: { id: job.memorialId, userId: job.userId },
      include: { media: { orderBy: [{ order: "asc" }, { createdAt: "asc" }] }, _count: { select: { tributes: { where: { isApproved: true } } } } },
    });
    const [timeline, events] = memorial ? await Promise.all([listTimeline(memorial.id), listEventsWithReplyTotals(memorial.id)]) : [[], []];
    if (!memorial) {
      await failExport(job, EXPORT_MESSAGES.memorialGone);
      return "failed";
    }
    const exportedAt = new Date();
    const base = exportBaseName(memorial.firstName, memorial.lastName, exportedAt);
    const built = await writeArchive(
      temp,
      base,
      {
        memorial,
        url: `${publicUrl()}/memorials/${memorial.id}`,
        exportedAt,
        portraitUrl: memorial.profileImageUrl,
        media: memorial.media,
        timeline,
        events,
        tributeCount: memorial._count.tributes,
      },
      (percent) => heartbeat(job, percent),
    );
    // Deleted while it was being copied: nothing is kept of it.
    if (!(await prisma().memorial.count({ where: { id: job.memorialId } }))) {
      await failExport(job, EXPORT_MESSAGES.memorialGone);
      return "failed";
    }
    return await storeAndAnnounce(job, temp, `${base}.zip`, built);
  } catch (error) {
    if (error instanceof LostExportError) return "lost";
    if (error instanceof TooLargeExportError) {
      await failExport(job, EXPORT_MESSAGES.tooLarge(describeBytes(EXPORT_MAX_BYTES)));
      return "failed";
    }
    console.error(`Memorial export ${job.id} failed:`, error);
    await failExport(job, EXPORT_MESSAGES.buildFailed).catch(() => undefined);
    return "failed";
  } finally {
    await rm(temp, { force: true });
  }
}

/** Stores the finished ZIP, then marks the export ready and queues its email together; a builder that lost it keeps nothing. */
async function storeAndAnnounce(job: ClaimedExport, temp: string, fileName: string, built: { bytes: number; missing: number }) {
  const key = `exports/${job.id}/${job.claimToken}.zip`;
  await putObject(key, await openAsBlob(temp), "application/zip");
  const now = new Date();
  const owner = await prisma().user.findUnique({ where: { id: job.userId }, select: { email: true } });
  const marked = await prisma().$transaction(async (tx) => {
    const { count } = await tx.memorialExport.updateMany({
      where: { id: job.id, claimToken: job.claimToken, status: "building" },
      data: {
        status: "ready",
        progress: 100,
        storageKey: key,
        fileName,
        bytes: BigInt(built.bytes),
        error: null,
        missingFiles: built.missing,
        readyAt: now,
        expiresAt: new Date(now.getTime() + LIFETIME_MS),
        claimToken: null,
        lockedUntil: null,
      },
    });
    if (!count) return null;
    if (owner) await queueMail(tx, { to: owner.email, kind: "memorial-export-ready", data: { exportId: job.id } });
    // One copy of a memorial is kept at a time: the new one replaces those made before it.
    const older = await tx.memorialExport.findMany({
      where: { memorialId: job.memorialId, id: { not: job.id }, status: { in: ["ready", "failed"] } },
      select: { id: true, storageKey: true },
    });
    await tx.memorialExport.deleteMany({ where: { id: { in: older.map((o) => o.id) } } });
    return older;
  });
  if (!marked) {
    await deleteObject(key).catch(() => undefined);
    return "lost" as const;
  }
  for (const { storageKey } of marked) if (storageKey) await deleteObject(storageKey).catch((error) => console.error(`Could not delete ${storageKey}:`, error));
  return "ready" as const;
}

// ------------------------------------------------------------------------------------------------
// Housekeeping.

/**
 * Deletes exports past their expiry, failed ones a lifetime old, and those of memorials that are gone,
 * with their stored ZIPs (app/models/housekeeping.server.ts). Says how many went.
 */
export async function deleteExpiredExports(now = new Date()) {
  const rows = await driverRows(getDatabase().sql, expiredExports(now, new Date(now.getTime() - LIFETIME_MS)));
  for (const row of rows) {
    if (row.storageKey) await deleteObject(row.storageKey).catch((error) => console.error(`Could not delete ${row.storageKey}:`, error));
    await prisma().memorialExport.deleteMany({ where: { id: row.id, status: { not: "building" } } });
  }
  return rows.length;
}

/** What the "copy is ready" email says (the mail worker composes it when it is sent: compose-memorials.server.ts). */
export async function exportReadyFacts(exportId: string, now = new Date()) {
  const row = await prisma().memorialExport.findUnique({ where: { id: exportId } });
  if (!row || row.status !== "ready" || !row.expiresAt || row.expiresAt <= now) return null;
  const [memorial, user] = await Promise.all([
    prisma().memorial.findFirst({ where: { id: row.memorialId, userId: row.userId }, select: { id: true, firstName: true, lastName: true } }),
    prisma().user.findUnique({ where: { id: row.userId }, select: { firstName: true, email: true } }),
  ]);
  if (!memorial || !user) return null;
  return { memorial, user, expiresAt: row.expiresAt };
}
