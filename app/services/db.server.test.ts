import { messages, PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundEmbeddedWal, openDatabase, PGLITE_EXTENSIONS, PREPARED_MAX, type Database } from "./db.server";

// The embedded database answers a statement in one call (answerInOneCall; db.server.ts): the
// same rows, types and errors as PGlite's own `query`, which asks for the parameters' types first.

describe("PGlite statements in one call", () => {
  let pglite: PGlite;
  let db: Database;
  /** PGlite's own path, for comparison. */
  const ownQuery = (sql: string, params: unknown[]) => PGlite.prototype.query.call(pglite, sql, params);

  beforeAll(async () => {
    pglite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    db = openDatabase({ pglite });
    await db.sql.exec(`CREATE TABLE "kinds" (
      "id" SERIAL PRIMARY KEY, "label" TEXT UNIQUE, "n" INTEGER, "big" BIGINT, "ratio" DOUBLE PRECISION, "price" NUMERIC(10,2),
      "flag" BOOLEAN, "at" TIMESTAMP(3), "day" DATE, "doc" JSONB, "tags" TEXT[], "bytes" BYTEA, "when" TIMESTAMP(3), "whenTz" TIMESTAMPTZ)`);
  });
  afterAll(async () => db?.close());

  it("stores and reads every kind of value as PGlite's own path does", async () => {
    // Text, numbers, booleans and null: in one call.
    const insert = `INSERT INTO "kinds" ("label","n","big","ratio","price","flag","at","day","doc") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) RETURNING *`;
    const row = (label: string, flag: boolean | null) => [
      label,
      -42,
      9007199254740993n,
      0.1 + 0.2,
      "1234.50",
      flag,
      "2026-11-27 09:30:00.125",
      "2024-02-29",
      JSON.stringify({ name: "Łucja", quote: 'say "hi"', n: [1, 2] }),
    ];
    const fast = await pglite.query(insert, row("ünïcødé 'one' \\ ✓", true));
    const own = await ownQuery(insert, row("ünïcødé 'two' \\ ✓", false));
    const nulls = await pglite.query(insert, ["three", null, null, null, null, null, null, null, undefined]);
    // Arrays and bytes: PGlite's own path, which knows how to write them.
    const update = `UPDATE "kinds" SET "tags" = $1, "bytes" = $2 WHERE "label" LIKE $3 RETURNING "tags", "bytes"`;
    const written = await pglite.query(update, [["a", "b,c", 'd"e'], new Uint8Array([0, 255, 16]), "ünïcødé%"]);
    expect(written.rows).toEqual([
      { tags: ["a", "b,c", 'd"e'], bytes: new Uint8Array([0, 255, 16]) },
      { tags: ["a", "b,c", 'd"e'], bytes: new Uint8Array([0, 255, 16]) },
    ]);
    const strip = (r: Record<string, unknown>) => ({ ...r, id: undefined, label: undefined, flag: undefined });
    expect(strip(fast.rows[0] as Record<string, unknown>)).toEqual(strip(own.rows[0] as Record<string, unknown>));
    expect(fast.rows[0]).toMatchObject({
      label: "ünïcødé 'one' \\ ✓",
      n: -42,
      flag: true,
      price: "1234.50",
      doc: { name: "Łucja", quote: 'say "hi"', n: [1, 2] },
    });
    expect((fast.rows[0] as { at: Date }).at.toISOString()).toBe("2026-11-27T09:30:00.125Z");
    expect(fast.fields).toEqual(own.fields);
    expect(nulls.rows[0]).toMatchObject({ label: "three", n: null, flag: null, doc: null, tags: null });
    // Dates (our own SQL passes them): written as PGlite writes them, to timestamps with and without zone and to dates.
    const dated = `UPDATE "kinds" SET "when" = $1, "whenTz" = $2, "day" = $3 WHERE "label" = $4 RETURNING "when", "whenTz", "day"`;
    const moment = new Date("2026-03-29T00:59:59.999Z");
    const day = new Date("2024-02-29T00:00:00Z");
    const fastDates = await pglite.query(dated, [moment, moment, day, "three"]);
    const ownDates = await ownQuery(dated, [moment, moment, day, "ünïcødé 'two' \\ ✓"]);
    expect(fastDates.rows).toEqual(ownDates.rows);
    expect(fastDates.rows[0]).toEqual({ when: moment, whenTz: moment, day });
    // Read back through each path: the same rows.
    const select = `SELECT * FROM "kinds" WHERE "flag" = $1 OR "label" = $2 ORDER BY "id"`;
    expect((await pglite.query(select, [false, "three"])).rows).toEqual((await ownQuery(select, [false, "three"])).rows);
  });

  it("fails as PGlite does, and the next statement runs", async () => {
    const insert = `INSERT INTO "kinds" ("label") VALUES ($1)`;
    await pglite.query(insert, ["twice"]);
    const error = await pglite.query(insert, ["twice"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(messages.DatabaseError);
    expect(error).toMatchObject({ code: "23505" });
    expect(await pglite.query(`SELECT "n" FROM "kinds" WHERE "n" = $1`, ["not a number"]).catch((e: { code: string }) => e.code)).toBe("22P02");
    expect((await pglite.query<{ count: number }>(`SELECT count(*)::int AS "count" FROM "kinds" WHERE "label" = $1`, ["twice"])).rows).toEqual([{ count: 1 }]);
  });

  /** The statements kept prepared, by their text. */
  const kept = async () =>
    (await ownQuery(`SELECT "statement" FROM pg_prepared_statements WHERE "name" LIKE 'everlight\\_%'`, [])).rows.map(
      (r) => (r as { statement: string }).statement,
    );

  it("prepares a statement once and runs it again by name, through errors, changed tables and bad SQL", async () => {
    const insert = `INSERT INTO "kinds" ("label", "n") VALUES ($1, $2) RETURNING "n"`;
    for (let i = 0; i < 8; i++) expect((await pglite.query(insert, [`kept ${i}`, i])).rows).toEqual([{ n: i }]);
    expect((await kept()).filter((text) => text === insert)).toHaveLength(1);
    // An error of this call's values leaves the statement kept and working.
    expect(await pglite.query(insert, ["kept 1", 1]).catch((e: { code: string }) => e.code)).toBe("23505");
    expect((await pglite.query(insert, ["kept 8", 8])).rows).toEqual([{ n: 8 }]);
    expect((await kept()).filter((text) => text === insert)).toHaveLength(1);
    // A table changed under a kept statement that reads all its columns: answered with the new column.
    const all = `SELECT * FROM "kinds" WHERE "label" = $1`;
    for (let i = 0; i < 7; i++) await pglite.query(all, [`kept ${i}`]);
    await pglite.exec(`ALTER TABLE "kinds" ADD COLUMN "extra" TEXT DEFAULT 'new'`);
    expect((await pglite.query(all, ["kept 3"])).rows).toMatchObject([{ label: "kept 3", n: 3, extra: "new" }]);
    // Statements dropped by the database behind our back: prepared again.
    await pglite.exec("DEALLOCATE ALL");
    expect((await pglite.query(insert, ["kept 9", 9])).rows).toEqual([{ n: 9 }]);
    // SQL that does not parse: an error, and the next statement runs.
    expect(await pglite.query(`SELEC "n" FROM "kinds" WHERE "n" = $1`, [1]).catch((e: { code: string }) => e.code)).toBe("42601");
    expect((await pglite.query(`SELECT "n" FROM "kinds" WHERE "label" = $1`, ["kept 2"])).rows).toEqual([{ n: 2 }]);
  });

  it("plans a statement matching a pattern for its own values every time: it is never kept", async () => {
    // A search ordered by another column: with a plan made without the words (a generic plan, which PostgreSQL
    // may keep for a statement after five runs), a search finding nothing reads every row in that order.
    await pglite.exec(`CREATE TABLE "notes" ("id" SERIAL PRIMARY KEY, "text" TEXT NOT NULL, "at" TIMESTAMP(3) NOT NULL);
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      CREATE INDEX "notes_text_trgm" ON "notes" USING gin (lower("text") gin_trgm_ops);
      CREATE INDEX "notes_at" ON "notes" ("at");
      INSERT INTO "notes" ("text", "at") SELECT 'Mary Jones, in memory', now() - make_interval(mins => g) FROM generate_series(1, 3000) AS g;
      ANALYZE "notes";`);
    const search = `SELECT "id" FROM "notes" WHERE lower("text") LIKE $1 ORDER BY "at" DESC LIMIT 9`;
    const byId = `SELECT "text" FROM "notes" WHERE "id" = $1`;
    for (let i = 0; i < 12; i++) {
      expect((await pglite.query(search, [`%q${i}x%`])).rows).toEqual([]);
      expect((await pglite.query(byId, [i + 1])).rows).toEqual([{ text: "Mary Jones, in memory" }]);
    }
    expect((await pglite.query(search, ["%mary%"])).rows).toHaveLength(9);
    const statements = await kept();
    expect(statements).not.toContain(search);
    expect(statements).toContain(byId);
    // Its errors are PGlite's, and the next statement runs.
    expect(await pglite.query(`SELECT "nope" FROM "notes" WHERE "text" LIKE $1`, ["%a%"]).catch((e: { code: string }) => e.code)).toBe("42703");
    expect((await pglite.query(search, ["%jones%"])).rows).toHaveLength(9);
  });

  it("keeps at most PREPARED_MAX statements prepared, the least recently used going first", async () => {
    const often = `SELECT "n" FROM "kinds" WHERE "label" = $1 AND 0 = 0`;
    for (let i = 0; i < PREPARED_MAX + 20; i++) {
      if (i % 50 === 0) await pglite.query(often, ["kept 1"]);
      expect((await pglite.query(`SELECT ${i}::int + $1 AS "sum"`, [1])).rows).toEqual([{ sum: i + 1 }]);
    }
    await pglite.query(`SELECT 1 WHERE $1 = 'closes what was forgotten'`, ["x"]);
    const statements = await kept();
    expect(statements.length).toBeLessThanOrEqual(PREPARED_MAX + 1);
    expect(statements).toContain(often);
    expect(statements).not.toContain(`SELECT 0::int + $1 AS "sum"`);
  });

  it("waits for a transaction in progress, as PGlite's own path does", async () => {
    let inside!: () => void;
    const started = new Promise<void>((resolve) => (inside = resolve));
    const transaction = pglite.transaction(async (tx) => {
      await tx.query(`INSERT INTO "kinds" ("label") VALUES ($1)`, ["in the transaction"]);
      inside();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.query(`INSERT INTO "kinds" ("label") VALUES ($1)`, ["also in it"]);
    });
    await started;
    // Asked while the transaction is open: answered after it commits, seeing both rows.
    const seen = await pglite.query<{ label: string }>(`SELECT "label" FROM "kinds" WHERE "label" LIKE $1 ORDER BY "label"`, ["%in%"]);
    await transaction;
    expect(seen.rows.map((r) => r.label)).toEqual(["also in it", "in the transaction"]);
  });
});

describe("the embedded database's WAL", () => {
  // Past about 540 MB of WAL since its last checkpoint PGlite stops answering for good (db.server.ts); a
  // checkpoint past a bound keeps it far from there, inside a transaction too. Shown here at a smaller bound.
  const since = async (db: Database) =>
    (await db.sql.query<{ bytes: number }>(`SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), (pg_control_checkpoint()).redo_lsn)::float8 AS bytes`))[0]
      .bytes;

  it("is checkpointed once more than the bound was written since the last checkpoint, inside a transaction too, and kept", async () => {
    const db = openDatabase({ pglite: new PGlite() });
    try {
      await db.sql.exec(`CREATE TABLE "rows" ("id" INT PRIMARY KEY, "body" TEXT)`);
      await db.sql.exec(`INSERT INTO "rows" SELECT i, repeat(md5(i::text), 8) FROM generate_series(1, 20000) i`);
      expect(await since(db)).toBeGreaterThan(4e6);
      expect(await boundEmbeddedWal(db.sql, 64e6)).toBe(false);
      expect(await boundEmbeddedWal(db.sql, 4e6)).toBe(true);
      expect(await since(db)).toBeLessThan(1e5);

      await db.sql.transaction(async (tx) => {
        await tx.exec(`INSERT INTO "rows" SELECT i, repeat(md5(i::text), 8) FROM generate_series(20001, 40000) i`);
        expect(await boundEmbeddedWal(tx, 4e6)).toBe(true);
        await tx.exec(`INSERT INTO "rows" VALUES (0, 'after the checkpoint')`);
      });
      expect(await since(db)).toBeLessThan(4e6);
      expect((await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "rows"`))[0].n).toBe(40001);
      // A transaction that fails after a checkpoint inside it leaves nothing behind.
      await expect(
        db.sql.transaction(async (tx) => {
          await tx.exec(`INSERT INTO "rows" SELECT i, repeat(md5(i::text), 8) FROM generate_series(40001, 60000) i`);
          await boundEmbeddedWal(tx, 1);
          await tx.exec(`INSERT INTO "rows" VALUES (0, 'a second row 0')`);
        }),
      ).rejects.toThrow(/duplicate key/);
      expect((await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "rows"`))[0].n).toBe(40001);
    } finally {
      await db.close();
    }
  });
});
