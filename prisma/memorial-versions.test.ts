import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../app/services/db.server";
import { databaseKinds } from "../test/databases";

// A memorial's updatedAt is its public page's version (server/page-cache.ts). The database itself moves
// it for every change to what the page shows (migration 20261123000000_memorial_versions), so no code
// path can forget to, on PGlite and on PostgreSQL alike.

/**
 * Tables that point at a memorial but whose rows are not on its public page. A new table that points at
 * memorials must be added here, or be given a version trigger like memorial_media and tributes. (The
 * people who manage it, their invitations, its copies and its followers are seen only by the signed-in,
 * who are never served a kept page.)
 */
const NOT_ON_THE_PAGE = new Set([
  "memorial_shares",
  "cart_items",
  "order_items",
  "news_articles",
  "memorial_managers",
  "memorial_invitations",
  "memorial_exports",
  "memorial_follows",
]);

describe.each(databaseKinds)("memorial versions on $name", ({ skip, open }) => {
  let db: Database;
  beforeAll(async () => {
    if (!skip) db = await open();
  });
  afterAll(async () => db?.close());

  const version = async (id: string) => (await db.prisma.memorial.findUniqueOrThrow({ where: { id } })).updatedAt.getTime();

  async function memorial() {
    const user = await db.prisma.user.create({
      data: { email: `v-${Date.now()}-${Math.random()}@example.test`, firstName: "V", lastName: "U", password: "x" },
    });
    return db.prisma.memorial.create({ data: { userId: user.id, title: "T", firstName: "Mary", lastName: "Jones", isPublished: true } });
  }

  it.skipIf(skip)("moves with every photo added, changed or removed, and never goes back", async () => {
    const m = await memorial();
    const seen = [await version(m.id)];
    const media = await db.prisma.memorialMedia.create({ data: { memorialId: m.id, mediaUrl: "/media/a.webp", mediaType: "image/webp" } });
    seen.push(await version(m.id));
    await db.prisma.memorialMedia.update({ where: { id: media.id }, data: { caption: "By the sea" } });
    seen.push(await version(m.id));
    await db.prisma.memorialMedia.delete({ where: { id: media.id } });
    seen.push(await version(m.id));
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
  });

  it.skipIf(skip)("moves when a tribute is approved, edited while approved or removed, not when one only waits", async () => {
    const m = await memorial();
    const start = await version(m.id);
    const tribute = await db.prisma.tribute.create({ data: { memorialId: m.id, authorName: "Ann", content: "Pending words" } });
    expect(await version(m.id)).toBe(start);
    await db.prisma.tribute.update({ where: { id: tribute.id }, data: { isApproved: true } });
    const approved = await version(m.id);
    expect(approved).toBeGreaterThan(start);
    await db.prisma.tribute.delete({ where: { id: tribute.id } });
    expect(await version(m.id)).toBeGreaterThan(approved);
  });

  it.skipIf(skip)("moves when the family turns the shop offers off or on, not when the same value is written again", async () => {
    const m = await memorial();
    const start = await version(m.id);
    await db.sql.query(`UPDATE memorials SET "shopOffers" = false WHERE id = $1`, [m.id]);
    const off = await version(m.id);
    expect(off).toBeGreaterThan(start);
    await db.sql.query(`UPDATE memorials SET "shopOffers" = false WHERE id = $1`, [m.id]);
    expect(await version(m.id)).toBe(off);
    await db.sql.query(`UPDATE memorials SET "shopOffers" = true WHERE id = $1`, [m.id]);
    expect(await version(m.id)).toBeGreaterThan(off);
  });

  it.skipIf(skip)("two changes in the same transaction, or the same millisecond, are still two versions", async () => {
    const m = await memorial();
    const before = await version(m.id);
    await db.sql.transaction(async (tx) => {
      await tx.query(`INSERT INTO memorial_media ("memorialId", "mediaUrl", "mediaType") VALUES ($1, '/media/b.webp', 'image/webp')`, [m.id]);
      await tx.query(`INSERT INTO memorial_media ("memorialId", "mediaUrl", "mediaType") VALUES ($1, '/media/c.webp', 'image/webp')`, [m.id]);
    });
    expect(await version(m.id)).toBeGreaterThanOrEqual(before + 2);
  });

  it.skipIf(skip)("every table that points at memorials moves their version, or is known not to be on the page", async () => {
    // Since deletion became recoverable the rows live in "memorial_records" and "memorials" is a
    // view of the live ones: foreign keys point at the table.
    const referencing = await db.sql.query<{ table: string }>(
      `SELECT DISTINCT c.conrelid::regclass::text AS table FROM pg_constraint c
       WHERE c.contype = 'f' AND c.confrelid = 'memorial_records'::regclass`,
    );
    expect(referencing.map((r) => r.table.replace(/"/g, ""))).toEqual(expect.arrayContaining(["memorial_media", "tributes"]));
    const triggered = await db.sql.query<{ table: string }>(
      `SELECT DISTINCT tgrelid::regclass::text AS table FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
       WHERE NOT t.tgisinternal AND p.prosrc LIKE '%bump_memorial_version%'`,
    );
    const withTrigger = new Set(triggered.map((r) => r.table.replace(/"/g, "")));
    const forgotten = referencing.map((r) => r.table.replace(/"/g, "")).filter((t) => !withTrigger.has(t) && !NOT_ON_THE_PAGE.has(t));
    expect(forgotten).toEqual([]);
    expect([...withTrigger].sort()).toEqual(["memorial_events", "memorial_media", "memorial_timeline_events", "tributes"]);
  });
});
