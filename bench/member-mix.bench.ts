// Members as they really use the site, against the ceiling. For each database (embedded PGlite, and
// PostgreSQL in a throw-away cluster where initdb/pg_ctl exist, with one server process per core as
// `npm start` runs it) starts the production server with the demo data and registers MEMBERS members,
// each with a memorial of their own and a product in their basket. Then wrk (-t2 -c16, gzip) walks them
// through the site at once: each request is the next member's next page of 18 (the landing page, the
// gallery, eight memorials, My Memorials, the basket, orders, account, subscription, friends, the shop,
// news), and every 20th request one of them leaves a tribute as a browser without JavaScript does (a
// write, which is what makes kept pages stale). No request repeats the one before it.
// The ceiling is node:http answering one member's memorial page from memory (bench/ceiling-server.mjs),
// measured in the same run. Target: ≥ 1 % of it on PGlite and ≥ 1.5 % on PostgreSQL, p99 ≤ 250 ms, no
// answer but 2xx/3xx and no socket error.
// Run: `npm run bench -- member-mix`. BENCH_DATABASES=pglite,postgres (the default) chooses the runs,
// BENCH_DURATION the seconds measured (10), BENCH_NO_BUILD=1 skips the build. Writes
// bench/results/member-mix.json and a Markdown table beside it. The machines are shared and noisy: the
// ratio to the ceiling, measured in the same run, is what compares.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { registerBenchMember } from "./app-server";
import { api, buildUnlessAsked, ensureDebianPackage, loadAverage, onPostgres, pageBytes, startApp, startCeilings, wrk, type Run } from "./page-measure";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 16;
const MEMBERS = 24;
const TRIBUTE_EVERY = 20;
const P99_TARGET_MS = 250;
const TARGET = { pglite: 0.01, postgres: 0.015 } as const;

type Database = keyof typeof TARGET;
type Row = { database: Database; app: Run; node: Run; ratio: number; target: number; pass: boolean; pages: number; members: number };

type Member = { cookie: string; ip: string };

/** A call to the /api as this member, from their address. */
function call(base: string, member: Member, method: string, pathname: string, body: unknown) {
  return api(base, member.cookie, pathname, { method, headers: { "X-Forwarded-For": member.ip }, body: JSON.stringify(body) });
}

/** MEMBERS new members, each with a public memorial of their own and a product in the basket. */
async function members(base: string): Promise<Member[]> {
  const products = (await fetch(`${base}/api/products`).then((r) => r.json())) as { id: string }[];
  if (!products.length) throw new Error("The demo data has no product");
  const list: Member[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const member = await registerBenchMember(base);
    await call(base, member, "POST", "/api/memorials", {
      firstName: "Rose",
      lastName: `Bench ${i + 1}`,
      biography: "She grew roses by the railway line and gave them to everyone who passed.",
      visibility: "public",
      isPublished: true,
    });
    // The first product from this member's turn on that is in stock (some of the demo's are sold out).
    let added = false;
    for (let p = 0; p < products.length && !added; p++) {
      added = await call(base, member, "POST", "/api/cart", { productId: products[(i + p) % products.length].id, quantity: 1 }).then(
        () => true,
        () => false,
      );
    }
    if (!added) throw new Error("No product of the demo data could be put in a basket");
    list.push(member);
  }
  return list;
}

/** Eight public memorials of the demo data (the same for every member, as shared links bring them). */
async function memorials(base: string): Promise<string[]> {
  const found = (await fetch(`${base}/api/memorials`).then((r) => r.json())) as { id: string }[];
  if (found.length < 8) throw new Error(`The demo data has ${found.length} public memorials, fewer than eight`);
  return found.slice(0, 8).map((m) => `/memorials/${m.id}`);
}

function walkPages(memorialPaths: string[]) {
  return ["/", "/memorials", ...memorialPaths, "/my-memorials", "/basket", "/orders", "/account", "/subscription", "/friends", "/products", "/news"];
}

const lua = (text: string) => JSON.stringify(text);

/** The walk as a wrk script: request k is member k mod MEMBERS at their next page; every TRIBUTE_EVERY-th a tribute. */
function walkScript(dir: string, cookies: string[], pages: string[], memorialPaths: string[]) {
  const file = path.join(dir, "walk.lua");
  writeFileSync(
    file,
    `local threads = 0
function setup(thread) threads = threads + 1; thread:set("id", threads) end
cookies = {${cookies.map(lua).join(", ")}}
pages = {${pages.map(lua).join(", ")}}
memorials = {${memorialPaths.map(lua).join(", ")}}
function init(args) n = 0 end
function request()
  n = n + 1
  local k = (n - 1) * 2 + id
  local h = {}
  for name, value in pairs(wrk.headers) do h[name] = value end
  h["Cookie"] = cookies[k % #cookies + 1]
  h["X-Forwarded-For"] = "10." .. id .. "." .. (math.floor(n / 250) % 250) .. "." .. (n % 250 + 1)
  if n % ${TRIBUTE_EVERY} == 0 then
    h["Content-Type"] = "application/x-www-form-urlencoded"
    return wrk.format("POST", memorials[math.floor(k / ${TRIBUTE_EVERY}) % #memorials + 1], h, "authorName=A+friend&content=" .. k .. "+We+remember+her+laugh+in+the+kitchen.")
  end
  return wrk.format("GET", pages[math.floor(k / #cookies) % #pages + 1], h)
end
`,
  );
  return file;
}

async function measure(database: Database, databaseUrl: string): Promise<Row> {
  const app = await startApp(databaseUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), "everlight-member-mix-"));
  chmodSync(dir, 0o755);
  try {
    process.stdout.write(`${database}: registering ${MEMBERS} members… `);
    const list = await members(app.url);
    const memorialPaths = await memorials(app.url);
    const pages = walkPages(memorialPaths);
    // Every page of the walk answers every member (a redirect or an error would measure something else).
    for (const member of list.slice(0, 2)) {
      for (const page of pages) await pageBytes(app.url + page, { Cookie: member.cookie });
    }
    const ceilingFile = path.join(dir, "ceiling.html.gz");
    writeFileSync(ceilingFile, await pageBytes(app.url + memorialPaths[0], { Cookie: list[0].cookie }), { mode: 0o644 });
    const ceilings = await startCeilings(dir, [ceilingFile], false);
    try {
      const script = walkScript(
        dir,
        list.map((m) => m.cookie),
        pages,
        memorialPaths,
      );
      process.stdout.write("walking… ");
      wrk(app.url + "/", 2, { connections: CONNECTIONS, script });
      const appRun = wrk(app.url + "/", DURATION, { connections: CONNECTIONS, script });
      const nodeRun = wrk(ceilings.nodeUrl(0), DURATION, { connections: CONNECTIONS });
      const ratio = appRun.requestsPerSecond / nodeRun.requestsPerSecond;
      const target = TARGET[database];
      const pass = ratio >= target && appRun.p99Ms <= P99_TARGET_MS && appRun.errors === 0 && appRun.non2xx === 0;
      console.log(
        `${appRun.requestsPerSecond} req/s, p99 ${appRun.p99Ms} ms${appRun.non2xx ? `, ${appRun.non2xx} not 2xx/3xx` : ""}${appRun.errors ? `, ${appRun.errors} socket errors` : ""}; node:http ${nodeRun.requestsPerSecond}; ${(ratio * 100).toFixed(2)} %`,
      );
      return { database, app: appRun, node: nodeRun, ratio, target, pass, pages: pages.length, members: MEMBERS };
    } finally {
      await ceilings.stop();
    }
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function table(rows: Row[]) {
  const lines = ["| database | app req/s | app p99 | node:http req/s | ratio | target | result |", "|---|---:|---:|---:|---:|---|---|"];
  for (const r of rows) {
    lines.push(
      `| ${r.database} | ${r.app.requestsPerSecond.toLocaleString("en-GB")} | ${r.app.p99Ms} ms | ${r.node.requestsPerSecond.toLocaleString("en-GB")} | ${(r.ratio * 100).toFixed(2)} % | ≥ ${r.target * 100} %, p99 ≤ ${P99_TARGET_MS} ms | ${r.pass ? "PASS" : "MISS"} |`,
    );
  }
  return lines.join("\n");
}

async function main() {
  if (!ensureDebianPackage("wrk", "wrk")) throw new Error("wrk is missing and could not be installed (apt-get install wrk).");
  buildUnlessAsked();
  const wanted = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",");
  const loadBefore = loadAverage();
  const rows: Row[] = [];
  if (wanted.includes("pglite")) rows.push(await measure("pglite", ""));
  if (wanted.includes("postgres")) {
    const row = await onPostgres("PostgreSQL", (url) => measure("postgres", url));
    if (row) rows.push(row);
  }
  const markdown = table(rows);
  const note = `${MEMBERS} members × ${rows[0]?.pages ?? 18} pages, a tribute every ${TRIBUTE_EVERY} requests; wrk -t2 -c${CONNECTIONS} -d${DURATION}s, gzip; ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}; load average before ${loadBefore}, after ${loadAverage()}.`;
  console.log(`\n${markdown}\n\n${note}`);
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/member-mix.json", `${JSON.stringify({ takenAt: new Date().toISOString(), note, rows }, null, 2)}\n`);
  writeFileSync("bench/results/member-mix.md", `${markdown}\n\n${note}\n`);
  console.log("Written to bench/results/member-mix.json and member-mix.md");
  const misses = rows.filter((r) => !r.pass).length;
  console.log(misses ? `${misses} of ${rows.length} runs missed the target.` : `All ${rows.length} runs met the target.`);
}

await main();
