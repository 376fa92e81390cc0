// Every page a signed-in member or administrator opens, against the ceiling. For each database
// (embedded PGlite, and PostgreSQL in a throw-away cluster where initdb/pg_ctl exist) starts the production
// server with the demo data, signs in as Alice (a member) and as the administrator, takes each page's
// compressed bytes as that person gets them, and measures with wrk (-t2 -c16, BENCH_DURATION seconds, 5 by
// default; gzip; their session cookie):
//   - the app;
//   - node:http answering the same bytes from memory (bench/ceiling-server.mjs), measured in the same run.
// Also anonymous pages that miss the page cache (a new search on every request; a memorial whose family edits it
// ten times a second while visitors read it), addresses of one kept page (a memorial opened from shared links that
// each carry a click id of their own; its tribute list's pages past the last; a new address not found: decision
// 035), and the common form posts
// as a browser without JavaScript sends them (leave a tribute, add to basket, approve a tribute: each a write
// and a redirect; the ceiling answers an empty body).
// Prints each page's requests/s, p99 and ratio to the ceiling against its target (≥ 1 % on PGlite, ≥ 2 % on
// PostgreSQL, posts ≥ 0.5 %, p99 ≤ 100 ms), writes bench/results/member-pages.json and a Markdown table beside it.
// On PostgreSQL the server runs as `npm start` does, one process per core; then a scaling section measures
// a few pages (SCALING_PAGES, or the first three kept) with each of BENCH_WORKERS (default 1 and every core,
// os.availableParallelism()) and prints requests/s per setting and the gain over one process.
// The third run is PostgreSQL at scale: 100,000 memorials and 1,000,000 tributes added to the demo data
// (bench/bulk-data.ts; BENCH_MEMORIALS / BENCH_TRIBUTES to change).
// Run: `npm run bench -- member-pages`. BENCH_DATABASES=pglite,postgres,postgres-100k (the default) chooses the runs;
// BENCH_PAGES=word,word keeps the pages whose name holds one of the words; BENCH_NO_BUILD=1 skips the build.
// The machines are shared and noisy: the figures are indicative; the ratio is what compares.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { loadBulkDataAt } from "./bulk-data";
import { api, buildUnlessAsked, ensureDebianPackage, loadAverage, onPostgres, pageBytes, startApp, startCeilings, wrk, type Run } from "./page-measure";

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 1);
const CONNECTIONS = 16;
const P99_TARGET_MS = 100;
const TARGET: Record<Database, number> = { pglite: 0.01, postgres: 0.02, "postgres-100k": 0.02 };
/** The common form posts: ≥ 0.5 % on both databases. */
const POST_TARGET = 0.005;
/** An anonymous page that misses the page cache: ≥ 1 % on both databases. */
const MISS_TARGET = 0.01;

type Database = "pglite" | "postgres" | "postgres-100k";
type Who = "member" | "admin" | "visitor";
/**
 * `miss`: a page no cache can have, or whose kept copy is dropped while it is measured (its target is MISS_TARGET
 * on every database). `alongside`: a node script run (with its arguments) while the app is measured. `status`: the
 * status every answer must have, when not 2xx or 3xx (the not-found page).
 */
type Page = { name: string; path: string; who: Who; script?: string; post?: boolean; miss?: boolean; warmUp?: number; alongside?: string[]; status?: number };
type ScalingRow = { page: string; workers: number; app: Run; gain: number };
type Row = { database: Database; page: string; path: string; who: Who; bytes: number; app: Run; node: Run; ratio: number; target: number; pass: boolean };

/** Signs in through the /api and returns the session cookie. */
async function signIn(base: string, email: string, password: string) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": `10.77.${Math.floor(Math.random() * 250)}.1` },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`Signing in as ${email} answered ${res.status}: ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
}

/**
 * A wrk script asking for an address no one asked for before on every request, so that no cache has it: `address`
 * is Lua text of the address, from `n` (the thread's request count) and `id` (the thread's number).
 */
function newAddressesScript(dir: string, name: string, address: string) {
  const file = path.join(dir, `${name}.lua`);
  writeFileSync(
    file,
    `local threads = 0
function setup(thread) threads = threads + 1; thread:set("id", threads) end
function init(args) n = 0 end
function request() n = n + 1; return wrk.format("GET", ${address}) end
`,
  );
  return file;
}

/**
 * A family editing their memorial every `everyMs` through the /api while visitors read it (each edit drops the
 * page's kept copy): a process of its own, since wrk holds this one. It prints how many edits it made when stopped.
 */
function editorScript(dir: string, base: string, cookie: string, memorialId: string, everyMs: number) {
  const file = path.join(dir, "editor.mjs");
  writeFileSync(
    file,
    `const [base, cookie, id, every] = process.argv.slice(2);
let edits = 0;
const edit = () =>
  fetch(base + "/api/memorials/" + id, {
    method: "PUT",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify({ biography: "She kept bees on the hill. Edit " + (edits + 1) + "." }),
  }).then((res) => (res.ok ? edits++ : console.error("An edit answered " + res.status)));
const timer = setInterval(() => edit().catch((error) => console.error(error.message)), Number(every));
process.on("SIGTERM", () => { clearInterval(timer); console.log("edits " + edits); process.exit(0); });
`,
  );
  return [file, base, cookie, memorialId, String(everyMs)];
}

/**
 * A wrk script posting a form (as a browser without JavaScript does) with the session cookie, each request from an
 * address of its own (X-Forwarded-For: the app trusts it in the bench), so that per-address limits meant for
 * strangers do not turn the measure into one of refusals. `body` is Lua text; `i` numbers the requests overall.
 */
function postScript(dir: string, name: string, pathname: string, body: string, lua = "") {
  const file = path.join(dir, `${name}.lua`);
  writeFileSync(
    file,
    `local threads = 0
function setup(thread) threads = threads + 1; thread:set("id", threads) end
function init(args) n = 0 end
${lua}
function request()
  n = n + 1
  local i = (n - 1) * 2 + id
  local h = {}
  for k, v in pairs(wrk.headers) do h[k] = v end
  h["Content-Type"] = "application/x-www-form-urlencoded"
  h["X-Forwarded-For"] = "10." .. id .. "." .. (math.floor(n / 250) % 250) .. "." .. (n % 250 + 1)
  return wrk.format("POST", "${pathname}", h, ${body})
end
`,
  );
  return file;
}

/** The pages, with the member's own memorial, and a product in the basket so that checkout opens. */
async function pages(base: string, member: string, admin: string, dir: string): Promise<Page[]> {
  const me = await api<{ id: string }>(base, member, "/api/auth/user");
  const mine = await api<{ id: string; visibility: string; isPublished: boolean }[]>(base, member, `/api/memorials?userId=${me.id}`);
  const memorial = mine[0];
  if (!memorial) throw new Error("The demo member has no memorial");
  const open = mine.find((one) => one.visibility === "public" && one.isPublished);
  if (!open) throw new Error("The demo member has no public memorial");
  const products = await api<{ id: string; category?: string }[]>(base, member, "/api/products");
  if (products[0]) await api(base, member, "/api/cart", { method: "POST", body: JSON.stringify({ productId: products[0].id, quantity: 1 }) }).catch(() => {});
  // A product with stock enough for every "add to basket" the bench sends.
  const product = await api<{ id: string }>(base, admin, "/api/admin/products", {
    method: "POST",
    body: JSON.stringify({ name: "Bench candle", description: "Plenty of them", price: 500, category: "Candles", stockQuantity: 1_000_000 }),
  });
  const productId = product.id;
  const m = `/memorials/${memorial.id}`;
  const list: Page[] = [
    { name: "landing", path: "/", who: "member" },
    { name: "memorial page (own)", path: m, who: "member" },
    { name: "memorial edit", path: `${m}/edit`, who: "member" },
    { name: "memorial events", path: `${m}/events`, who: "member" },
    { name: "memorial timeline", path: `${m}/timeline`, who: "member" },
    { name: "my memorials", path: "/my-memorials", who: "member" },
    { name: "browse", path: "/memorials", who: "member" },
    { name: "basket", path: "/basket", who: "member" },
    { name: "checkout", path: "/checkout", who: "member" },
    { name: "orders", path: "/orders", who: "member" },
    { name: "subscription", path: "/subscription", who: "member" },
    { name: "vault", path: "/vault", who: "member" },
    { name: "friends", path: "/friends", who: "member" },
    { name: "news", path: "/news", who: "member" },
    { name: "account", path: "/account", who: "member" },
    { name: "account, following", path: "/account/following", who: "member" },
    { name: "terms", path: "/terms", who: "member" },
    { name: "admin", path: "/admin", who: "admin" },
    ...["users", "tributes", "orders", "products", "contact", "feedback", "news", "analytics", "audit"].map((tab) => ({
      name: `admin, ${tab}`,
      path: `/admin/${tab}`,
      who: "admin" as const,
    })),
    {
      name: "a new search (no page cache)",
      path: "/memorials?search=q0x0",
      who: "visitor",
      miss: true,
      script: newAddressesScript(dir, "new-search", `"/memorials?search=q" .. id .. "x" .. n`),
    },
    {
      // Every address not found is one kept page (decision 035): before, each new one was a render (0.78–0.98 %).
      name: "a new address not found",
      path: "/no-such-page-0-0",
      who: "visitor",
      status: 404,
      script: newAddressesScript(dir, "new-address", `"/no-such-page-" .. id .. "-" .. n`),
    },
    {
      name: "a memorial edited 10 times a second (page cache dropped)",
      path: `/memorials/${open.id}`,
      who: "visitor",
      miss: true,
      alongside: editorScript(dir, base, member, open.id, 100),
    },
    {
      // Facebook adds a click id of its own to each link followed from it (decision 035).
      name: "a memorial opened from shared links, each with its own click id",
      path: `/memorials/${open.id}?fbclid=IwAR0x0&utm_source=facebook`,
      who: "visitor",
      script: newAddressesScript(dir, "shared-links", `"/memorials/${open.id}?fbclid=IwAR" .. id .. "x" .. n .. "&utm_source=facebook"`),
    },
    {
      // Page numbers past the last show the last page, each at an address of its own: before decision 035 each was
      // a render (the memorial page rendered on every request: 0.38–0.50 % of the ceiling).
      name: "a memorial's tribute pages past the last, each new",
      path: `/memorials/${open.id}?tributes=9999`,
      who: "visitor",
      script: newAddressesScript(dir, "tribute-pages", `"/memorials/${open.id}?tributes=" .. ((n * 2 + id) % 9998 + 2)`),
    },
    {
      name: "post: leave a tribute",
      path: m,
      who: "member",
      post: true,
      script: postScript(dir, "tribute", m, `"authorName=Alice+Morgan&content=" .. i .. "+We+remember+the+songs+she+sang+in+the+kitchen."`),
    },
    {
      name: "post: add to basket",
      path: "/products",
      who: "member",
      post: true,
      script: postScript(dir, "basket", "/products", `"productId=${productId}&quantity=1"`),
    },
  ];
  const wanted = process.env.BENCH_PAGES?.split(",").filter(Boolean);
  return wanted ? list.filter((p) => wanted.some((w) => p.name.includes(w))) : list;
}

/** The pages the scaling section measures (the first three kept when none of these is). */
/** Kept pages, and one no cache can have: where more processes show most. */
const SCALING_PAGES = ["landing", "my memorials", "a new search (no page cache)"];

/** Each page's app figures with WORKERS=n for each n (PostgreSQL only: the embedded database is one process). */
async function scaling(databaseUrl: string): Promise<ScalingRow[]> {
  const settings = (process.env.BENCH_WORKERS ?? `1,${os.availableParallelism()}`)
    .split(",")
    .map(Number)
    .filter((n, i, all) => Number.isInteger(n) && n > 0 && all.indexOf(n) === i);
  const rows: ScalingRow[] = [];
  for (const workers of settings) {
    const app = await startApp(databaseUrl, { WORKERS: String(workers) });
    const dir = mkdtempSync(path.join(os.tmpdir(), "everlight-member-scaling-"));
    try {
      const cookie = await signIn(app.url, "alice@everlight.test", "AliceDemo123");
      const admin = await signIn(app.url, "admin@everlight.test", "AdminDemo123");
      const list = await pages(app.url, cookie, admin, dir);
      const chosen = list.filter((p) => SCALING_PAGES.includes(p.name));
      for (const page of chosen.length ? chosen : list.slice(0, 3)) {
        process.stdout.write(`postgres, WORKERS=${workers}, ${page.name}: `);
        const options = {
          connections: CONNECTIONS,
          headers: (page.who === "visitor" ? {} : { Cookie: cookie }) as Record<string, string>,
          script: page.script,
        };
        wrk(app.url + page.path, WARM_UP, options);
        const run = wrk(app.url + page.path, DURATION, options);
        const one = rows.find((r) => r.page === page.name && r.workers === settings[0]);
        rows.push({ page: page.name, workers, app: run, gain: one ? run.requestsPerSecond / one.app.requestsPerSecond : 1 });
        console.log(`${run.requestsPerSecond} req/s, p99 ${run.p99Ms} ms`);
      }
    } finally {
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

function scalingTable(rows: ScalingRow[]) {
  const lines = ["| page | WORKERS | app req/s | app p99 | gain |", "|---|---:|---:|---:|---:|"];
  for (const r of rows) {
    lines.push(`| ${r.page} | ${r.workers} | ${r.app.requestsPerSecond.toLocaleString("en-GB")} | ${r.app.p99Ms} ms | × ${r.gain.toFixed(2)} |`);
  }
  return lines.join("\n");
}

async function measure(database: Database, databaseUrl: string): Promise<Row[]> {
  const app = await startApp(databaseUrl);
  const dir = mkdtempSync(path.join(os.tmpdir(), "everlight-member-ceiling-"));
  chmodSync(dir, 0o755);
  try {
    const cookies: Record<Who, string> = {
      member: await signIn(app.url, "alice@everlight.test", "AliceDemo123"),
      admin: await signIn(app.url, "admin@everlight.test", "AdminDemo123"),
      visitor: "",
    };
    const headersOf = (who: Who): Record<string, string> => (cookies[who] ? { Cookie: cookies[who] } : {});
    const list = await pages(app.url, cookies.member, cookies.admin, dir);
    const files: string[] = [];
    const sizes: number[] = [];
    const kept: Page[] = [];
    for (const page of list) {
      try {
        // A form post is answered by a redirect without a body: the ceiling answers an empty one.
        const gzip = page.post ? gzipSync(Buffer.alloc(0)) : await pageBytes(app.url + page.path, headersOf(page.who));
        const file = path.join(dir, `p${kept.length}.html.gz`);
        writeFileSync(file, gzip, { mode: 0o644 });
        files.push(file);
        sizes.push(gzip.length);
        kept.push(page);
      } catch (error) {
        console.log(`${database} ${page.name}: left out, ${(error as Error).message}`);
      }
    }
    const ceilings = await startCeilings(dir, files, false);
    const rows: Row[] = [];
    try {
      const run = (page: Page, i: number, check?: (app: Run) => Promise<string | null>) =>
        measurePage(database, app.url, page, ceilings.nodeUrl(i), sizes[i], headersOf(page.who), check);
      for (const [i, page] of kept.entries()) {
        // A refused tribute is answered 400 or 429, which the run counts (not 2xx or 3xx) and fails on.
        rows.push(await run(page, i));
        if (page.name === "post: leave a tribute") {
          // Approving: each post approves another tribute waiting (a post for one approved already is refused).
          const pending = await leaveTributes(app.url, cookies.member, page.path.split("/").pop()!, APPROVALS);
          const lua = `ids = {${pending.map((t) => `"${t.id}"`).join(",")}}`;
          const approve: Page = {
            name: "post: approve a tribute",
            path: page.path,
            who: "member",
            post: true,
            warmUp: 0,
            script: postScript(dir, "approve", page.path, `"intent=approve&tributeId=" .. (ids[i] or ids[#ids])`, lua),
          };
          rows.push(
            await run(approve, i, async (appRun) => (appRun.requests! <= pending.length ? null : `${appRun.requests} posts for ${pending.length} tributes`)),
          );
        }
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

/** Tributes enough for the approvals the bench may send: 1,600 a second, twice the fastest measured. */
const APPROVALS = Number(process.env.BENCH_APPROVALS ?? DURATION * 1_600);

/** The member leaves `count` tributes on a memorial through the /api (16 at a time, each from an address of its own); answers their ids. */
async function leaveTributes(base: string, cookie: string, memorialId: string, count: number): Promise<{ id: string }[]> {
  const ids: { id: string }[] = [];
  let next = 0;
  const one = async () => {
    for (let n = next++; n < count; n = next++) {
      const post = () =>
        fetch(`${base}/api/memorials/${memorialId}/tributes`, {
          method: "POST",
          headers: { Cookie: cookie, "Content-Type": "application/json", "X-Forwarded-For": `10.99.${Math.floor(n / 250) % 250}.${(n % 250) + 1}` },
          body: JSON.stringify({ authorName: "A friend", content: `To approve, number ${n}: thinking of you all.` }),
        });
      // A kept-alive connection the server closed while wrk ran fails once: try again on a new one.
      const res = await post().catch(post);
      if (res.status !== 201) throw new Error(`Leaving a tribute answered ${res.status}: ${await res.text()}`);
      ids.push((await res.json()) as { id: string });
    }
  };
  await Promise.all(Array.from({ length: 16 }, one));
  return ids;
}

/** Stops a script run alongside a measure; answers what it printed last (how much it did). */
function stopAlongside(child: ChildProcess): Promise<string> {
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => {
    child.on("exit", () => resolve(out.trim().split("\n").at(-1) ?? ""));
    child.kill("SIGTERM");
  });
}

/** One page or post against its ceiling. `check` may say why the run does not count (null: it does). */
async function measurePage(
  database: Database,
  base: string,
  page: Page,
  ceilingUrl: string,
  bytes: number,
  headers: Record<string, string>,
  check?: (app: Run) => Promise<string | null>,
): Promise<Row> {
  process.stdout.write(`${database} ${page.name}: `);
  const options = { connections: CONNECTIONS, headers, script: page.script };
  if (page.warmUp ?? WARM_UP) wrk(base + page.path, page.warmUp ?? WARM_UP, options);
  const alongside = page.alongside ? spawn(process.execPath, page.alongside, { stdio: ["ignore", "pipe", "inherit"] }) : null;
  const appRun = wrk(base + page.path, DURATION, options);
  const along = alongside ? await stopAlongside(alongside) : "";
  const nodeRun = wrk(ceilingUrl, DURATION, { connections: CONNECTIONS });
  const ratio = appRun.requestsPerSecond / nodeRun.requestsPerSecond;
  const target = page.post ? POST_TARGET : page.miss ? MISS_TARGET : TARGET[database];
  const problem = (await check?.(appRun)) ?? null;
  // wrk counts answers not 2xx or 3xx: a page answered 404 must be so every time, any other never.
  const expectedNon2xx = (page.status ?? 200) >= 400 ? appRun.requests : 0;
  const pass = !problem && ratio >= target && appRun.p99Ms <= P99_TARGET_MS && appRun.errors === 0 && appRun.non2xx === expectedNon2xx;
  console.log(
    `${appRun.requestsPerSecond} req/s, p99 ${appRun.p99Ms} ms${along ? ` (${along})` : ""}${appRun.non2xx ? `, ${appRun.non2xx} not 2xx` : ""}; node:http ${nodeRun.requestsPerSecond}; ${(ratio * 100).toFixed(2)} %${problem ? `; ${problem}` : ""}`,
  );
  return { database, page: page.name, path: page.path, who: page.who, bytes, app: appRun, node: nodeRun, ratio, target, pass };
}

function table(rows: Row[]) {
  const lines = [
    "| database | page | who | gzip bytes | app req/s | app p99 | node:http req/s | ratio | target | result |",
    "|---|---|---|---:|---:|---:|---:|---:|---|---|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.database} | ${r.page} | ${r.who} | ${r.bytes.toLocaleString("en-GB")} | ${r.app.requestsPerSecond.toLocaleString("en-GB")} | ${r.app.p99Ms} ms | ${r.node.requestsPerSecond.toLocaleString("en-GB")} | ${(r.ratio * 100).toFixed(2)} % | ≥ ${r.target * 100} %, p99 ≤ ${P99_TARGET_MS} ms | ${r.pass ? "PASS" : "MISS"} |`,
    );
  }
  return lines.join("\n");
}

async function main() {
  if (!ensureDebianPackage("wrk", "wrk")) throw new Error("wrk is missing and could not be installed (apt-get install wrk).");
  buildUnlessAsked();
  const wanted = (process.env.BENCH_DATABASES ?? "pglite,postgres,postgres-100k").split(",");
  const loadBefore = loadAverage();
  const rows: Row[] = [];
  if (wanted.includes("pglite")) rows.push(...(await measure("pglite", "")));
  let scaled: ScalingRow[] = [];
  if (wanted.includes("postgres")) {
    const measured = await onPostgres("PostgreSQL", async (url) => ({ rows: await measure("postgres", url), scaled: await scaling(url) }));
    rows.push(...(measured?.rows ?? []));
    scaled = measured?.scaled ?? [];
  }
  if (wanted.includes("postgres-100k")) {
    const measured = await onPostgres("PostgreSQL at scale", async (url) => {
      // The demo data first (the app seeds an empty database only), then the bulk beside it.
      await (await startApp(url)).stop();
      await loadBulkDataAt(url);
      return measure("postgres-100k", url);
    });
    rows.push(...(measured ?? []));
  }
  const markdown = table(rows) + (scaled.length ? `\n\nScaling on PostgreSQL (server processes, WORKERS):\n\n${scalingTable(scaled)}` : "");
  const note = `wrk -t2 -c${CONNECTIONS} -d${DURATION}s, gzip, signed in; ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}; load average before ${loadBefore}, after ${loadAverage()}.`;
  console.log(`\n${markdown}\n\n${note}`);
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/member-pages.json", `${JSON.stringify({ takenAt: new Date().toISOString(), note, rows, scaling: scaled }, null, 2)}\n`);
  writeFileSync("bench/results/member-pages.md", `${markdown}\n\n${note}\n`);
  console.log("Written to bench/results/member-pages.json and member-pages.md");
  const misses = rows.filter((r) => !r.pass).length;
  console.log(misses ? `${misses} of ${rows.length} pages missed their target.` : `All ${rows.length} pages met their target.`);
}

await main();
