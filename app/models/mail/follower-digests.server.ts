import { Prisma } from "~/generated/prisma/client";
import { executeSql, sqlCommand } from "~/services/sql-statements.server";
import { type EmailKind } from "~/emails";
import { DIGEST_FOLD_MS, DIGEST_INTERVAL_MS } from "~/utils/follow";
import { notBeforeSql, type Db } from "./outbox.server";

// Followers' digests: when something new appears on a memorial (a tribute approved, a photo added), each
// confirmed follower's digest is queued in the same transaction, folded into the one already waiting.
// Only outbox rows are written here; what the digest says is composed when it goes.

const DIGEST_GROUP = "follow-digest:";

export const digestGroup = (followId: string) => DIGEST_GROUP + followId;

/**
 * Something new appeared on a memorial (a tribute approved, a photo added): each confirmed follower's
 * digest is queued, folded into the one already waiting (groupKey), to go DIGEST_FOLD_MS from now and
 * no sooner than DIGEST_INTERVAL_MS after their last one.
 */
export async function queueFollowDigests(db: Db, memorialId: string, now = new Date()) {
  await executeSql(db, followDigests(memorialId, now));
}

const followDigests = sqlCommand({
  name: "mail.followDigests",
  sql: (memorialId: string, now: Date) => followDigestsInsert(Prisma.sql`${memorialId}`, now),
  examples: [["memorial", new Date(0)]],
});

/**
 * queueFollowDigests as one statement, the memorial given as SQL, for a write to run with it in one round
 * trip (approving a tribute): a digest per confirmed follower, to their account's address
 * or the one they gave, folded into one already waiting (as queueMails' skipDuplicates does).
 */
export function followDigestsInsert(memorialId: Prisma.Sql, now = new Date()) {
  const groupKey = Prisma.sql`${DIGEST_GROUP} || f."id"`;
  return Prisma.sql`
    INSERT INTO "mail_outbox" ("to", "kind", "data", "groupKey", "nextAttemptAt")
    SELECT COALESCE(u."email", f."email", ''), ${"follow-digest" satisfies EmailKind}, jsonb_build_object('followId', f."id"), ${groupKey},
           ${notBeforeSql(groupKey, new Date(now.getTime() + DIGEST_FOLD_MS), DIGEST_INTERVAL_MS)}
      FROM "memorial_follows" f LEFT JOIN "users" u ON u."id" = f."userId"
     WHERE f."memorialId" = (${memorialId}) AND f."confirmedAt" IS NOT NULL
    ON CONFLICT DO NOTHING`;
}
