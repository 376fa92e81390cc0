// Whether "Forgot your password?" tells who has an account by how long it takes:
// the built server on PGlite, BENCH_RESETS (100 by default) members, and as many addresses that belong
// to nobody. Each address is asked for once, known and unknown in turn, each from an address of its own
// (so no limit is met), and the time to the answer is taken. Prints the median and p90 of each and
// their difference, and writes bench/results/forgot-password.json.
// Run `npm run build`, then `npm run bench -- forgot-password`.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomIp, registerBenchMember, startBenchApp } from "./app-server";

const COUNT = Number(process.env.BENCH_RESETS ?? 100);
/** Of the medians: what a person timing the page could not tell from the noise of the network. */
const TARGET_MS = 2;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

async function ask(base: string, email: string) {
  const started = performance.now();
  const res = await fetch(`${base}/forgot-password`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": randomIp() },
    body: new URLSearchParams({ email }),
  });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  if (res.status !== 303) throw new Error(`/forgot-password answered ${res.status}`);
  return ms;
}

const app = await startBenchApp();
try {
  const known: string[] = [];
  for (let i = 0; i < COUNT; i++) known.push((await registerBenchMember(app.url)).email);
  const unknown = known.map(() => `nobody-${randomBytes(5).toString("hex")}@example.test`);
  // Warm up the page and the database on addresses that take no part in the figures.
  for (let i = 0; i < 20; i++) await ask(app.url, `warm-${i}-${randomBytes(3).toString("hex")}@example.test`);
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < COUNT; i++) {
    times.known.push(await ask(app.url, known[i]));
    times.unknown.push(await ask(app.url, unknown[i]));
  }
  const figures = Object.fromEntries(Object.entries(times).map(([kind, ms]) => [kind, { median: percentile(ms, 50), p90: percentile(ms, 90) }]));
  const difference = Math.abs(figures.known.median - figures.unknown.median);
  for (const [kind, { median, p90 }] of Object.entries(figures))
    console.log(`${kind} addresses: median ${median.toFixed(2)} ms, p90 ${p90.toFixed(2)} ms (${COUNT} requests)`);
  console.log(`difference of the medians: ${difference.toFixed(2)} ms (target < ${TARGET_MS} ms) ${difference < TARGET_MS ? "✓" : "✗"}`);
  mkdirSync(path.join("bench", "results"), { recursive: true });
  writeFileSync(
    path.join("bench", "results", "forgot-password.json"),
    JSON.stringify({ at: new Date().toISOString(), count: COUNT, figures, difference, targetMs: TARGET_MS }, null, 2),
  );
  if (difference >= TARGET_MS) process.exitCode = 1;
} finally {
  await app.stop();
}
