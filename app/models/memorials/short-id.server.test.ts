import { describe, expect, it } from "vitest";
import { emptyDatabaseKinds, databaseKinds, useAppDatabase } from "../../../test/databases";
import { migrate, readMigrations } from "~/services/migrate.server";
import { parseShortId, SHORT_ID_ALPHABET } from "~/utils/short-id";
import { deleteMemorial, restoreMemorial } from "./deletion.server";
import { findMemorialIdByShortId, toApiMemorial } from "./records.server";

// Short ids, the permanent addresses' keys, as the database makes them
// (memorial_short_id(), migration 20261128110000_memorial_short_ids), on PGlite and PostgreSQL: every new
// memorial gets one however it is made, from the alphabet app/utils/short-id.ts reads, all different; a
// collision is tried again; the migration gives one to each memorial that existed before it.

let n = 0;

describe.each(databaseKinds)("short ids on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const owner = async () => {
    const u = await app.db.prisma.user.create({
      data: { email: `sid${Date.now().toString(36)}${n++}@example.com`, firstName: "S", lastName: "Id", password: "x" },
    });
    return { id: u.id, email: u.email, isAdmin: false, ip: "127.0.0.1" };
  };
  const memorialOf = (userId: string) => app.db.prisma.memorial.create({ data: { userId, title: "Ada Stone", firstName: "Ada", lastName: "Stone" } });

  it.skipIf(skip)("gives every new memorial eight characters of the alphabet, all different, whether made by Prisma or SQL", async () => {
    const user = await owner();
    const made = await Promise.all(Array.from({ length: 150 }, () => memorialOf(user.id)));
    const bySql = await app.db.sql.query<{ shortId: string }>(
      `INSERT INTO memorials ("userId", title, "firstName", "lastName") VALUES ($1, 'T', 'F', 'L') RETURNING "shortId"`,
      [user.id],
    );
    const ids = [...made.map((m) => m.shortId), bySql[0].shortId];
    for (const id of ids) expect(parseShortId(id), id).toBe(id);
    expect(new Set(ids).size).toBe(ids.length);
    // Drawn from the whole alphabet, not a part of it: 151 × 8 characters see each of the 31.
    expect(new Set(ids.join("")).size).toBe(SHORT_ID_ALPHABET.length);
    // The /api shows it, with the absolute permanent address.
    expect(toApiMemorial(made[0])).toMatchObject({ shortId: made[0].shortId, permanentUrl: expect.stringMatching(new RegExp(`/m/${made[0].shortId}$`)) });
  });

  it.skipIf(skip)("tries again when the id drawn is taken (the same random seed twice draws the same id first)", async () => {
    const user = await owner();
    const [drawn, first, second] = await app.db.sql.transaction(async (tx) => {
      const seeded = async (sql: string) => {
        await tx.query(`SELECT setseed(0.4242)`);
        return (await tx.query<{ shortId: string }>(sql, sql.includes("$1") ? [user.id] : []))[0].shortId;
      };
      const insert = `INSERT INTO memorials ("userId", title, "firstName", "lastName") VALUES ($1, 'T', 'F', 'L') RETURNING "shortId"`;
      return [await seeded(`SELECT memorial_short_id() AS "shortId"`), await seeded(insert), await seeded(insert)];
    });
    // The seed decides the first draw (so the second insert really met a taken id), and it drew again.
    expect(first).toBe(drawn);
    expect(parseShortId(second)).toBe(second);
    expect(second).not.toBe(first);
    // And the database refuses a duplicate or a malformed one outright.
    await expect(app.db.sql.query(`UPDATE memorials SET "shortId" = $1 WHERE "shortId" = $2`, [first, second])).rejects.toThrow();
    await expect(app.db.sql.query(`UPDATE memorials SET "shortId" = 'OOOOOOOO' WHERE "shortId" = $1`, [second])).rejects.toThrow();
  });

  it.skipIf(skip)("finds a live memorial by its short id in either case; a deleted one is unknown until restored, with the same id", async () => {
    const user = await owner();
    const m = await memorialOf(user.id);
    expect(await findMemorialIdByShortId(m.shortId)).toBe(m.id);
    expect(await findMemorialIdByShortId(m.shortId.toUpperCase())).toBe(m.id);
    expect(await findMemorialIdByShortId("zzzzzzzz")).toBeNull();
    expect(await findMemorialIdByShortId("0ooooooo")).toBeNull();
    expect(await findMemorialIdByShortId(m.id)).toBeNull();
    expect(await deleteMemorial(m.id, user)).toBe(true);
    expect(await findMemorialIdByShortId(m.shortId)).toBeNull();
    expect((await restoreMemorial(m.id, user)).ok).toBe(true);
    expect(await findMemorialIdByShortId(m.shortId)).toBe(m.id);
  });
});

describe.each(emptyDatabaseKinds)("the short id migration on $name", (kind) => {
  const { skip } = kind;
  it.skipIf(skip)("gives each memorial that existed before it a different short id, deleted ones too", async () => {
    const db = await kind.open();
    try {
      const all = readMigrations();
      const at = all.findIndex((m) => m.name === "20261128110000_memorial_short_ids");
      expect(at).toBeGreaterThan(0);
      await migrate(db.sql, all.slice(0, at));
      const [user] = await db.sql.query<{ id: string }>(
        `INSERT INTO users (email, "firstName", "lastName", password) VALUES ('b@example.com', 'B', 'F', 'x') RETURNING id`,
      );
      for (let i = 0; i < 40; i++) await db.sql.query(`INSERT INTO memorials ("userId", title, "firstName", "lastName") VALUES ($1, 'T', 'F', 'L')`, [user.id]);
      await db.sql.query(`UPDATE memorial_records SET "deletedAt" = now() WHERE id = (SELECT id FROM memorial_records LIMIT 1)`);
      await migrate(db.sql, all.slice(0, at + 1));
      const rows = await db.sql.query<{ shortId: string }>(`SELECT "shortId" FROM memorial_records`);
      expect(rows).toHaveLength(40);
      for (const { shortId } of rows) expect(parseShortId(shortId), shortId).toBe(shortId);
      expect(new Set(rows.map((r) => r.shortId)).size).toBe(40);
      // The view shows the new column (it was made again).
      expect((await db.sql.query(`SELECT "shortId" FROM memorials`)).length).toBe(39);
    } finally {
      await db.close();
    }
  });
});
