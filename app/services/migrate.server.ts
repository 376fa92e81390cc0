import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SqlDriver } from "./db.server";

// Applies prisma/migrations/<stamp>_<name>/migration.sql in order, each once, each in its own
// transaction, and records them in `_prisma_migrations` exactly as Prisma does (same columns, sha256
// checksum of the file), so `prisma migrate deploy` sees them as applied wherever its engine can be
// had. Why not the engine itself: docs/decisions/002-migrations-without-the-schema-engine.md.

export type Migration = { name: string; sql: string; checksum: string };

export class MigrationError extends Error {
  constructor(
    readonly migrationName: string,
    readonly cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Migration ${migrationName} failed and was rolled back; the database is as it was before it.\n` +
        `Reason: ${reason}\nFix the migration (or the database) and start again.`,
    );
    this.name = "MigrationError";
  }
}

const MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
);`;

// Any constant will do: it only has to be the same for every instance of the app, so that two
// instances starting together on one PostgreSQL do not apply the same migration twice.
const ADVISORY_LOCK_KEY = 7_207_369_001;

export const defaultMigrationsDir = path.resolve("prisma/migrations");

export function readMigrations(dir = defaultMigrationsDir): Migration[] {
  if (!existsSync(dir)) throw new Error(`Migrations folder not found: ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

type AppliedRow = { migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null };

export type MigrateResult = { applied: string[]; alreadyApplied: string[]; warnings: string[] };

export async function migrate(sql: SqlDriver, migrations: Migration[] = readMigrations()): Promise<MigrateResult> {
  // The whole run, the table's creation too, under one lock: instances starting together take turns.
  return sql.withLock(ADVISORY_LOCK_KEY, async () => {
    await sql.exec(MIGRATIONS_TABLE);
    const result: MigrateResult = { applied: [], alreadyApplied: [], warnings: [] };
    const rows = await sql.query<AppliedRow>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`);
    const done = new Map(rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => [r.migration_name, r]));
    for (const migration of migrations) {
      const previous = done.get(migration.name);
      if (previous) {
        result.alreadyApplied.push(migration.name);
        if (previous.checksum !== migration.checksum) {
          result.warnings.push(`Migration ${migration.name} was changed after it was applied; the change is ignored.`);
        }
        continue;
      }
      try {
        await sql.transaction(async (tx) => {
          await tx.exec(migration.sql);
          await tx.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
             VALUES ($1, $2, $3, now(), now(), 1)`,
            [randomUUID(), migration.checksum, migration.name],
          );
        });
      } catch (error) {
        throw new MigrationError(migration.name, error);
      }
      result.applied.push(migration.name);
    }
    return result;
  });
}

/** The migrations not yet applied to the database (a command that runs jobs refuses an out-of-date one). */
export async function pendingMigrations(sql: SqlDriver, migrations: Migration[] = readMigrations()): Promise<string[]> {
  const [{ exists }] = await sql.query<{ exists: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS exists`);
  if (!exists) return migrations.map((m) => m.name);
  const rows = await sql.query<{ migration_name: string }>(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const done = new Set(rows.map((r) => r.migration_name));
  return migrations.filter((m) => !done.has(m.name)).map((m) => m.name);
}
