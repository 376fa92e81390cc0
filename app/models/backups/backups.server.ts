import { rm, stat } from "node:fs/promises";
import path from "node:path";
import { queueMails } from "~/models/mail/outbox.server";
import { backupName, backupStore, type BackupKind } from "~/services/backup-store.server";
import { getDatabase, prisma } from "~/services/db.server";
import { driverRows, sqlQuery } from "~/services/sql-statements.server";
import { Prisma } from "~/generated/prisma/client";
import { getEnv } from "~/services/env.server";
import { applyRetention, isoWeekOf, parseRetention } from "~/utils/backup-retention";
import { readArchive, writeArchive } from "./archive.server";

// Backups made by hand (`npm run backup`) and by the schedule (BACKUP_SCHEDULE, daily by default). Each is a
// row of backup_runs. A scheduled backup stands for a slot — its hour, day or ISO week — and the row's unique
// slot is its claim: every instance checks each hour (and at start), the first to write the slot's row makes
// the backup, and a start after downtime finds the current slot owed and makes it then. A failed slot is
// tried again at the next checks (three times in all); one whose instance died while making it is taken over
// after six hours. Once written, an archive is read back whole and its checksums checked ("verified"), then
// the retention (BACKUP_KEEP) removes the scheduled archives it no longer keeps. Administrators are emailed
// when a scheduled backup fails, and when none has succeeded for 36 hours.

/** How many times a scheduled slot is tried before it waits for the next slot. */
export const SLOT_ATTEMPTS = 3;
/** A failed slot is tried again at a later check, not by another instance checking in the same moment. */
const RETRY_AFTER_MS = 30 * 60_000;
/** A slot still "running" after this long belongs to an instance that died: another takes it over. */
const ABANDONED_AFTER_MS = 6 * 3600_000;
/** With no successful backup for this long, administrators are told (at most once a day). */
export const STALE_AFTER_MS = 36 * 3600_000;
const ALERT_EVERY_MS = 24 * 3600_000;

export type BackupResult = { id: string; name: string; location: string; sizeBytes: number; verified: boolean; rows: number; files: number };

/** The slot a moment falls in for a schedule: "daily:2026-11-28", "hourly:2026-11-28T07", "weekly:2026-W48". */
export function slotOf(schedule: "hourly" | "daily" | "weekly", at: Date): string {
  const iso = at.toISOString();
  if (schedule === "hourly") return `hourly:${iso.slice(0, 13)}`;
  if (schedule === "daily") return `daily:${iso.slice(0, 10)}`;
  return `weekly:${isoWeekOf(at)}`;
}

/** Makes one archive, verifies it, puts it in place, and records it in `runId`'s row (made here for a backup by hand). */
export async function makeBackup({
  kind = "manual",
  runId,
  withVaultKey = false,
  log = () => {},
  now = new Date(),
}: { kind?: BackupKind; runId?: string; withVaultKey?: boolean; log?: (line: string) => void; now?: Date } = {}): Promise<BackupResult> {
  const id = runId ?? (await prisma().backupRun.create({ data: { kind, startedAt: now }, select: { id: true } })).id;
  const store = backupStore();
  const work = await store.workFolder();
  try {
    const name = backupName(now, kind);
    const file = path.join(work, name);
    const manifest = await writeArchive(file, { workDir: work, withVaultKey, log, now });
    log("Reading the archive back to check it…");
    await readArchive(file);
    const sizeBytes = (await stat(file)).size;
    const location = await store.save(file, name);
    await prisma().backupRun.update({
      where: { id },
      data: { status: "succeeded", finishedAt: new Date(), location, sizeBytes, verified: true, error: null },
    });
    if (kind === "scheduled") await pruneBackups(log);
    const rows = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
    return { id, name, location, sizeBytes, verified: true, rows, files: manifest.entries.length - 1 };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    await prisma()
      .backupRun.update({ where: { id }, data: { status: "failed", finishedAt: new Date(), error: message } })
      .catch(() => {});
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Removes the scheduled archives the retention no longer keeps; those made by hand are the operator's to remove. */
export async function pruneBackups(log: (line: string) => void = () => {}) {
  const store = backupStore();
  const scheduled = (await store.list()).filter((b) => b.kind === "scheduled");
  const { remove } = applyRetention(scheduled, parseRetention(getEnv().BACKUP_KEEP));
  for (const backup of remove) await store.remove(backup.name);
  if (remove.length) log(`Removed ${remove.length} older scheduled backup${remove.length === 1 ? "" : "s"} (BACKUP_KEEP=${getEnv().BACKUP_KEEP}).`);
  return remove.map((b) => b.name);
}

// Past Prisma, on the `sql` driver; times come back with their zone (UTC), read alike by both drivers.
const claimSlot = sqlQuery({
  name: "backups.claimSlot",
  columns: { id: "text" },
  sql: (slot: string, now: Date, attempts: number, abandonedBefore: Date, retryBefore: Date) =>
    Prisma.sql`INSERT INTO "backup_runs" ("slot", "kind", "status", "startedAt") VALUES (${slot}, 'scheduled', 'running', ${now})
     ON CONFLICT ("slot") DO UPDATE SET "status" = 'running', "attempts" = "backup_runs"."attempts" + 1, "startedAt" = ${now}, "error" = NULL
       WHERE ("backup_runs"."status" = 'failed' AND "backup_runs"."attempts" < ${attempts} AND "backup_runs"."startedAt" < ${retryBefore})
          OR ("backup_runs"."status" = 'running' AND "backup_runs"."startedAt" < ${abandonedBefore})
     RETURNING "id"`,
  examples: [["2026-01-01", new Date(0), 3, new Date(0), new Date(0)]],
});

const backupTimes = sqlQuery({
  name: "backups.times",
  columns: { lastSuccess: "timestamptz | null", firstTried: "timestamptz | null" },
  sql: () =>
    Prisma.sql`SELECT (max("finishedAt") FILTER (WHERE "status" = 'succeeded')) AT TIME ZONE 'UTC' AS "lastSuccess", min("startedAt") AT TIME ZONE 'UTC' AS "firstTried" FROM "backup_runs"`,
});

const recentAlert = sqlQuery({
  name: "backups.recentAlert",
  columns: { found: "int4" },
  sql: (reason: string, since: Date) =>
    Prisma.sql`SELECT 1 AS "found" FROM "mail_outbox" WHERE "kind" = 'backup-alert' AND "data"->>'reason' = ${reason} AND ("data"->>'at')::timestamptz > ${since} LIMIT 1`,
  examples: [["stale", new Date(0)]],
});

const lastSucceeded = sqlQuery({
  name: "backups.lastSucceeded",
  columns: { at: "timestamptz | null" },
  sql: () => Prisma.sql`SELECT max("finishedAt") AT TIME ZONE 'UTC' AS at FROM "backup_runs" WHERE "status" = 'succeeded'`,
});

export type BackupRound = "off" | "made" | "not due" | "failed";

/** The schedule's check: makes the current slot's backup if no instance has, then tells administrators if backups are stale. */
export async function runBackupRound(now = new Date(), log: (line: string) => void = () => {}): Promise<BackupRound> {
  const schedule = getEnv().BACKUP_SCHEDULE;
  if (schedule === "off") return "off";
  const slot = slotOf(schedule, now);
  const [claim] = await driverRows(
    getDatabase().sql,
    claimSlot(slot, now, SLOT_ATTEMPTS, new Date(now.getTime() - ABANDONED_AFTER_MS), new Date(now.getTime() - RETRY_AFTER_MS)),
  );
  let result: BackupRound = "not due";
  if (claim) {
    try {
      await makeBackup({ kind: "scheduled", runId: claim.id, now, log });
      result = "made";
    } catch (error) {
      console.error("The scheduled backup failed:", error);
      await alertAdministrators("failed", error instanceof Error ? error.message : String(error), now);
      result = "failed";
    }
  }
  await alertIfStale(now);
  return result;
}

/** Tells administrators when no backup has succeeded for STALE_AFTER_MS (counted from the first ever tried), once a day. */
async function alertIfStale(now: Date) {
  const [last] = await driverRows(getDatabase().sql, backupTimes());
  const since = last?.lastSuccess ?? last?.firstTried;
  if (!since || now.getTime() - new Date(since).getTime() < STALE_AFTER_MS) return;
  await alertAdministrators("stale", null, now);
}

/** Emails every administrator; at most one alert of each reason a day. */
async function alertAdministrators(reason: "failed" | "stale", error: string | null, now: Date) {
  const [recent] = await driverRows(getDatabase().sql, recentAlert(reason, new Date(now.getTime() - ALERT_EVERY_MS)));
  if (recent) return;
  const [last] = await driverRows(getDatabase().sql, lastSucceeded());
  const admins = await prisma().user.findMany({ where: { isAdmin: true }, select: { email: true } });
  await queueMails(
    prisma(),
    admins.map((admin) => ({
      to: admin.email,
      kind: "backup-alert" as const,
      data: { reason, at: now.toISOString(), error: error?.slice(0, 500) ?? null, lastSuccess: last?.at ? new Date(last.at).toISOString() : null },
    })),
  );
}

export type BackupStatus = {
  schedule: string;
  where: string;
  last: { startedAt: Date; finishedAt: Date | null; status: string; sizeBytes: number | null; verified: boolean; error: string | null; kind: string } | null;
  lastSuccess: { finishedAt: Date; sizeBytes: number | null; verified: boolean } | null;
  stale: boolean;
};

/** What the administrators' dashboard shows of backups: the latest tried, the latest good one, and whether it is too old. */
export async function backupStatus(now = new Date()): Promise<BackupStatus> {
  const env = getEnv();
  const select = { startedAt: true, finishedAt: true, status: true, sizeBytes: true, verified: true, error: true, kind: true } as const;
  const [last, success] = await Promise.all([
    prisma().backupRun.findFirst({ orderBy: { startedAt: "desc" }, select }),
    prisma().backupRun.findFirst({ where: { status: "succeeded" }, orderBy: { finishedAt: "desc" }, select }),
  ]);
  const since = success?.finishedAt ?? null;
  return {
    schedule: env.BACKUP_SCHEDULE,
    where: backupStore(env).where,
    last: last ? { ...last, sizeBytes: last.sizeBytes === null ? null : Number(last.sizeBytes) } : null,
    lastSuccess: success?.finishedAt
      ? { finishedAt: success.finishedAt, sizeBytes: success.sizeBytes === null ? null : Number(success.sizeBytes), verified: success.verified }
      : null,
    stale: env.BACKUP_SCHEDULE !== "off" && (!since || now.getTime() - since.getTime() > STALE_AFTER_MS),
  };
}
