import { makeBackup, runBackupRound } from "~/models/backups/backups.server";
import { retryPendingRefunds } from "~/models/commerce/order-refunds.server";
import { chargeDueInstalments, noticeEndedPlans } from "~/models/commerce/plan-instalments.server";
import { retryPlanRefunds } from "~/models/commerce/plan-refunds.server";
import { runAnniversaryReminders } from "~/models/community/anniversary-reminders.server";
import { keepHouse } from "~/models/housekeeping.server";
import { purgeDeleted } from "~/models/memorials/deletion.server";
import { runExportRound } from "~/models/memorials/export.server";
import { handOverForAbsentOwners } from "~/models/memorials/succession.server";
import { createMailTransport } from "~/services/mail.server";
import { deliverDueMail } from "./mail-worker";

// The background jobs by name: what the server runs on its timers (server/app.ts) and what an operator runs
// now with `npm run jobs -- <name>` (scripts/jobs.ts), against the configured database — through the running
// server when it holds the embedded database (server/control.ts). A round run by hand is the same round the
// timer runs, under the same claims, so it never does what another instance did or is doing.

export type JobOptions = { log: (line: string) => void; withVaultKey?: boolean };
export type Job = { about: string; run: (options: JobOptions) => Promise<unknown> };

export const JOBS = {
  mail: {
    about: "sends the email that is due now: messages waiting for a retry, follow digests and tribute notifications held for their hour",
    run: async () => {
      const transport = createMailTransport();
      try {
        return await deliverDueMail(transport);
      } finally {
        transport.close();
      }
    },
  },
  purge: {
    about: "tells owners what goes for good soon, and purges memorials and accounts deleted more than 30 days ago, with their files",
    run: () => purgeDeleted(),
  },
  reminders: { about: "sends the day's anniversary reminders, and any days no instance ran", run: () => runAnniversaryReminders() },
  instalments: {
    about: "charges the monthly plan instalments that are due, and tells members whose plan ended",
    run: async () => ({ charged: await chargeDueInstalments(), ended: await noticeEndedPlans() }),
  },
  refunds: {
    about: "tries again the refunds the payment provider refused for a moment",
    run: async () => ({ orders: await retryPendingRefunds(), plans: await retryPlanRefunds() }),
  },
  succession: { about: "reminds owners long away, and hands their memorials to their successors when due", run: () => handOverForAbsentOwners() },
  housekeeping: {
    about: "the hourly round: expired sessions, rate limits and memorial copies removed, the purge and the successions",
    run: () => keepHouse(),
  },
  exports: {
    about: "builds the memorial copies families asked for, until none waits",
    run: async () => {
      let built = 0;
      while ((await runExportRound()) !== "idle") built++;
      return { built };
    },
  },
  backup: {
    about: "makes a backup now (the database, every stored file and the outbox), checks it and prints where it is",
    run: ({ log, withVaultKey }) => makeBackup({ kind: "manual", log, withVaultKey }),
  },
  "backup-round": {
    about: "the schedule's check: makes the current day's (BACKUP_SCHEDULE) backup if no instance has, and alerts when backups are stale",
    run: async ({ log }) => ({ round: await runBackupRound(new Date(), log) }),
  },
} satisfies Record<string, Job>;

export type JobName = keyof typeof JOBS;

export function isJobName(name: string): name is JobName {
  return Object.hasOwn(JOBS, name);
}

/** The digests are mail held for their hour: `npm run jobs -- digests` is the mail round. */
export const JOB_ALIASES: Record<string, JobName> = { digests: "mail" };
