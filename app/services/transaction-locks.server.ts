import { Prisma } from "~/generated/prisma/client";
import { executeSql, sqlCommand } from "./sql-statements.server";

// The two locks the models take inside a transaction, each held until the transaction ends.

const advisoryLock = sqlCommand({
  name: "locks.advisoryLock",
  sql: (key: string) => Prisma.sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`,
  examples: [["checkout:member"]],
});

const memberRowLock = sqlCommand({
  name: "locks.memberRowLock",
  sql: (userId: string) => Prisma.sql`SELECT 1 FROM "users" WHERE "id" = ${userId} FOR UPDATE`,
  examples: [["member"]],
});

type Tx = Prisma.TransactionClient;

/** Serialises whatever else takes the lock named `key` (its hash, as PostgreSQL's advisory locks are numbers). */
export async function holdAdvisoryLock(tx: Tx, key: string) {
  await executeSql(tx, advisoryLock(key));
}

/** Locks a member's row: one change at a time to what they hold, read and judged under it. */
export async function lockMemberRow(tx: Tx, userId: string) {
  await executeSql(tx, memberRowLock(userId));
}
