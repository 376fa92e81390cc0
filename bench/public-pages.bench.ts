// Every page a visitor can open without signing in, against the ceiling. For each database —
// embedded PGlite, and PostgreSQL in a throw-away cluster where initdb/pg_ctl exist — builds nothing
// (run `npm run build` first, or leave BENCH_NO_BUILD unset to build), starts the production server with the
// demo data on 127.0.0.1, takes each page's compressed bytes as an anonymous visitor gets them, and measures
// with wrk (-t2 -c32, BENCH_DURATION seconds, 10 by default; gzip):
//   - the app;
//   - node:http answering the same bytes from memory (bench/ceiling-server.mjs): the ceiling for a Node
//     server on this machine, measured in the same run;
//   - nginx serving the same bytes from files (one worker), when nginx is there (installed from Debian
//     when missing and we are root; skipped with a note otherwise).
// Prints each page's requests/s, p99, ratio to the node:http ceiling and its target (≥ 5 %, the memorial
// page ≥ 10 %, p99 ≤ 50 ms), writes bench/results/public-pages.json and a Markdown table beside it.
// Then the same at scale: PostgreSQL with 100,000 memorials and 1,000,000 tributes added to the
// demo data (bench/bulk-data.ts; BENCH_MEMORIALS / BENCH_TRIBUTES to change), on the landing page, browse
// page 1 and page 10, a search and a memorial page. Last, Lighthouse (mobile profile, BENCH_LIGHTHOUSE_RUNS
// runs each, 3 by default, each figure's median kept) on every public page above but the 404 (Lighthouse
// audits no document answered with 404) and on the sign-in, sign-up and forgot-password pages, on
// PGlite: each must score 100 with an LCP of 1.2 s at most.
// Run: `npm run bench -- public-pages`. BENCH_DATABASES=pglite,postgres,postgres-100k (the default) chooses
// the runs (BENCH_DATABASES= none: Lighthouse only); BENCH_LIGHTHOUSE=0 leaves Lighthouse out;
// BENCH_LIGHTHOUSE_PAGES="landing|browse, a search" measures only the pages named. A missed target fails the run.
// The machines are shared and noisy: the figures are indicative; the ratio is what compares.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadBulkDataAt, SCALE } from "./bulk-data";
import { median, runLighthouse, type LighthouseRun } from "./lighthouse";
import { buildUnlessAsked, ensureDebianPackage, loadAverage, nginxBinary, onPostgres, pageBytes, startApp, startCeilings, wrk, type Run } from "./page-measure";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 2);
const CONNECTIONS = 32;
const P99_TARGET_MS = 50;
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const LIGHTHOUSE_TARGET = 100;
const LCP_TARGET_MS = 1200;

type Database = "pglite" | "postgres" | "postgres-100k";
type Page = { name: string; path: string; target: number };
type Row = {
  database: Database;
  page: string;
  path: string;
  bytes: number;
  app: Run;
  node: Run;
  nginx: Run | null;
  ratio: number;
  target: number;
  pass: boolean;
};

/** The pages: every one a visitor can open without signing in (at scale: the ones the issue names). */
async function pages(base: string, database: Database): Promise<Page[]> {
  const memorials = (await (await fetch(`${base}/api/memorials`)).json()) as { id: string; lastName: string }[];
  const memorial = memorials[0];
  if (!memorial) throw new Error("The demo data has no public memorial");
  if (database === "postgres-100k") {
    return [
      { name: "landing", path: "/", target: 0.05 },
      { name: "browse", path: "/memorials", target: 0.05 },
      { name: "browse, page 10", path: "/memorials?page=10", target: 0.05 },
      { name: "browse, a search", path: `/memorials?search=${encodeURIComponent(memorial.lastName.toLowerCase())}`, target: 0.05 },
      { name: "memorial page", path: `/memorials/${memorial.id}`, target: 0.1 },
    ];
  }
  return [
    { name: "landing", path: "/", target: 0.05 },
    { name: "browse", path: "/memorials", target: 0.05 },
    { name: "browse, a search", path: `/memorials?search=${encodeURIComponent(memorial.lastName.toLowerCase())}`, target: 0.05 },
    { name: "memorial page", path: `/memorials/${memorial.id}`, target: 0.1 },
    { name: "products", path: "/products", target: 0.05 },
    { name: "products, a category", path: "/products?category=physical", target: 0.05 },
    { name: "news", path: "/news", target: 0.05 },
    { name: "endowment report", path: "/endowment", target: 0.05 },
    { name: "help", path: "/help", target: 0.05 },
    { name: "terms", path: "/terms", target: 0.05 },
    { name: "privacy", path: "/privacy", target: 0.05 },
    { name: "contact", path: "/contact", target: 0.05 },
    { name: "404", path: "/no-such-page", target: 0.05 },
  ];
}

// ───────────────────────────── a run ─────────────────────────────

async function measure(database: Database, databaseUrl: string, withNginx: boolean): Promise<Row[]> {
  const app = await startApp(databaseUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), "everlight-ceiling-"));
  chmodSync(dir, 0o755);
  try {
    const list = await pages(app.url, database);
    const files: string[] = [];
    const sizes: number[] = [];
    for (const [i, page] of list.entries()) {
      await pageBytes(app.url + page.path); // the first request renders it
      const gzip = await pageBytes(app.url + page.path);
      const file = path.join(dir, `p${i}.html.gz`);
      writeFileSync(file, gzip, { mode: 0o644 });
      files.push(file);
      sizes.push(gzip.length);
    }
    const ceilings = await startCeilings(dir, files, withNginx);
    const rows: Row[] = [];
    try {
      for (const [i, page] of list.entries()) {
        process.stdout.write(`${database} ${page.name}: `);
        wrk(app.url + page.path, WARM_UP, { connections: CONNECTIONS });
        const appRun = wrk(app.url + page.path, DURATION, { connections: CONNECTIONS });
        const nodeRun = wrk(ceilings.nodeUrl(i), DURATION, { connections: CONNECTIONS });
        const nginxRun = ceilings.nginxUrl ? wrk(ceilings.nginxUrl(i), DURATION, { connections: CONNECTIONS }) : null;
        const ratio = appRun.requestsPerSecond / nodeRun.requestsPerSecond;
        const pass = ratio >= page.target && appRun.p99Ms <= P99_TARGET_MS && appRun.errors === 0 && appRun.non2xx <= (page.name === "404" ? Infinity : 0);
        console.log(
          `${appRun.requestsPerSecond} req/s, p99 ${appRun.p99Ms} ms; node:http ${nodeRun.requestsPerSecond}${nginxRun ? `, nginx ${nginxRun.requestsPerSecond}` : ""}; ${(ratio * 100).toFixed(1)} %`,
        );
        rows.push({
          database,
          page: page.name,
          path: page.path,
          bytes: sizes[i],
          app: appRun,
          node: nodeRun,
          nginx: nginxRun,
          ratio,
          target: page.target,
          pass,
        });
      }
    } finally {
      await ceilings.stop();
    }
    return rows;
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function table(rows: Row[]) {
  const lines = [
    "| database | page | gzip bytes | app req/s | app p99 | node:http req/s (p99) | nginx req/s | ratio to node:http | target | result |",
    "|---|---|---:|---:|---:|---:|---:|---:|---|---|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.database} | ${r.page} (\`${r.path.length > 40 ? `${r.path.slice(0, 40)}…` : r.path}\`) | ${r.bytes.toLocaleString("en-GB")} | ${r.app.requestsPerSecond.toLocaleString("en-GB")} | ${r.app.p99Ms} ms | ${r.node.requestsPerSecond.toLocaleString("en-GB")} (${r.node.p99Ms} ms) | ${r.nginx ? r.nginx.requestsPerSecond.toLocaleString("en-GB") : "—"} | ${(r.ratio * 100).toFixed(1)} % | ≥ ${r.target * 100} %, p99 ≤ ${P99_TARGET_MS} ms | ${r.pass ? "PASS" : "MISS"} |`,
    );
  }
  return lines.join("\n");
}

// ───────────────────────────── Lighthouse ─────────────────────────────

type LighthouseRow = { page: string; path: string; median: LighthouseRun; runs: LighthouseRun[]; pass: boolean };

/** Whether a page's median run meets the target: performance 100 and LCP within LCP_TARGET_MS. */
const meetsTarget = (run: LighthouseRun) => run.performance >= LIGHTHOUSE_TARGET && run.lcpMs <= LCP_TARGET_MS;

/**
 * Lighthouse on every public page (PGlite, demo data), each page's median run; BENCH_LIGHTHOUSE_PAGES
 * (names separated by "|", e.g. "landing|browse, a search") measures only some.
 */
async function lighthouseRuns(): Promise<LighthouseRow[]> {
  const app = await startApp("");
  try {
    const wanted = process.env.BENCH_LIGHTHOUSE_PAGES?.split("|").filter(Boolean);
    const list = [
      // Not the 404 page: Lighthouse refuses to audit a document answered with 404 (its figures all NaN).
      ...(await pages(app.url, "pglite")).filter((page) => page.name !== "404"),
      { name: "sign in", path: "/login", target: 0 },
      { name: "sign up", path: "/register", target: 0 },
      { name: "forgot password", path: "/forgot-password", target: 0 },
    ].filter((page) => !wanted || wanted.includes(page.name));
    const result: LighthouseRow[] = [];
    for (const { name, path: pathname } of list) {
      const runs: LighthouseRun[] = [];
      const file = `bench/results/public-pages.${name.replace(/[^a-z0-9]+/g, "-")}.lighthouse.json`;
      // A run Lighthouse could not finish (no paint seen: its figures are NaN) is run again, twice at most.
      for (let i = 0, retries = 0; i < LIGHTHOUSE_RUNS; i++) {
        const run = await runLighthouse(app.url + pathname, file);
        if (Number.isNaN(run.lcpMs) && retries++ < 2) i--;
        else runs.push(run);
      }
      const row = { page: name, path: pathname, median: median(runs), runs, pass: false };
      row.pass = meetsTarget(row.median);
      console.log(
        `Lighthouse ${name}: performance ${row.median.performance} (runs ${runs.map((r) => r.performance).join(", ")}), FCP ${row.median.fcpMs} ms, LCP ${row.median.lcpMs} ms (runs ${runs.map((r) => r.lcpMs).join(", ")}), TBT ${row.median.tbtMs} ms, CLS ${row.median.cls}, best practices ${row.median.bestPractices}${row.pass ? "" : " — MISS"}`,
      );
      result.push(row);
    }
    return result;
  } finally {
    await app.stop();
  }
}

function lighthouseTable(rows: LighthouseRow[]) {
  return [
    `| Lighthouse, mobile (PGlite), median of ${LIGHTHOUSE_RUNS} | performance (runs) | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | target | result |`,
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.page} (\`${r.path.length > 40 ? `${r.path.slice(0, 40)}…` : r.path}\`) | ${r.median.performance} (${r.runs.map((run) => run.performance).join(", ")}) | ${r.median.accessibility} | ${r.median.bestPractices} | ${r.median.seo} | ${r.median.fcpMs} ms | ${r.median.lcpMs} ms | ${r.median.tbtMs} ms | ${r.median.cls} | ${LIGHTHOUSE_TARGET}, LCP ≤ ${LCP_TARGET_MS} ms | ${r.pass ? "PASS" : "MISS"} |`,
    ),
  ].join("\n");
}

async function main() {
  const wanted = (process.env.BENCH_DATABASES ?? "pglite,postgres,postgres-100k").split(",").filter(Boolean);
  if (wanted.length && !ensureDebianPackage("wrk", "wrk")) throw new Error("wrk is missing and could not be installed (apt-get install wrk).");
  const withNginx = wanted.length > 0 && (ensureDebianPackage("nginx", "nginx-light") || !!nginxBinary());
  if (wanted.length && !withNginx) console.log("nginx is missing and could not be installed: its column is left out.");
  buildUnlessAsked();
  const rows: Row[] = [];
  const loadBefore = loadAverage();
  if (wanted.includes("pglite")) rows.push(...(await measure("pglite", "", withNginx)));
  if (wanted.includes("postgres")) rows.push(...((await onPostgres("PostgreSQL", (url) => measure("postgres", url, withNginx))) ?? []));
  if (wanted.includes("postgres-100k")) {
    const measured = await onPostgres("PostgreSQL at scale", async (url) => {
      await loadBulkDataAt(url);
      return measure("postgres-100k", url, withNginx);
    });
    rows.push(...(measured ?? []));
  }
  const lighthouse = process.env.BENCH_LIGHTHOUSE === "0" ? [] : await lighthouseRuns();
  const markdown = `${table(rows)}${lighthouse.length ? `\n\n${lighthouseTable(lighthouse)}` : ""}`;
  const note = `wrk -t2 -c${CONNECTIONS} -d${DURATION}s, gzip; ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}; load average before ${loadBefore}, after ${loadAverage()}.`;
  console.log(`\n${markdown}\n\n${note}`);
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/public-pages.json", `${JSON.stringify({ takenAt: new Date().toISOString(), note, scale: SCALE, rows, lighthouse }, null, 2)}\n`);
  writeFileSync("bench/results/public-pages.md", `${markdown}\n\n${note}\n`);
  console.log("Written to bench/results/public-pages.json and public-pages.md");
  const misses = rows.filter((r) => !r.pass).length + lighthouse.filter((l) => !l.pass).length;
  const all = rows.length + lighthouse.length;
  console.log(misses ? `${misses} of ${all} figures missed their target.` : `All ${all} figures met their target.`);
  if (misses) process.exitCode = 1;
}

await main();
