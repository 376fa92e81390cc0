import { batchedRead } from "~/services/batched-read.server";
import { getDatabase } from "~/services/db.server";
import { driverRows, sqlQuery } from "~/services/sql-statements.server";
import { Prisma } from "~/generated/prisma/client";
import { EVENT_DEFAULT_DURATION_MS } from "~/utils/events";
import { isRecordId } from "./memorials/access.server";

// The versions the anonymous page cache (server/page-cache.ts) keys its kept pages by, read from the
// database on every request that could be served from it:
// - per public page kind, a number in `page_versions` that triggers move at the commit of any change to
//   what the kind shows (migration 20261124000000_page_versions);
// - per public memorial, its "updatedAt" (moved by its edits and by triggers for its photos, tributes, timeline
//   and events), or the end of its latest event that is over, if later: an event moving to "Past events" changes
//   no row, yet the page must show it there, without its reply form, from that moment (decision 026).
//
// One query answers both, shared by the requests waiting for it (services/batched-read.server.ts).

export type PageVersionName = "memorials" | "products" | "news" | "endowment";

export type PageVersions = {
  /** Each page kind's version (as text: they are bigints). */
  pages: Record<PageVersionName, string>;
  /** The memorials asked for that are published and public, each with its updatedAt in ms. */
  memorials: Map<string, number>;
};

const currentVersions = sqlQuery({
  name: "pageVersions.current",
  columns: { name: "text", version: "text" },
  sql: (ids: string[], eventDurationMs: number) =>
    Prisma.sql`SELECT "name", "version"::text AS "version" FROM "page_versions"
     UNION ALL
     SELECT m."id", (floor(extract(epoch FROM GREATEST(m."updatedAt", (
        SELECT max(COALESCE(e."endsAt", e."startsAt" + ${eventDurationMs} * interval '1 millisecond')) FROM "memorial_events" e
         WHERE e."memorialId" = m."id" AND COALESCE(e."endsAt", e."startsAt" + ${eventDurationMs} * interval '1 millisecond') <= (now() AT TIME ZONE 'UTC')
      ))) * 1000))::bigint::text FROM "memorials" m
      WHERE m."id" = ANY(${ids}::text[]) AND m."isPublished" AND m."visibility" = 'public'`,
  examples: [[["memorial"], 3_600_000]],
});

async function readNow(ids: string[]): Promise<PageVersions> {
  const rows = await driverRows(getDatabase().sql, currentVersions(ids, EVENT_DEFAULT_DURATION_MS));
  const pages = { memorials: "0", products: "0", news: "0", endowment: "0" } as Record<PageVersionName, string>;
  const memorials = new Map<string, number>();
  for (const row of rows) {
    if (row.name in pages) pages[row.name as PageVersionName] = row.version;
    else memorials.set(row.name, Number(row.version));
  }
  return { pages, memorials };
}

const readBatched = batchedRead(readNow);

/**
 * The page versions, and those of the given memorials, from a read that starts after this call. A
 * memorial not in the answer is not (or no longer) published and public.
 */
export function readPageVersions(memorialId?: string): Promise<PageVersions> {
  return readBatched(memorialId && isRecordId(memorialId) ? memorialId : undefined);
}
