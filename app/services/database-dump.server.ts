import { spawn, spawnSync } from "node:child_process";
import { createReadStream, existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { SqlDriver } from "./db.server";

// The rows of a database as SQL, made by the databases' own pg_dump and loaded back into either kind: how
// backups hold the database, and how a site moves between the embedded database and PostgreSQL. The
// schema is not dumped: it is the migrations' (a backup names the ones applied, and a restore applies
// those before the rows and the newer ones after), so a dump made by PGlite's pg_dump (PostgreSQL 17)
// loads into PostgreSQL 15 and back.

/**
 * Rows only, one INSERT per 500 rows naming its columns (so neither column order nor a version's defaults
 * matter), tables in the order their foreign keys need; the migrations' own record is the backup's manifest.
 */
export const DUMP_ARGS = [
  "--data-only",
  "--column-inserts",
  "--rows-per-insert=500",
  "--no-owner",
  "--no-privileges",
  "--schema=public",
  "--exclude-table=public._prisma_migrations",
];

export class DumpError extends Error {
  name = "DumpError";
}

/** A PostgreSQL client program (pg_dump): on the PATH, else the newest under /usr/lib/postgresql (Debian). */
export function findPostgresTool(name: string): string | null {
  const which = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  for (let version = 20; version >= 12; version--) {
    const candidate = `/usr/lib/postgresql/${version}/bin/${name}`;
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Runs a program to its end; rejects with what it wrote to stderr when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], env });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    child.on("error", (error) => reject(new DumpError(`${path.basename(command)} could not run: ${error.message}`)));
    child.on("close", (code) => (code === 0 ? resolve() : reject(new DumpError(`${path.basename(command)} failed (exit code ${code}): ${stderr.trim()}`))));
  });
}

/**
 * Writes the rows of the database to `out`, as they were at one moment however many writes go on meanwhile.
 * PostgreSQL: its pg_dump, which reads in one snapshot. The embedded database: its files copied while no
 * statement runs (a moment for the site: how long is `pausedMs`), then PGlite's pg_dump on that copy in a
 * process of its own.
 */
export async function dumpRows(
  sql: SqlDriver,
  out: string,
  { databaseUrl, workDir }: { databaseUrl?: string; workDir: string },
): Promise<{ pausedMs: number }> {
  if (sql.kind === "postgres") {
    if (!databaseUrl) throw new DumpError("Dumping PostgreSQL needs its address (DATABASE_URL).");
    const pgDump = findPostgresTool("pg_dump");
    if (!pgDump)
      throw new DumpError("pg_dump was not found: install PostgreSQL's client programs (Debian: postgresql-client) to back up a PostgreSQL database.");
    await run(pgDump, [...DUMP_ARGS, "--file", out, "--dbname", databaseUrl]);
    return { pausedMs: 0 };
  }
  if (!sql.copyFiles) throw new DumpError("This embedded database lives in memory: there are no files to back up.");
  const copy = path.join(workDir, "db-snapshot");
  try {
    const started = performance.now();
    await sql.copyFiles(copy);
    const pausedMs = performance.now() - started;
    await run(process.execPath, [path.resolve("scripts/pglite-dump.mjs"), copy, out, ...DUMP_ARGS]);
    return { pausedMs };
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

/**
 * The statements of a dump one at a time, as pg_dump wrote them, without its comments, its psql commands
 * (`\restrict`) and its settings (`SET …`, which name settings one version has and another lacks): the
 * loader sets what it needs. Quotes are followed (standard strings, '' inside; "identifiers"), so a `;` or a
 * line in a tribute's text never ends a statement.
 */
export async function* dumpStatements(file: string): AsyncGenerator<string> {
  /** The statement's text from earlier chunks. */
  let pending = "";
  /** Whether the statement has begun (anything but white space since the last one ended). */
  let started = false;
  let quote: "'" | '"' | null = null;
  let skipLine = false;
  for await (const chunk of createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 }) as AsyncIterable<string>) {
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (skipLine) {
        if (c === "\n") {
          skipLine = false;
          pending = "";
          from = i + 1;
        }
      } else if (quote) {
        if (c === quote) quote = null;
      } else if (c === ";") {
        const text = (pending + chunk.slice(from, i + 1)).trim();
        pending = "";
        from = i + 1;
        started = false;
        if (!/^(SET\s|SELECT pg_catalog\.set_config\()/i.test(text)) yield text;
      } else if (!started && (c === "\\" || c === "-")) {
        skipLine = true; // a comment or a psql command: no statement of pg_dump's begins with either
      } else if (c === "'" || c === '"') {
        quote = c;
        started = true;
      } else if (c !== " " && c !== "\n" && c !== "\t" && c !== "\r") {
        started = true;
      }
    }
    if (!skipLine) pending += chunk.slice(from);
  }
  if (pending.trim()) throw new DumpError("The dump ends in the middle of a statement: it is incomplete.");
}

/** The table an `INSERT INTO public.<table> (…)` statement writes to, and how many rows it holds. */
export function insertedRows(statement: string): { table: string; rows: number } | null {
  const head = /^INSERT INTO public\.("(?:[^"]|"")+"|[a-z_][a-z0-9_]*) \(/.exec(statement);
  if (!head) return null;
  const table = head[1].startsWith('"') ? head[1].slice(1, -1).replace(/""/g, '"') : head[1];
  const values = statement.indexOf(") VALUES", head[0].length);
  let rows = 0;
  let depth = 0;
  let quoted = false;
  for (let i = values + ") VALUES".length; i < statement.length; i++) {
    const c = statement[i];
    if (quoted) quoted = c !== "'";
    else if (c === "'") quoted = true;
    else if (c === "(") {
      if (depth === 0) rows++;
      depth++;
    } else if (c === ")") depth--;
  }
  return { table, rows };
}
