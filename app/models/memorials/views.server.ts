import { Prisma } from "~/generated/prisma/client";
import { getDatabase, prisma } from "~/services/db.server";
import { driverExecute, driverRows, sqlCommand, sqlQuery } from "~/services/sql-statements.server";
import { getEnv } from "~/services/env.server";

// The view counter and shares: what visitors do to a memorial that the family sees as numbers.

// The view counter. Page views are added up in memory and written
// in one statement about once a second, so that a busy memorial page does not write a row per visitor
// (and a view never touches updatedAt, which the anonymous page cache keys on). The server writes what
// is left when it stops (server/app.ts).
// VIEW_FLUSH_MS (default 1000) sets the interval; 0 writes each view before the page is answered, so a
// test that compares counts across requests sees every view it caused and never flakes.
const pendingViews = new Map<string, number>();
let viewFlush: ReturnType<typeof setTimeout> | undefined;

/** Counts one page view; never fails, and delays the page only when VIEW_FLUSH_MS is 0. */
export function recordView(id: string): Promise<void> {
  pendingViews.set(id, (pendingViews.get(id) ?? 0) + 1);
  const delay = getEnv().VIEW_FLUSH_MS;
  if (delay === 0) return flushViews();
  viewFlush ??= setTimeout(() => void flushViews(), delay).unref();
  return Promise.resolve();
}

const addViews = sqlCommand({
  name: "views.add",
  sql: (ids: string[], counts: number[]) =>
    Prisma.sql`UPDATE memorials AS m SET "viewCount" = m."viewCount" + v.n FROM unnest(${ids}::text[], ${counts}::int[]) AS v(id, n) WHERE m.id = v.id`,
  examples: [[["memorial"], [1]]],
});

const countViews = sqlQuery({
  name: "views.count",
  columns: { viewCount: "int4" },
  sql: (id: string, views: number) => Prisma.sql`UPDATE memorials SET "viewCount" = "viewCount" + ${views} WHERE id = ${id} RETURNING "viewCount"`,
  examples: [["memorial", 1]],
});

/** Writes the views counted so far; views of memorials deleted meanwhile are dropped. */
export async function flushViews() {
  clearTimeout(viewFlush);
  viewFlush = undefined;
  if (pendingViews.size === 0) return;
  const ids = [...pendingViews.keys()];
  const counts = ids.map((id) => pendingViews.get(id)!);
  pendingViews.clear();
  try {
    await driverExecute(getDatabase().sql, addViews(ids, counts));
  } catch {
    // A view that could not be counted is not worth an error page.
  }
}

/** Counts one view and answers the new count; null when the memorial is gone or the count failed. */
export async function countView(id: string): Promise<number | null> {
  // Any page views not yet written are taken along, so the answer is the count as it stands.
  const pending = pendingViews.get(id) ?? 0;
  pendingViews.delete(id);
  try {
    const rows = await driverRows(getDatabase().sql, countViews(id, 1 + pending));
    return rows[0]?.viewCount ?? null;
  } catch {
    // As recordView: a view that could not be counted is not worth an error.
    return null;
  }
}

/** The share channels of the memorial page. */
export const SHARE_TYPES = ["facebook", "twitter", "copy_link"] as const;
export type ShareType = (typeof SHARE_TYPES)[number];

/** Records one share; the caller has already checked that the sharer may see the memorial. */
export async function recordShare(memorialId: string, sharedByUserId: string | null, shareType: ShareType, shareData?: Prisma.InputJsonValue | null) {
  const share = await prisma().memorialShare.create({
    data: { memorialId, sharedByUserId, shareType, ...(shareData === undefined || shareData === null ? {} : { shareData }) },
  });
  return {
    id: share.id,
    memorialId: share.memorialId,
    sharedByUserId: share.sharedByUserId,
    shareType: share.shareType,
    shareData: share.shareData,
    createdAt: share.createdAt.toISOString(),
  };
}
