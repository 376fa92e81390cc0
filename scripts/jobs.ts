// `npm run jobs -- <name>`: runs one round of a background job now, against the configured database (the
// embedded one in DATA_DIR, or DATABASE_URL), under the same claims as the server's own rounds. When a server
// holds the embedded database, the job runs in that server (server/control.ts): nothing else may open it.
// `npm run backup` is `npm run jobs -- backup`; its last line is the archive's path.
import http from "node:http";
import process from "node:process";
import { JOB_ALIASES, JOBS, isJobName, type JobName } from "../server/jobs";
import type { ControlLine } from "../server/control";
import { DataFolderInUseError, lockHolderOf, type LockHolder } from "../app/services/data-lock.server";
import { closeDatabase, getDatabase } from "../app/services/db.server";
import { getEnv } from "../app/services/env.server";
import { pendingMigrations } from "../app/services/migrate.server";

const args = process.argv.slice(2);
const asked = args.find((arg) => !arg.startsWith("--"));
const withVaultKey = args.includes("--with-vault-key");
const name = asked ? (JOB_ALIASES[asked] ?? asked) : undefined;

function usage() {
  const width = Math.max(...Object.keys(JOBS).map((n) => n.length));
  return [
    "Usage: npm run jobs -- <name>   (npm run backup [-- --with-vault-key] for a backup)",
    "",
    ...Object.entries(JOBS).map(([job, { about }]) => `  ${job.padEnd(width)}  ${about}`),
    `  ${"digests".padEnd(width)}  the same as mail`,
  ].join("\n");
}

/** The job's last line: a backup's archive, else what the round did. */
function finalLine(job: JobName, result: unknown) {
  if (job === "backup" && result && typeof result === "object" && "location" in result) return String(result.location);
  return `Done: ${JSON.stringify(result, (_key, value: unknown) => (typeof value === "bigint" ? Number(value) : value))}`;
}

/** Asks the server that holds the embedded database to run the job, printing its progress as it comes. */
function runThrough(holder: LockHolder & { control: NonNullable<LockHolder["control"]> }, job: JobName): Promise<number> {
  console.log(`The server (pid ${holder.pid}) holds the database: the job runs there.`);
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: holder.control.port,
        path: `/jobs/${job}`,
        method: "POST",
        headers: { authorization: `Bearer ${holder.control.token}`, "content-type": "application/json" },
      },
      (response) => {
        if (response.statusCode !== 200) {
          console.error(`The server refused the job (${response.statusCode}).`);
          response.resume();
          return resolve(1);
        }
        let buffered = "";
        let code = 1;
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          buffered += chunk;
          let newline;
          while ((newline = buffered.indexOf("\n")) >= 0) {
            const line = JSON.parse(buffered.slice(0, newline)) as ControlLine;
            buffered = buffered.slice(newline + 1);
            if ("log" in line) console.log(line.log);
            else if ("result" in line) {
              console.log(finalLine(job, line.result));
              code = 0;
            } else console.error(`The job failed: ${line.error}`);
          }
        });
        response.on("end", () => resolve(code));
        response.on("error", () => resolve(1));
      },
    );
    request.on("error", (error) => {
      console.error(`Could not reach the server that holds the database: ${error.message}`);
      resolve(1);
    });
    request.end(JSON.stringify({ withVaultKey }));
  });
}

async function runHere(job: JobName): Promise<number> {
  const db = getDatabase();
  try {
    const pending = await pendingMigrations(db.sql);
    if (pending.length) {
      console.error(
        `The database is not up to date (${pending.length} migration${pending.length === 1 ? "" : "s"} to apply): run \`npm run db:migrate\` or start the server once.`,
      );
      return 1;
    }
    const result = await JOBS[job].run({ log: (line) => console.log(line), withVaultKey });
    console.log(finalLine(job, result));
    return 0;
  } finally {
    await closeDatabase();
  }
}

async function main(): Promise<number> {
  if (!name || args.includes("--help")) {
    console.log(usage());
    return name ? 0 : 2;
  }
  if (!isJobName(name)) {
    console.error(`There is no job called ${asked}.\n\n${usage()}`);
    return 2;
  }
  const env = getEnv();
  if (!env.DATABASE_URL) {
    const holder = lockHolderOf(env.dataDir);
    if (holder?.control) return runThrough({ ...holder, control: holder.control }, name);
    if (holder) throw new DataFolderInUseError(env.dataDir, holder);
  }
  return runHere(name);
}

// The code is set once the database is closed: the embedded one's shutdown sets the process's exit code of its own.
let code: number;
try {
  code = await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  code = 1;
}
process.exitCode = code;
