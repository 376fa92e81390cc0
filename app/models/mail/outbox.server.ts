import type { EmailKind, EmailPropsByKind } from "~/emails";
import { Prisma, type PrismaClient } from "~/generated/prisma/client";
import { getDatabase, prisma } from "~/services/db.server";
import { driverRows, sqlQuery } from "~/services/sql-statements.server";

// The email outbox. A message is a row written in the same transaction as what caused it (a tribute, a
// password change), so it is never lost and never sent for something that did not happen. The worker in
// the server process (server/mail-worker.ts) claims due rows with FOR UPDATE SKIP LOCKED (several
// instances never take the same one), asks composeMail (compose.server.ts) for what the email says at that
// moment, renders it (app/emails) and sends it (app/services/mail.server.ts); a failure is retried later
// with back-off, so a mail server that is down only delays mail. Features write here and read nothing
// back: what an email says is composed when it goes.

export type Db = PrismaClient | Prisma.TransactionClient;

export type QueuedMail = {
  to: string;
  kind: EmailKind;
  /** The facts the email is built from when it is sent (ids, names); never a secret or a token. */
  data: Record<string, string | number | boolean | null>;
  /** At most one message of a group waits at a time: a second one joins the first. */
  groupKey?: string;
  /** Not before this moment (the hourly limit of tribute notifications). */
  notBefore?: Date;
};

/** Writes a message to the outbox, inside the caller's transaction when given one. */
export async function queueMail(db: Db, mail: QueuedMail) {
  await db.mailOutbox.createMany({
    data: [{ to: mail.to, kind: mail.kind, data: mail.data, groupKey: mail.groupKey ?? null, nextAttemptAt: mail.notBefore ?? new Date() }],
    // A message of the same group already waiting: this one is folded into it (it lists what is waiting when sent).
    skipDuplicates: true,
  });
}

/**
 * In SQL, when a message of a group may go: `soonest`, or `intervalMs` after the group's last one sent if
 * that is later (the statements that queue a group's messages in SQL: tributes waiting, follow digests).
 */
export function notBeforeSql(groupKey: Prisma.Sql, soonest: Date, intervalMs: number) {
  return Prisma.sql`GREATEST(${soonest}::timestamp,
    (SELECT max(o."sentAt") FROM "mail_outbox" o WHERE o."groupKey" = ${groupKey} AND o."status" = 'sent') + ${intervalMs} * interval '1 millisecond')`;
}

/** Writes several messages at once (a memorial's followers' digests), each folded into its group's waiting one. */
export async function queueMails(db: Db, mails: QueuedMail[]) {
  if (!mails.length) return;
  await db.mailOutbox.createMany({
    data: mails.map((mail) => ({
      to: mail.to,
      kind: mail.kind,
      data: mail.data,
      groupKey: mail.groupKey ?? null,
      nextAttemptAt: mail.notBefore ?? new Date(),
    })),
    skipDuplicates: true,
  });
}

export type OutboxRow = { id: string; to: string; kind: string; data: Record<string, unknown>; attempts: number; groupKey: string | null };

/** How long a claimed message is the claimer's before another worker may take it (a crashed worker's). */
export const MAIL_LEASE_MS = 5 * 60_000;

/** After these many failed attempts a message is given up (about two days of retries). */
export const MAIL_MAX_ATTEMPTS = 10;

const BACKOFF_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000, 2 * 3600_000, 4 * 3600_000, 8 * 3600_000, 12 * 3600_000, 24 * 3600_000];

const claimMail = sqlQuery({
  name: "outbox.claim",
  columns: { id: "text", to: "text", kind: "text", data: "jsonb", attempts: "int4", groupKey: "text | null" },
  sql: (now: Date, lockedUntil: Date, limit: number) =>
    Prisma.sql`UPDATE "mail_outbox" SET "lockedUntil" = ${lockedUntil}, "attempts" = "attempts" + 1
     WHERE "id" IN (
       SELECT "id" FROM "mail_outbox"
       WHERE "status" = 'pending' AND "nextAttemptAt" <= ${now} AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${now})
       ORDER BY "nextAttemptAt" LIMIT ${limit}
       FOR UPDATE SKIP LOCKED)
     RETURNING "id", "to", "kind", "data", "attempts", "groupKey"`,
  examples: [[new Date(0), new Date(0), 10]],
});

/** Takes up to `limit` due messages for this worker alone, in the order they became due. */
export async function claimDueMail(now: Date, limit = 10): Promise<OutboxRow[]> {
  // Every message's data is an object (queueMail writes one), whatever else a jsonb column may hold.
  return (await driverRows(getDatabase().sql, claimMail(now, new Date(now.getTime() + MAIL_LEASE_MS), limit))) as OutboxRow[];
}

export async function markMailSent(id: string, now: Date) {
  await prisma().mailOutbox.update({ where: { id }, data: { status: "sent", sentAt: now, lockedUntil: null, lastError: null } });
}

/** Nothing to send any more (the tributes were moderated meanwhile, the member said no): done, not sent. */
export async function markMailSkipped(id: string, reason: string) {
  await prisma().mailOutbox.update({ where: { id }, data: { status: "skipped", lockedUntil: null, lastError: reason } });
}

/** A failed attempt: tried again after a growing pause, given up after MAIL_MAX_ATTEMPTS. */
export async function markMailFailed(row: Pick<OutboxRow, "id" | "attempts">, error: unknown, now: Date) {
  const message = error instanceof Error ? error.message : String(error);
  const giveUp = row.attempts >= MAIL_MAX_ATTEMPTS;
  await prisma().mailOutbox.update({
    where: { id: row.id },
    data: {
      status: giveUp ? "failed" : "pending",
      lockedUntil: null,
      lastError: message.slice(0, 1000),
      nextAttemptAt: new Date(now.getTime() + BACKOFF_MS[Math.min(row.attempts - 1, BACKOFF_MS.length - 1)]),
    },
  });
}

/** An email ready to render: its template, that template's props, and any extra headers. */
export type ComposedMail<K extends EmailKind = EmailKind> = { to: string; kind: K; props: EmailPropsByKind[K]; headers?: Record<string, string> };
