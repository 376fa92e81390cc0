import "react-router";
import express from "express";
import { seedDemoData } from "../prisma/seed";
import { flushViews } from "~/models/memorials/views.server";
import { closeDatabase as closeDb, dataFolderLock, getDatabase } from "~/services/db.server";
import { retryPendingRefunds } from "~/models/commerce/order-refunds.server";
import { runAnniversaryReminders } from "~/models/community/anniversary-reminders.server";
import { keepHouse } from "~/models/housekeeping.server";
import { runExportRound, whenExportRequested } from "~/models/memorials/export.server";
import { chargeDueInstalments, noticeEndedPlans } from "~/models/commerce/plan-instalments.server";
import { retryPlanRefunds } from "~/models/commerce/plan-refunds.server";
import { getEnv, paymentSettings } from "~/services/env.server";
import { getSessionSecrets } from "~/services/secrets.server";
import { loadKeyRing } from "~/services/vault-crypto.server";
import { secureDataDir } from "~/services/data-dir.server";
import { migrate } from "~/services/migrate.server";
import { startControl } from "./control";
import { JOBS } from "./jobs";
import { startMailWorker, type MailWorker } from "./mail-worker";
import { refuseUnreadableHost } from "./host";
import { memberPageCache } from "./member-page-cache";
import { publicPageCache } from "./page-cache";
import { keepConnectionsUsable } from "./request-body";
import { createRequestHandler } from "./request-handler";
import { refuseCrossOrigin, securityHeaders, stampClientIp } from "./security";

// The request handler and start-up steps, built by Vite into build/server/index.js together with the
// routes, so that there is one copy of every module (and one database) per process. server.js runs it.

export { processPlan } from "~/services/env.server";

export const app = express();
app.disable("x-powered-by");

app.use(stampClientIp);
app.use(refuseCrossOrigin);
app.use(
  createRequestHandler({
    build: () => import("virtual:react-router/server-build"),
    getLoadContext: (_req, res) => ({ cspNonce: String(res.locals.cspNonce ?? "") }),
  }),
);

/**
 * The anonymous page cache (server/page-cache.ts): server.js puts it on node:http ahead of Express, so a
 * kept page is answered without the rest of the stack. Not in development (pages change as you edit).
 */
export function publicPages() {
  const env = getEnv();
  return publicPageCache(() => import("virtual:react-router/server-build"), {
    hsts: env.HSTS ? env.HSTS === "true" : env.NODE_ENV === "production",
    stripe: paymentSettings(env).provider === "stripe",
  });
}

/**
 * The members' page cache (server/member-page-cache.ts): after the anonymous one, ahead of Express, so a page a
 * member opens again with nothing changed is answered without rendering. Not in development either.
 */
export function memberPages() {
  const env = getEnv();
  return memberPageCache(() => import("virtual:react-router/server-build"), {
    hsts: env.HSTS ? env.HSTS === "true" : env.NODE_ENV === "production",
    stripe: paymentSettings(env).provider === "stripe",
  });
}

/** The server build itself, for the test that compares renders from the narrowed builds (test/document-build.test.ts). */
export const serverBuild = () => import("virtual:react-router/server-build");

/** Runs first for every request, static files included: connections kept usable, security headers. */
export function headers() {
  const env = getEnv();
  return [
    keepConnectionsUsable,
    refuseUnreadableHost,
    securityHeaders({ hsts: env.HSTS ? env.HSTS === "true" : env.NODE_ENV === "production", stripe: paymentSettings(env).provider === "stripe" }),
  ];
}

let mailWorker: MailWorker | undefined;
let refundTimer: ReturnType<typeof setInterval> | undefined;
let instalmentTimer: ReturnType<typeof setInterval> | undefined;
let housekeepingTimer: ReturnType<typeof setInterval> | undefined;
let reminderTimer: ReturnType<typeof setInterval> | undefined;
let exportTimer: ReturnType<typeof setInterval> | undefined;
let backupTimer: ReturnType<typeof setTimeout> | undefined;
let control: { close(): Promise<void> } | undefined;
let exportsStopped = false;

/** Monthly plan instalments due are charged (the built-in provider's) this often (app/models/commerce/plan-instalments.server.ts). */
const INSTALMENT_ROUND_MS = 60_000;

/** A refund the payment provider refused for a moment (it was down) is tried again (app/models/commerce/order-refunds.server.ts and plan-refunds.server.ts). */
const REFUND_RETRY_MS = 5 * 60_000;

/** Expired sessions and old rate-limit windows are deleted, and deletions past their 30 days purged, this often (app/models/housekeeping.server.ts). */
const HOUSEKEEPING_MS = 60 * 60_000;

/**
 * Whether the day's anniversary reminders are due is checked this often, and at start (app/models/community/anniversary-reminders.server.ts):
 * the first instance to claim the day sends them, and catches up the days no instance ran.
 */
const REMINDER_CHECK_MS = 60 * 60_000;

/**
 * Whether the schedule's backup is owed is checked this often (app/models/backups): the first instance to claim
 * the current slot makes it, and a start after downtime makes the one missed. The first check waits a minute
 * after start, so that starting (and a quick succession of restarts) is not slowed by a backup.
 */
const BACKUP_CHECK_MS = 60 * 60_000;
const FIRST_BACKUP_CHECK_MS = 60_000;

/** The advisory lock the demo data is loaded under (any constant the same for every instance, unlike the migrations'). */
const SEED_LOCK_KEY = 7_207_369_002;

/** Memorial copies asked for on another instance are looked for this often (app/models/memorials/export.server.ts). */
const EXPORT_ROUND_MS = 15_000;

/**
 * Builds memorial copies one at a time in this instance until none is waiting: at start, every
 * EXPORT_ROUND_MS, and at once when this instance takes a request. The claim keeps instances apart.
 */
function exportBuilder() {
  let running = false;
  let again = false;
  return async function round() {
    if (running) return void (again = true);
    running = true;
    try {
      do {
        again = false;
        while (!exportsStopped && (await runExportRound()) !== "idle");
      } while (again && !exportsStopped);
    } catch (error) {
      console.error("Building memorial copies failed:", error);
    } finally {
      running = false;
    }
  };
}

export type PrepareOptions = {
  /**
   * Runs the background jobs (mail, refunds, instalments, housekeeping, reminders) in this process: true but
   * in the extra processes of a cluster (server.js), where one process runs them. Memorial copies are built
   * in every process (each claims its own, and a request starts one in the process that took it).
   */
  jobs?: boolean;
  /** Loads the demo data into an empty database (SEED_DEMO_DATA): the first process only. */
  seed?: boolean;
  /** Makes the files every process must share (the session secret, the vault keys) before others start. */
  sharedFiles?: boolean;
};

/** Applies pending migrations, starts the mail worker, the refund retries, the instalments and the memorial copies, then loads the demo data into an empty database. */
export async function prepare(log: (line: string) => void = console.log, { jobs = true, seed = true, sharedFiles = false }: PrepareOptions = {}) {
  const env = getEnv();
  secureDataDir(env.dataDir);
  const db = getDatabase();
  // The embedded database is this process's alone: `npm run backup` and `npm run jobs` ask it to run their job.
  const lock = dataFolderLock();
  if (lock) control = await startControl(lock);
  log(db.sql.kind === "pglite" ? `Database: embedded PostgreSQL (PGlite) in ${env.dataDir}` : "Database: PostgreSQL from DATABASE_URL");
  const result = await migrate(db.sql);
  for (const warning of result.warnings) log(`Warning: ${warning}`);
  // One short line: the names of forty migrations made a line of hundreds of characters on a first start.
  const newest = result.applied.at(-1);
  log(
    newest ? `Migrations: ${result.applied.length} applied, the newest ${newest}` : `Migrations: up to date (${result.alreadyApplied.length} applied earlier)`,
  );
  if (sharedFiles) {
    // Made once here, before the other processes start: made on first use, two processes could each make their own.
    getSessionSecrets();
    loadKeyRing();
  }
  const buildExports = exportBuilder();
  whenExportRequested(() => void buildExports());
  exportTimer = setInterval(() => void buildExports(), EXPORT_ROUND_MS).unref();
  void buildExports();
  if (jobs) startJobs();
  if (seed && env.SEED_DEMO_DATA === "true") {
    // Under a lock across instances: two started at once on an empty PostgreSQL database would both find it
    // empty, and the second's demo accounts would collide with the first's.
    const seeded = await db.sql.withLock(SEED_LOCK_KEY, () => seedDemoData(db.prisma));
    if (seeded.loaded) {
      log("Demo data loaded. Sign in with:");
      for (const account of seeded.accounts) log(`  ${account.role.padEnd(13)} ${account.email}  /  ${account.password}`);
    }
  }
}

/** The jobs that run in one process of an instance (each also claims its work, for several instances on one database). */
function startJobs() {
  mailWorker = startMailWorker();
  const retryRefunds = () => {
    void retryPendingRefunds().catch((error) => console.error("Retrying refunds failed:", error));
    void retryPlanRefunds().catch((error) => console.error("Retrying plan refunds failed:", error));
  };
  refundTimer = setInterval(retryRefunds, REFUND_RETRY_MS).unref();
  retryRefunds();
  const chargeInstalments = () => {
    void chargeDueInstalments().catch((error) => console.error("Charging instalments failed:", error));
    void noticeEndedPlans().catch((error) => console.error("Telling members of ended plans failed:", error));
  };
  instalmentTimer = setInterval(chargeInstalments, INSTALMENT_ROUND_MS).unref();
  chargeInstalments();
  const tidy = () => void keepHouse().catch((error) => console.error("Housekeeping failed:", error));
  housekeepingTimer = setInterval(tidy, HOUSEKEEPING_MS).unref();
  tidy();
  const remind = () => void runAnniversaryReminders().catch((error) => console.error("Anniversary reminders failed:", error));
  reminderTimer = setInterval(remind, REMINDER_CHECK_MS).unref();
  remind();
  if (getEnv().BACKUP_SCHEDULE !== "off") {
    const backUp = (delay: number) => {
      backupTimer = setTimeout(() => {
        void JOBS["backup-round"]
          .run({ log: () => {} })
          .catch((error) => console.error("The backup round failed:", error))
          .finally(() => backUp(BACKUP_CHECK_MS));
      }, delay).unref();
    };
    backUp(FIRST_BACKUP_CHECK_MS);
  }
}

/** Stops the mail worker, writes the view counts still in memory, then closes the database (server.js, on shutdown). */
export async function closeDatabase() {
  clearInterval(refundTimer);
  clearInterval(instalmentTimer);
  clearInterval(housekeepingTimer);
  clearInterval(reminderTimer);
  clearInterval(exportTimer);
  clearTimeout(backupTimer);
  await control?.close();
  exportsStopped = true;
  whenExportRequested(null);
  await mailWorker?.stop();
  await flushViews();
  await closeDb();
}
