// The admin dashboard's Analytics tab at 100,000 memorials and 1,000,000 tributes. Starts a
// throw-away PostgreSQL cluster, applies the migrations, loads members, memorials spread over two years,
// a million tributes, orders and plan payments in bulk, ANALYZEs, then times dailyFigures (the one SQL
// statement the tab runs) and prints median and p95. Run: `npm run bench -- admin-analytics`.
// Not part of `npm test`. BENCH_MEMORIALS / BENCH_TRIBUTES make it smaller for a quick look.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { startCluster } from "../test/postgres-cluster";
import { loadBulkData } from "./bulk-data";
import { dailyFigures } from "~/models/analytics.server";
import { openDatabase, setDatabase } from "~/services/db.server";
import { migrate } from "~/services/migrate.server";

const MEMORIALS = Number(process.env.BENCH_MEMORIALS ?? 100_000);
const TRIBUTES = Number(process.env.BENCH_TRIBUTES ?? 1_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 30);
const DAYS_SPREAD = 730;

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
    await loadBulkData(db.sql, { memorials: MEMORIALS, tributes: TRIBUTES });
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
    console.log(
      `\nAnalytics at ${MEMORIALS.toLocaleString("en-GB")} memorials and ${TRIBUTES.toLocaleString("en-GB")} tributes over ${DAYS_SPREAD} days (loaded in ${loadSeconds.toFixed(1)} s), ${ITERATIONS} runs after 3 warm-ups:\n`,
    );
    console.table([row]);
    const report = {
      memorials: MEMORIALS,
      tributes: TRIBUTES,
      iterations: ITERATIONS,
      machine: { cpus: os.cpus().length, node: process.version },
      takenAt: new Date().toISOString(),
      rows: [row],
    };
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
