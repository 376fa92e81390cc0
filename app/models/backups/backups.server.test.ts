import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverDueMail } from "../../../server/mail-worker";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { startSmtp, type TestSmtp } from "../../../test/smtp-server";
import { createMailTransport, type MailTransport } from "~/services/mail.server";
import { parseEnv } from "~/services/env.server";
import { backupStatus, runBackupRound, slotOf, SLOT_ATTEMPTS } from "./backups.server";
import { useTempDataDir } from "../../../test/data-dir";

// The schedule's rules on both databases, where the backup itself cannot be made (an in-memory embedded
// database has no files; PostgreSQL here has no DATABASE_URL for pg_dump): the slot is claimed once, a
// failed slot is tried again a bounded number of times, administrators are told of a failure once a day
// and when no backup has succeeded for 36 hours, and the dashboard's status says so. The backups that
// succeed are made by real servers and commands in test/backups.test.ts.

process.env.BACKUP_DIR ??= path.join(useTempDataDir("backup-rounds"), "backups");
process.env.BACKUP_SCHEDULE = "daily";

const HOUR = 3600_000;

describe("the backup slot of a moment", () => {
  it("is its hour, day or ISO week, in UTC", () => {
    const at = new Date("2026-11-28T23:30:00Z");
    expect(slotOf("hourly", at)).toBe("hourly:2026-11-28T23");
    expect(slotOf("daily", at)).toBe("daily:2026-11-28");
    expect(slotOf("weekly", at)).toBe("weekly:2026-W48");
  });
});

describe.each(databaseKinds)("scheduled backups on $name", (kind) => {
  const app = useAppDatabase(kind);
  let smtp: TestSmtp;
  let transport: MailTransport;
  beforeAll(async () => {
    if (kind.skip) return;
    smtp = await startSmtp();
    transport = createMailTransport(parseEnv({ SMTP_URL: smtp.url, MAIL_FROM: "Everlight <no-reply@everlight.test>", DATA_DIR: process.env.DATA_DIR }));
  });
  afterAll(async () => {
    transport?.close();
    await smtp?.stop();
  });

  const alerts = () =>
    app.db.sql.query<{ to: string; reason: string }>(
      `SELECT "to", "data"->>'reason' AS reason FROM "mail_outbox" WHERE "kind" = 'backup-alert' ORDER BY "createdAt"`,
    );

  it.skipIf(!!kind.skip)("claims a day once however many instances check, tries a failed day three times, and tells administrators once a day", async () => {
    await app.db.sql.query(
      `INSERT INTO "users" ("id", "email", "firstName", "lastName", "password", "isAdmin") VALUES ('adm', 'keeper@example.test', 'Kay', 'Keeper', 'x', true)`,
    );
    const day = new Date("2026-03-02T04:00:00Z");
    const rounds = await Promise.all([runBackupRound(day), runBackupRound(day), runBackupRound(day)]);
    expect(rounds.filter((r) => r === "failed")).toHaveLength(1);
    expect(rounds.filter((r) => r === "not due")).toHaveLength(2);
    const [slot] = await app.db.sql.query<{ status: string; attempts: number; error: string }>(
      `SELECT "status", "attempts", "error" FROM "backup_runs" WHERE "slot" = 'daily:2026-03-02'`,
    );
    expect(slot).toMatchObject({ status: "failed", attempts: 1 });
    expect(slot.error).toBeTruthy();
    expect(await alerts()).toEqual([{ to: "keeper@example.test", reason: "failed" }]);
    expect(await deliverDueMail(transport, new Date())).toMatchObject({ sent: 1 });
    const [mail] = await smtp.waitFor(1);
    expect(mail.subject).toBe("Everlight: a backup failed");
    expect(mail.to).toMatchObject({ text: "keeper@example.test" });
    expect(mail.text).toContain("The site's scheduled backup did not finish. No backup has been made yet.");
    expect(mail.text).toContain(`What went wrong: ${slot.error}`);
    expect(mail.text).toContain("npm run backup");

    // An instance checking a moment after the failure does not try again at once: the next check does.
    expect(await runBackupRound(new Date(day.getTime() + 60_000))).toBe("not due");
    // Tried again at the next checks, to SLOT_ATTEMPTS in all; the alert is not repeated within the day.
    for (let hour = 1; hour < SLOT_ATTEMPTS; hour++) expect(await runBackupRound(new Date(day.getTime() + hour * HOUR))).toBe("failed");
    expect(await runBackupRound(new Date(day.getTime() + 5 * HOUR))).toBe("not due");
    expect((await app.db.sql.query<{ attempts: number }>(`SELECT "attempts" FROM "backup_runs" WHERE "slot" = 'daily:2026-03-02'`))[0].attempts).toBe(
      SLOT_ATTEMPTS,
    );
    expect(await alerts()).toHaveLength(1);

    const status = await backupStatus(new Date(day.getTime() + 6 * HOUR));
    expect(status.last).toMatchObject({ status: "failed", kind: "scheduled" });
    expect(status.lastSuccess).toBeNull();
    expect(status.stale).toBe(true);

    // The next day is a new slot, and a new failure a day later is told again; 36 hours without success are told too.
    expect(await runBackupRound(new Date(day.getTime() + 26 * HOUR))).toBe("failed");
    expect((await alerts()).map((a) => a.reason)).toEqual(["failed", "failed"]);
    await runBackupRound(new Date(day.getTime() + 40 * HOUR));
    expect((await alerts()).map((a) => a.reason)).toEqual(["failed", "failed", "stale"]);
  });

  it.skipIf(!!kind.skip)("takes over a day whose instance died while making it, and counts a recent success as fresh", async () => {
    await app.db.sql.query(`INSERT INTO "backup_runs" ("slot", "kind", "status", "startedAt") VALUES ('daily:2026-05-01', 'scheduled', 'running', $1)`, [
      new Date("2026-05-01T01:00:00Z"),
    ]);
    expect(await runBackupRound(new Date("2026-05-01T03:00:00Z"))).toBe("not due"); // still making it, as far as anyone knows
    expect(await runBackupRound(new Date("2026-05-01T08:00:00Z"))).toBe("failed"); // six hours on: taken over (and fails here)
    await app.db.sql.query(
      `INSERT INTO "backup_runs" ("kind", "status", "startedAt", "finishedAt", "sizeBytes", "verified") VALUES ('manual', 'succeeded', $1, $1, 1048576, true)`,
      [new Date("2026-05-01T09:00:00Z")],
    );
    const status = await backupStatus(new Date("2026-05-01T10:00:00Z"));
    expect(status.lastSuccess).toEqual({ finishedAt: new Date("2026-05-01T09:00:00Z"), sizeBytes: 1048576, verified: true });
    expect(status.stale).toBe(false);
  });
});
