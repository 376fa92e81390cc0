// `npm run bench [name…]`: runs every bench/*.bench.ts (or only those whose name contains one of the
// arguments) one after another, each in its own process, and says which failed. Benchmarks print
// figures and write bench/results/*.json; they are never part of `npm test`, which must stay quick.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import process from "node:process";

const here = path.dirname(new URL(import.meta.url).pathname);
const wanted = process.argv.slice(2);
const all = readdirSync(here)
  .filter((f) => /\.bench\.(ts|mjs)$/.test(f))
  .sort();
const chosen = wanted.length ? all.filter((f) => wanted.some((w) => f.includes(w))) : all;
if (!chosen.length) {
  console.error(`No benchmark matches ${wanted.join(", ")}. There are: ${all.join(", ")}`);
  process.exit(2);
}
const failed = [];
for (const file of chosen) {
  console.log(`\n▶ ${file}`);
  const result = spawnSync("npx", ["--no-install", "tsx", path.join("bench", file)], { stdio: "inherit" });
  if (result.status !== 0) failed.push(file);
}
if (failed.length) {
  console.error(`\nFailed: ${failed.join(", ")}`);
  process.exit(1);
}
