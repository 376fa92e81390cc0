// Backups and restores at 100,000 memorials and 1,000,000 tributes (BENCH_MEMORIALS / BENCH_TRIBUTES change
// it), with the commands an operator types: a throw-away PostgreSQL cluster gets the bulk data; then
// `npm run backup` of it (pg_dump), `npm run restore` of that archive into an empty PostgreSQL database and
// into an empty embedded folder (the move between the two), and `npm run backup` of that embedded site
// (PGlite's pg_dump on a snapshot). Prints each step's time and the archive's size, and writes
// bench/results/backup-restore.json. Run: `npm run bench -- backup-restore`. Not part of `npm test`.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { startCluster } from "../test/postgres-cluster";
import { loadBulkData, SCALE } from "./bulk-data";
import { openDatabase } from "~/services/db.server";
import { migrate } from "~/services/migrate.server";

/** A new empty database on the cluster, by its address. */
async function createDatabase(clusterUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return clusterUrl.replace(/\/postgres$/, `/${name}`);
}

type Step = { step: string; seconds: number; archiveMb?: number; ok: boolean; note?: string };

function command(script: "jobs" | "restore", args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.resolve("node_modules/.bin/tsx"), [`scripts/${script}.ts`, ...args], {
      env: { ...process.env, NODE_ENV: "production", S3_BUCKET: "", BACKUP_S3_BUCKET: "", SMTP_URL: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("close", (code) => resolve({ code, out }));
  });
}

async function timed(step: string, run: () => Promise<{ code: number | null; out: string }>, steps: Step[]) {
  const started = performance.now();
  const result = await run();
  const seconds = +((performance.now() - started) / 1000).toFixed(1);
  const ok = result.code === 0;
  // A backup of the embedded database says how long writes waited while its files were copied.
  const paused = /files were copied in ([\d.]+) s/.exec(result.out)?.[1];
  const note = ok ? (paused ? `writes waited ${paused} s` : undefined) : result.out.trim().split("\n").slice(-3).join(" ");
  steps.push({ step, seconds, ok, note });
  console.log(`${step}: ${seconds} s${ok ? "" : ` — failed: ${result.out.trim().split("\n").slice(-3).join(" ")}`}`);
  return result.out.trim().split("\n").at(-1) ?? "";
}

async function main() {
  const cluster = await startCluster();
  const work = mkdtempSync(path.join(os.tmpdir(), "everlight-bench-backup-"));
  const steps: Step[] = [];
  try {
    const source = await createDatabase(cluster.url, "bench_source");
    const target = await createDatabase(cluster.url, "bench_target");
    const db = openDatabase({ databaseUrl: source });
    await migrate(db.sql);
    const loadStarted = performance.now();
    console.log(`Loading ${SCALE.memorials.toLocaleString("en-GB")} memorials and ${SCALE.tributes.toLocaleString("en-GB")} tributes…`);
    await loadBulkData(db.sql, SCALE);
    await db.close();
    console.log(`Loaded in ${((performance.now() - loadStarted) / 1000).toFixed(0)} s.`);

    const pgArchive = await timed(
      "backup of PostgreSQL (pg_dump)",
      () => command("jobs", ["backup"], { DATABASE_URL: source, DATA_DIR: path.join(work, "pg"), BACKUP_DIR: path.join(work, "pg-backups") }),
      steps,
    );
    steps.at(-1)!.archiveMb = +(statSync(pgArchive).size / 1e6).toFixed(1);
    await timed(
      "restore into an empty PostgreSQL database",
      () => command("restore", [pgArchive], { DATABASE_URL: target, DATA_DIR: path.join(work, "pg-target") }),
      steps,
    );
    const embedded = path.join(work, "embedded");
    await timed("restore into an empty embedded folder (PGlite)", () => command("restore", [pgArchive], { DATABASE_URL: "", DATA_DIR: embedded }), steps);
    const embeddedArchive = await timed(
      "backup of the embedded database (PGlite's pg_dump on a snapshot)",
      () => command("jobs", ["backup"], { DATABASE_URL: "", DATA_DIR: embedded }),
      steps,
    );
    if (steps.at(-1)!.ok) steps.at(-1)!.archiveMb = +(statSync(embeddedArchive).size / 1e6).toFixed(1);
    console.table(steps);
    mkdirSync("bench/results", { recursive: true });
    const report = { ...SCALE, machine: { cpus: os.cpus().length, node: process.version }, takenAt: new Date().toISOString(), steps };
    writeFileSync("bench/results/backup-restore.json", `${JSON.stringify(report, null, 2)}\n`);
    console.log("Written to bench/results/backup-restore.json");
  } finally {
    cluster.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
