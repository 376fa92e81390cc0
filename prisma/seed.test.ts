import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databaseKinds } from "../test/databases";
import type { Database } from "../app/services/db.server";
import { verifyPassword } from "../app/services/password.server";
import { demoAccounts, seedDemoData } from "./seed";
import { demoMemorials, demoProducts } from "./seed-data";

describe.each(databaseKinds)("demo data on $name", ({ skip, open }) => {
  let db: Database;
  beforeEach(async (ctx) => {
    if (skip) ctx.skip(skip);
    db = await open();
  });
  afterEach(async () => db?.close());

  it("loads into an empty database, with working demo accounts", async () => {
    const result = await seedDemoData(db.prisma);
    expect(result.loaded).toBe(true);
    expect(await db.prisma.user.count()).toBe(3);
    const admin = await db.prisma.user.findUniqueOrThrow({ where: { email: demoAccounts.admin.email } });
    expect(admin.isAdmin).toBe(true);
    expect(
      await verifyPassword(demoAccounts.alice.password, (await db.prisma.user.findUniqueOrThrow({ where: { email: demoAccounts.alice.email } })).password),
    ).toBe(true);
    expect(await verifyPassword("wrong-password", admin.password)).toBe(false);

    expect(await db.prisma.memorial.count()).toBe(demoMemorials.length);
    const published = await db.prisma.memorial.groupBy({ by: ["visibility"], where: { isPublished: true }, _count: true });
    expect(new Set(published.map((g) => g.visibility))).toEqual(new Set(["public", "friends", "private"]));
    expect(await db.prisma.memorial.count({ where: { isPublished: true } })).toBeGreaterThanOrEqual(12);
    expect(await db.prisma.tribute.count({ where: { isApproved: true } })).toBeGreaterThan(0);
    expect(await db.prisma.tribute.count({ where: { isApproved: false } })).toBeGreaterThan(0);
    const categories = await db.prisma.product.groupBy({ by: ["category"], _count: true });
    expect(categories.map((c) => c.category).sort()).toEqual(["Books", "Candles", "Cards", "Frames", "Garden", "Jewelry", "Textiles", "Urns"]);
    expect(await db.prisma.product.count()).toBe(demoProducts.length);
    expect((await db.prisma.product.findMany()).every((p) => Number.isInteger(p.price) && p.price > 0)).toBe(true);
    expect(await db.prisma.newsArticle.count()).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it("refuses to load twice", async () => {
    expect((await seedDemoData(db.prisma)).loaded).toBe(true);
    const again = await seedDemoData(db.prisma);
    expect(again).toMatchObject({ loaded: false, reason: expect.stringMatching(/only loaded into an empty database/) });
    expect(await db.prisma.user.count()).toBe(3);
    expect(await db.prisma.memorial.count()).toBe(demoMemorials.length);
  }, 120_000);

  it("refuses to load into a database that already has real users", async () => {
    await db.prisma.user.create({ data: { email: "real@example.com", firstName: "Real", lastName: "Person", password: "x" } });
    expect((await seedDemoData(db.prisma)).loaded).toBe(false);
    expect(await db.prisma.memorial.count()).toBe(0);
  });
});
