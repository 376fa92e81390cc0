// The browse page's search and paging at 100,000 memorials (issue: "it must stay fast with 100,000
// memorials"). Starts a throw-away PostgreSQL cluster, applies the migrations, loads 100,000
// memorials (95% published, 90% public) and 100,000 tributes in bulk, ANALYZEs, then times the model
// calls the page makes (browseMemorials, featuredMemorials) and prints median and p95 per case.
// Run: `npm run bench -- browse-search` or `npx tsx bench/browse-search.bench.ts`. Not part of `npm test`.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { startCluster } from "../test/postgres-cluster";
import { browseMemorials, featuredMemorials, type BrowseQuery } from "~/models/memorials/gallery.server";
import { openDatabase, setDatabase } from "~/services/db.server";
import { migrate } from "~/services/migrate.server";

const MEMORIALS = Number(process.env.BENCH_MEMORIALS ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 40);

const FIRST = [
  "Margaret",
  "John",
  "Edith",
  "William",
  "Mary",
  "George",
  "Dorothy",
  "Arthur",
  "Joan",
  "Harold",
  "Elsie",
  "Albert",
  "Winifred",
  "Frank",
  "Ivy",
  "Stanley",
  "Doris",
  "Leonard",
  "Gladys",
  "Ernest",
];
const LAST = [
  "Smith",
  "Jones",
  "Taylor",
  "Brown",
  "Williams",
  "Wilson",
  "Johnson",
  "Davies",
  "Robinson",
  "Wright",
  "Thompson",
  "Evans",
  "Walker",
  "White",
  "Roberts",
  "Green",
  "Hall",
  "Wood",
  "Jackson",
  "Clarke",
  "Okafor",
  "Nowak",
  "Patel",
  "Murphy",
  "MacLeod",
];
const PLACES = ["Leeds", "Cardiff", "the Isle of Skye", "Whitby", "Belfast", "Norwich", "Bristol", "Inverness", "Hull", "Truro"];
const WORK = ["a nurse", "a miner", "a teacher", "a baker", "a postman", "a seamstress", "an engineer", "a farmer", "a shopkeeper", "a bus driver"];
const LOVES = [
  "gardening",
  "brass bands",
  "the sea",
  "crosswords",
  "cricket",
  "baking bread",
  "ballroom dancing",
  "birdwatching",
  "her allotment",
  "his pigeons",
];

function sqlArray(values: string[]) {
  return `ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(",")}]`;
}

async function load(sql: { exec(sql: string): Promise<void> }) {
  await sql.exec(`
    INSERT INTO users (id, email, "firstName", "lastName", password) VALUES ('bench-owner', 'bench@example.test', 'Bench', 'Owner', 'x');
    INSERT INTO memorials ("userId", title, "firstName", "lastName", biography, visibility, "isPublished", "viewCount", category, "createdAt")
    SELECT 'bench-owner',
           f || ' ' || l,
           f, l,
           f || ' ' || l || ' was born in ' || p || ' and worked as ' || w || ' for forty years. ' ||
             'Family and friends remember a love of ' || v || ', a quick laugh and a kind word for everyone. ' ||
             'Sunday lunches, long walks and stories told by the fire: ' || f || ' is missed every day.',
           CASE WHEN g % 20 = 0 THEN 'private' WHEN g % 20 = 1 THEN 'friends' ELSE 'public' END,
           g % 20 <> 2,
           (g * 7919) % 500,
           CASE WHEN g % 10 = 0 THEN 'organization' ELSE 'individual' END,
           now() - make_interval(mins => g)
    FROM (
      SELECT g,
             (${sqlArray(FIRST)})[1 + g % ${FIRST.length}] AS f,
             (${sqlArray(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}] AS l,
             (${sqlArray(PLACES)})[1 + (g / 7) % ${PLACES.length}] AS p,
             (${sqlArray(WORK)})[1 + (g / 11) % ${WORK.length}] AS w,
             (${sqlArray(LOVES)})[1 + (g / 13) % ${LOVES.length}] AS v
      FROM generate_series(1, ${MEMORIALS}) AS g
    ) AS s;
    INSERT INTO tributes ("memorialId", "authorName", content, "isApproved")
    SELECT id, 'A friend', 'Thinking of you all.', (row_number() OVER ()) % 3 <> 0
    FROM (SELECT id FROM memorials ORDER BY random() LIMIT ${MEMORIALS}) AS m;
    ANALYZE;
  `);
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function time(label: string, run: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { case: label, medianMs: +percentile(samples, 50).toFixed(2), p95Ms: +percentile(samples, 95).toFixed(2) };
}

const CASES: [string, BrowseQuery][] = [
  ["newest, page 1", {}],
  ["newest, page 10 (80 cards)", { page: 10 }],
  ["most popular, page 1", { sort: "popular" }],
  ["alphabetical, organizations", { sort: "alphabetical", category: "organization" }],
  ["search 'macleod' (a surname, 4% of rows)", { search: "macleod" }],
  ["search 'isle of skye' (biography words)", { search: "isle of skye" }],
  ["search 'skye', popular, page 5", { search: "skye", sort: "popular", page: 5 }],
  ["search 'jo' (2 letters: no trigram)", { search: "jo" }],
  ["search with no match", { search: "zebra crossing quartet" }],
];

async function main() {
  const cluster = await startCluster();
  const db = openDatabase({ databaseUrl: cluster.url });
  try {
    setDatabase(db);
    await migrate(db.sql);
    const loadStarted = performance.now();
    await load(db.sql);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const rows: { case: string; medianMs: number; p95Ms: number; cards?: number }[] = [];
    for (const [label, query] of CASES) {
      const result = await browseMemorials(query);
      rows.push({ ...(await time(label, () => browseMemorials(query))), cards: result.items.length });
    }
    rows.push(await time("featured carousel (top 3 by views)", () => featuredMemorials(3)));

    console.log(
      `\nBrowse at ${MEMORIALS.toLocaleString("en-GB")} memorials on PostgreSQL (loaded in ${loadSeconds.toFixed(1)} s), ${ITERATIONS} runs each after 3 warm-ups:\n`,
    );
    console.table(rows);
    const report = {
      memorials: MEMORIALS,
      iterations: ITERATIONS,
      machine: { cpus: os.cpus().length, node: process.version },
      takenAt: new Date().toISOString(),
      rows,
    };
    mkdirSync("bench/results", { recursive: true });
    writeFileSync("bench/results/browse-search.json", `${JSON.stringify(report, null, 2)}\n`);
    console.log("Written to bench/results/browse-search.json");
  } finally {
    setDatabase(undefined);
    await db.close().catch(() => {});
    cluster.stop();
  }
}

await main();
