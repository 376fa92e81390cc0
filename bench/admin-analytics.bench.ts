// The admin dashboard's Analytics tab at 100,000 memorials and 1,000,000 tributes (issue 19 §7). Starts a
// throw-away PostgreSQL cluster, applies the migrations, loads members, memorials spread over two years,
// a million tributes, orders and plan payments in bulk, ANALYZEs, then times dailyFigures (the one SQL
// statement the tab runs) and prints median and p95. Run: `npm run bench -- admin-analytics`.
// Not part of `npm test`. BENCH_MEMORIALS / BENCH_TRIBUTES make it smaller for a quick look.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { startCluster } from "../test/postgres-cluster";
import { dailyFigures } from "~/models/analytics.server";
import { openDatabase, setDatabase } from "~/services/db.server";
import { migrate } from "~/services/migrate.server";

const MEMORIALS = Number(process.env.BENCH_MEMORIALS ?? 100_000);
const TRIBUTES = Number(process.env.BENCH_TRIBUTES ?? 1_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const DAYS_SPREAD = 730;

async function load(sql: { exec(sql: string): Promise<void> }) {
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
    SELECT 'bench-' || (1 + g % 1000), 1000 + g % 5000, CASE WHEN g % 10 = 0 THEN 'cancelled' ELSE 'completed' END, now() - make_interval(mins => (g * 31) % (${DAYS_SPREAD} * 1440))
    FROM generate_series(1, ${Math.ceil(MEMORIALS / 2)}) AS g;
    INSERT INTO plan_purchases (id, "userId", "planId", "paymentType", provider, status, "instalmentCount", "instalmentsPaid")
    SELECT 'bp-' || g, 'bench-' || (1 + g % 1000), 'forever', 'full', 'test', 'completed', 1, 1 FROM generate_series(1, 5000) AS g;
    INSERT INTO plan_payments ("purchaseId", number, amount, status, "dueAt", "paidAt")
    SELECT 'bp-' || g, 1, 27900, 'succeeded', now() - make_interval(mins => (g * 211) % (${DAYS_SPREAD} * 1440)), now() - make_interval(mins => (g * 211) % (${DAYS_SPREAD} * 1440))
    FROM generate_series(1, 5000) AS g;
    ANALYZE;
  `);
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function main() {
  const cluster = await startCluster();
  const db = openDatabase({ databaseUrl: cluster.url });
  try {
    setDatabase(db);
    await migrate(db.sql);
    const loadStarted = performance.now();
    await load(db.sql);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    for (let i = 0; i < 3; i++) await dailyFigures();
    const samples: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const started = performance.now();
      await dailyFigures();
      samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    const row = { case: "dailyFigures (30 days, every figure)", medianMs: +percentile(samples, 50).toFixed(2), p95Ms: +percentile(samples, 95).toFixed(2) };
    console.log(`\nAnalytics at ${MEMORIALS.toLocaleString("en-GB")} memorials and ${TRIBUTES.toLocaleString("en-GB")} tributes over ${DAYS_SPREAD} days (loaded in ${loadSeconds.toFixed(1)} s), ${ITERATIONS} runs after 3 warm-ups:\n`);
    console.table([row]);
    const report = { memorials: MEMORIALS, tributes: TRIBUTES, iterations: ITERATIONS, machine: { cpus: os.cpus().length, node: process.version }, takenAt: new Date().toISOString(), rows: [row] };
    mkdirSync("bench/results", { recursive: true });
    writeFileSync("bench/results/admin-analytics.json", `${JSON.stringify(report, null, 2)}\n`);
    console.log("Written to bench/results/admin-analytics.json");
  } finally {
    setDatabase(undefined);
    await db.close().catch(() => {});
    cluster.stop();
  }
}

await main();
