import { randomBytes } from "node:crypto";
import { batchedRead } from "~/services/batched-read.server";
import { getDatabase, prisma } from "~/services/db.server";
import { driverRows, sqlQuery } from "~/services/sql-statements.server";
import { Prisma } from "~/generated/prisma/client";

// Server-side sessions (the `sessions` table): the cookie carries only the random sid, so deleting the
// row ends the session everywhere at once (sessions).

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export type SessionData = { userId?: string };

export function newSessionId() {
  return randomBytes(32).toString("base64url");
}

export async function createSessionRow(data: SessionData, expires?: Date) {
  const sid = newSessionId();
  await prisma().session.create({
    data: { sid, sess: data, userId: data.userId ?? null, expire: expires ?? new Date(Date.now() + SESSION_TTL_MS) },
  });
  return sid;
}

export async function readSessionRow(sid: string): Promise<SessionData | null> {
  const row = await prisma().session.findUnique({ where: { sid } });
  if (!row) return null;
  if (row.expire.getTime() <= Date.now()) {
    await prisma().session.deleteMany({ where: { sid } });
    return null;
  }
  return (row.sess ?? {}) as SessionData;
}

export async function updateSessionRow(sid: string, data: SessionData, expires?: Date) {
  await prisma().session.upsert({
    where: { sid },
    create: { sid, sess: data, userId: data.userId ?? null, expire: expires ?? new Date(Date.now() + SESSION_TTL_MS) },
    update: { sess: data, userId: data.userId ?? null, expire: expires ?? new Date(Date.now() + SESSION_TTL_MS) },
  });
}

export async function deleteSessionRow(sid: string) {
  await prisma().session.deleteMany({ where: { sid } });
}

export async function deleteExpiredSessions(now = new Date()) {
  return (await prisma().session.deleteMany({ where: { expire: { lt: now } } })).count;
}

/**
 * For the members' page cache (server/member-page-cache.ts): which of the given sessions are live and signed
 * in (session not expired, account not deleted, activity noted within the day, as getSignedInUser would find
 * it), with the signed-in user's id; and the database's snapshot in the same statement. The snapshot text
 * changes when any write anywhere commits, and only then (read-only transactions take no transaction id), so
 * two equal snapshots see the same data: a page rendered after reading one is still right while it is current.
 */
export type SignedInSessions = { snapshot: string; users: Map<string, string> };

const signedInSessions = sqlQuery({
  name: "sessions.signedIn",
  columns: { sid: "text | null", userId: "text" },
  sql: (sids: string[]) =>
    Prisma.sql`SELECT NULL AS "sid", pg_current_snapshot()::text AS "userId"
     UNION ALL
     SELECT s."sid", s."userId" FROM "sessions" s JOIN "users" u ON u."id" = s."userId"
      WHERE s."sid" = ANY(${sids}::text[]) AND s."expire" > (now() AT TIME ZONE 'UTC') AND u."deletedAt" IS NULL
        AND u."lastActiveAt" > (now() AT TIME ZONE 'UTC') - interval '23 hours'`,
  examples: [[["sid"]]],
});

async function readSignedIn(sids: string[]): Promise<SignedInSessions> {
  const rows = await driverRows(getDatabase().sql, signedInSessions(sids));
  const users = new Map<string, string>();
  let snapshot = "";
  for (const row of rows) {
    if (row.sid === null) snapshot = row.userId;
    else users.set(row.sid, row.userId);
  }
  return { snapshot, users };
}

/** From a read that starts after this call, shared with the requests waiting at the same time. */
export const readSignedInSessions = batchedRead(readSignedIn);
