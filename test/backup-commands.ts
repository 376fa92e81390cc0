import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Database } from "~/services/db.server";

// The backup tests' helpers: the commands an operator types, run as they would be, and how two databases
// are compared.

export const dataUrl = (type: string, content: string | Buffer) => `data:${type};base64,${Buffer.from(content).toString("base64")}`;

export type Run = { code: number | null; stdout: string; stderr: string };

/** Runs one of the project's commands (`npm run backup`, `restore`, `jobs`) as an operator would, with this environment. */
export function command(script: "jobs" | "restore", args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(path.resolve("node_modules/.bin/tsx"), [`scripts/${script}.ts`, ...args], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATABASE_URL: "",
        S3_BUCKET: "",
        BACKUP_S3_BUCKET: "",
        BACKUP_DIR: "",
        SMTP_URL: "",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export const lastLine = (text: string) => text.trim().split("\n").at(-1) ?? "";

/** A table's rows as JSON text, in an order that does not depend on the database's collation. */
export async function rowsOf(db: Database, table: string) {
  const rows = await db.sql.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table}" t`);
  return rows.map((r) => r.row).sort();
}

export function freshFolder(name: string) {
  return mkdtempSync(path.join(tmpdir(), `everlight-${name}-`));
}

/** The commands and servers of these tests take seconds each, and longer on a busy machine. */
export const SLOW_TEST_MS = 240_000;
