// Bulk data for the benchmarks at scale (100,000 memorials and 1,000,000 tributes by default): plain SQL
// with generate_series, so a million rows load in about two minutes. Shared by the admin-analytics and
// public-pages benchmarks.

import { openDatabase } from "~/services/db.server";
import { migrate } from "~/services/migrate.server";

const DAYS_SPREAD = 730;

/** The scale the page benchmarks load; BENCH_MEMORIALS / BENCH_TRIBUTES change it. */
export const SCALE = { memorials: Number(process.env.BENCH_MEMORIALS ?? 100_000), tributes: Number(process.env.BENCH_TRIBUTES ?? 1_000_000) };

/** Loads `memorials` published public memorials (a member for every four), `tributes` tributes (two in three approved), orders and plan payments, spread over two years, then VACUUMs and ANALYZEs. */
export async function loadBulkData(
  sql: { exec(sql: string): Promise<void> },
  { memorials: MEMORIALS, tributes: TRIBUTES }: { memorials: number; tributes: number },
) {
  await sql.exec(`
    INSERT INTO users (id, email, "firstName", "lastName", password, "createdAt")
    SELECT 'bench-' || g, 'bench' || g || '@example.test', 'Bench', 'Member', 'x', now() - make_interval(mins => (g * 97) % (${DAYS_SPREAD} * 1440))
    FROM generate_series(1, ${Math.ceil(MEMORIALS / 4)}) AS g;
    INSERT INTO memorials ("userId", title, "firstName", "lastName", "isPublished", "createdAt")
    SELECT 'bench-' || (1 + g % ${Math.ceil(MEMORIALS / 4)}), 'In memory', 'Mary', 'Jones', true, now() - make_interval(mins => (g * 13) % (${DAYS_SPREAD} * 1440))
    FROM generate_series(1, ${MEMORIALS}) AS g;
    CREATE TEMP TABLE ids AS SELECT id, row_number() OVER () AS n FROM memorials;
    INSERT INTO tributes ("memorialId", "authorName", content, "isApproved", "createdAt")
    SELECT ids.id, 'A friend', 'Thinking of you all.', g % 3 <> 0, now() - make_interval(mins => (g * 7) % (${DAYS_SPREAD} * 1440))
    FROM generate_series(1, ${TRIBUTES}) AS g JOIN ids ON ids.n = 1 + g % ${MEMORIALS};
    INSERT INTO orders ("userId", "totalAmount", status, "createdAt")
    SELECT 'bench-' || (1 + g % ${Math.min(1000, Math.ceil(MEMORIALS / 4))}), 1000 + g % 5000, CASE WHEN g % 10 = 0 THEN 'cancelled' ELSE 'completed' END, now() - make_interval(mins => (g * 31) % (${DAYS_SPREAD} * 1440))
    FROM generate_series(1, ${Math.ceil(MEMORIALS / 2)}) AS g;
    INSERT INTO plan_purchases (id, "userId", "planId", "paymentType", provider, status, "instalmentCount", "instalmentsPaid")
    SELECT 'bp-' || g, 'bench-' || (1 + g % ${Math.min(1000, Math.ceil(MEMORIALS / 4))}), 'forever', 'full', 'test', 'completed', 1, 1 FROM generate_series(1, 5000) AS g;
    INSERT INTO plan_payments ("purchaseId", number, amount, status, "dueAt", "paidAt")
    SELECT 'bp-' || g, 1, 27900, 'succeeded', now() - make_interval(mins => (g * 211) % (${DAYS_SPREAD} * 1440)), now() - make_interval(mins => (g * 211) % (${DAYS_SPREAD} * 1440))
    FROM generate_series(1, 5000) AS g;
  `);
  // As autovacuum leaves a database soon after a load: the search index's pending entries merged (else every
  // search reads them all), the visibility map set, the statistics read.
  await sql.exec("VACUUM ANALYZE");
}

/** Migrates the PostgreSQL database at `databaseUrl` and loads the bulk data into it, saying how long it took. */
export async function loadBulkDataAt(databaseUrl: string, scale = SCALE) {
  const db = openDatabase({ databaseUrl });
  try {
    await migrate(db.sql);
    const started = Date.now();
    console.log(`Loading ${scale.memorials.toLocaleString("en-GB")} memorials and ${scale.tributes.toLocaleString("en-GB")} tributes…`);
    await loadBulkData(db.sql, scale);
    console.log(`Loaded in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  } finally {
    await db.close().catch(() => {});
  }
}
