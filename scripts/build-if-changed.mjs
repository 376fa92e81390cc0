// Builds the app only when its sources changed since the last build: `npm start`
// after a restart with nothing changed starts at once. The build's own output (hundreds of lines of
// chunk sizes and warnings about nothing) is kept unless the build fails, when all of it is printed.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

/** What the build reads: change any of these and the next start builds again. */
export const BUILD_INPUTS = [
  "app",
  "server",
  "public",
  "prisma",
  "package.json",
  "package-lock.json",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
  "scripts/compress-assets.mjs",
];
const STAMP = path.join("build", ".sources");

/** A fingerprint of every file under the inputs: its path, size and modification time. */
export function sourcesFingerprint(root, inputs = BUILD_INPUTS) {
  const hash = createHash("sha256");
  const visit = (relative) => {
    const full = path.join(root, relative);
    if (!existsSync(full)) return;
    const stat = statSync(full);
    if (stat.isDirectory()) {
      for (const name of readdirSync(full).sort()) if (!name.endsWith(".test.ts") && !name.endsWith(".test.tsx")) visit(path.join(relative, name));
      return;
    }
    hash.update(`${relative}\0${stat.size}\0${stat.mtimeMs}\n`);
  };
  for (const input of inputs) visit(input);
  return hash.digest("hex");
}

/**
 * A second `npm start` beside a running one on the embedded database is refused by the server (one process per
 * data folder); building first would replace the running server's scripts and styles under it. So a start that
 * needs a build stops here when the data folder's lock names a live process.
 */
function refuseUnderARunningServer(root) {
  if (process.env.DATABASE_URL?.trim()) return;
  const lock = path.resolve(root, process.env.DATA_DIR?.trim() || "data", "everlight.lock");
  let holder;
  try {
    holder = JSON.parse(readFileSync(lock, "utf8"));
    process.kill(holder.pid, 0);
  } catch {
    return; // no lock, or its process is gone
  }
  console.error(`Build: not now. An Everlight server (pid ${holder.pid}) is running on this data folder; stop it before starting another.`);
  process.exit(1);
}

/**
 * Builds when needed, and says so: the first build takes a minute or two and writes nothing of its own
 * until it ends, so a line every `every` ms says it is still going (a newcomer's first `npm start` would
 * otherwise look stuck).
 */
export async function buildIfChanged(root = process.cwd(), { every = 15_000 } = {}) {
  const fingerprint = sourcesFingerprint(root);
  const stamp = path.join(root, STAMP);
  if (existsSync(path.join(root, "build", "server", "index.js")) && existsSync(stamp) && readFileSync(stamp, "utf8") === fingerprint) {
    console.log("Build: up to date");
    return;
  }
  refuseUnderARunningServer(root);
  const started = Date.now();
  const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
  console.log("Build: the sources changed, building (about a minute or two the first time)…");
  const ticker = setInterval(() => console.log(`Build: still building (${seconds()})…`), every);
  const child = spawn("npm", ["run", "--silent", "build"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const status = await new Promise((resolve) => child.on("close", (code) => resolve(code)));
  clearInterval(ticker);
  if (status !== 0) {
    process.stderr.write(output);
    console.error("Build: failed (the build's output is above)");
    process.exit(status ?? 1);
  }
  writeFileSync(stamp, fingerprint);
  console.log(`Build: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildIfChanged();
