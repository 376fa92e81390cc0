import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { createPostgresDatabase, emptyDatabaseKinds } from "../../test/databases";
import { openDatabase, type Database } from "./db.server";
import { migrate, MigrationError, readMigrations } from "./migrate.server";

const tables = (db: Database) =>
  db.sql
    .query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`)
    .then((rows) => rows.map((r) => r.table_name));

describe.each(emptyDatabaseKinds)("migrations on $name", ({ skip, open }) => {
  let db: Database;
  beforeEach(async (ctx) => {
    if (skip) ctx.skip(skip);
    db = await open();
  });
  afterEach(async () => db?.close());

  it("applies every migration to an empty database and records it as Prisma does", async () => {
    const migrations = readMigrations();
    const result = await migrate(db.sql, migrations);
    expect(result.applied).toEqual(migrations.map((m) => m.name));
    expect(await tables(db)).toEqual(
      expect.arrayContaining([
        "_prisma_migrations",
        "users",
        "sessions",
        "memorials",
        "memorial_media",
        "tributes",
        "memorial_shares",
        "feedback",
        "popup_states",
        "products",
        "cart_items",
        "orders",
        "order_items",
        "news_articles",
        "friend_requests",
        "friendships",
        "vault_files",
        "vault_passwords",
        "contact_messages",
      ]),
    );
    const rows = await db.sql.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    const first = migrations[0];
    const fileChecksum = createHash("sha256")
      .update(readFileSync(path.resolve("prisma/migrations", first.name, "migration.sql")))
      .digest("hex");
    expect(rows[0]).toMatchObject({ migration_name: first.name, checksum: fileChecksum, applied_steps_count: 1 });
    expect(rows[0].finished_at).not.toBeNull();
  });

  it("applies nothing on a second run", async () => {
    await migrate(db.sql);
    const again = await migrate(db.sql);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied).toEqual(readMigrations().map((m) => m.name));
    const [{ count }] = await db.sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM "_prisma_migrations"`);
    expect(count).toBe(readMigrations().length);
  });

  describe("with a broken migration", () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), "everlight-migrations-"));
      const write = (name: string, sql: string) => {
        mkdirSync(path.join(dir, name));
        writeFileSync(path.join(dir, name, "migration.sql"), sql);
      };
      write("20260101000000_good", `CREATE TABLE "good_table" ("id" INTEGER PRIMARY KEY);`);
      // The first statement succeeds, the second fails: the first must be rolled back too.
      write("20260102000000_broken", `CREATE TABLE "half_done" ("id" INTEGER PRIMARY KEY);\nINSERT INTO "no_such_table" VALUES (1);`);
      write("20260103000000_after", `CREATE TABLE "never_reached" ("id" INTEGER PRIMARY KEY);`);
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it("rolls the broken one back, records nothing for it, and stops with a clear message", async () => {
      const error = await migrate(db.sql, readMigrations(dir)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as MigrationError).message).toMatch(/Migration 20260102000000_broken failed and was rolled back/);
      expect((error as MigrationError).message).toMatch(/no_such_table/);
      const names = await tables(db);
      expect(names).toContain("good_table");
      expect(names).not.toContain("half_done");
      expect(names).not.toContain("never_reached");
      const rows = await db.sql.query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations"`);
      expect(rows.map((r) => r.migration_name)).toEqual(["20260101000000_good"]);
    });
  });
});

describe("instances starting together on one PostgreSQL", () => {
  const skip = inject("postgresSkipReason");
  let instances: Database[] = [];
  let drop: () => Promise<void> = async () => {};
  beforeEach(async (ctx) => {
    if (skip) ctx.skip(skip);
    const created = await createPostgresDatabase(null);
    drop = created.drop;
    instances = [1, 2, 3].map(() => openDatabase({ databaseUrl: created.url }));
  });
  afterEach(async () => {
    await Promise.all(instances.map((db) => db.close()));
    instances = [];
    await drop();
  });

  const advisoryLocks = (db: Database) =>
    db.sql
      .query<{ count: number }>(
        // This database's locks only: other test files' servers on the same cluster hold locks of their own.
        `SELECT count(*)::int AS count FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      )
      .then(([row]) => row.count);

  it("apply each migration once, one after the other, and leave no lock behind", async () => {
    const migrations = readMigrations();
    // Each instance busy with other work on its pool meanwhile, as a starting app is (mail, the health check).
    const results = await Promise.all(instances.flatMap((db) => [migrate(db.sql, migrations), db.sql.query("SELECT pg_sleep(0.05)")]));
    const runs = results.filter((r): r is Awaited<ReturnType<typeof migrate>> => !Array.isArray(r));
    expect(runs.map((r) => r.applied.length).sort()).toEqual([0, 0, migrations.length]);
    expect(runs.filter((r) => r.alreadyApplied.length === migrations.length)).toHaveLength(2);
    const [{ count }] = await instances[0].sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM "_prisma_migrations"`);
    expect(count).toBe(migrations.length);
    expect(await advisoryLocks(instances[0])).toBe(0);
  });

  it("give the lock back after a migration fails, so the next instance can start", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "everlight-migrations-"));
    try {
      mkdirSync(path.join(dir, "20260101000000_broken"));
      writeFileSync(path.join(dir, "20260101000000_broken", "migration.sql"), `INSERT INTO "no_such_table" VALUES (1);`);
      await expect(migrate(instances[0].sql, readMigrations(dir))).rejects.toBeInstanceOf(MigrationError);
      expect(await advisoryLocks(instances[1])).toBe(0);
      const result = await migrate(instances[1].sql);
      expect(result.applied).toEqual(readMigrations().map((m) => m.name));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
