import { beforeAll, describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { BROWSE_PAGE_SIZE, browseMemorials, featuredMemorials } from "./gallery.server";

describe.each(databaseKinds)("the public gallery on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  beforeAll(async () => {
    if (skip) return;
    const owner = await app.db.prisma.user.create({ data: { email: "gallery@example.com", firstName: "G", lastName: "O", password: "x" } });
    const base = Date.parse("2026-01-01T00:00:00Z");
    await app.db.prisma.memorial.createMany({
      data: [
        ...Array.from({ length: 12 }, (_, i) => ({
          userId: owner.id,
          firstName: `Person${i}`,
          lastName: String.fromCharCode(90 - i),
          title: `T${i}`,
          isPublished: true,
          viewCount: i * 3,
          createdAt: new Date(base + i * 60_000),
          biography: i === 4 ? "Loved the Isle of Skye 100%." : "A life well lived.",
          category: i % 3 === 0 ? "organization" : "individual",
        })),
        { userId: owner.id, firstName: "Hidden", lastName: "Private", title: "x", isPublished: true, visibility: "private", viewCount: 999 },
        { userId: owner.id, firstName: "Hidden", lastName: "Draft", title: "x", isPublished: false, viewCount: 999 },
      ],
    });
    const skye = await app.db.prisma.memorial.findFirstOrThrow({ where: { firstName: "Person4" } });
    await app.db.prisma.tribute.createMany({
      data: [
        { memorialId: skye.id, authorName: "A", content: "approved one", isApproved: true },
        { memorialId: skye.id, authorName: "B", content: "pending one", isApproved: false },
      ],
    });
  });

  it.skipIf(skip)("pages the newest public memorials 8 at a time and never shows private or drafts", async () => {
    const first = await browseMemorials({});
    expect(first.items).toHaveLength(BROWSE_PAGE_SIZE);
    expect(first.hasMore).toBe(true);
    expect(first.items[0].firstName).toBe("Person11");
    const all = await browseMemorials({ page: 2 });
    expect(all.items).toHaveLength(12);
    expect(all.hasMore).toBe(false);
    expect(all.items.some((m) => m.firstName === "Hidden")).toBe(false);
  });

  it.skipIf(skip)("searches name, title and biography regardless of case, with LIKE characters taken literally", async () => {
    expect((await browseMemorials({ search: "isle of SKYE" })).items.map((m) => m.firstName)).toEqual(["Person4"]);
    expect((await browseMemorials({ search: "person1" })).items.map((m) => m.firstName).sort()).toEqual(["Person1", "Person10", "Person11"]);
    expect((await browseMemorials({ search: "100%" })).items).toHaveLength(1);
    expect((await browseMemorials({ search: "%" })).items).toHaveLength(1);
    expect((await browseMemorials({ search: "hidden" })).items).toHaveLength(0);
  });

  it.skipIf(skip)("filters by category and sorts by popularity or name", async () => {
    const orgs = await browseMemorials({ category: "organization", page: 2 });
    expect(orgs.items.every((m) => m.category === "organization")).toBe(true);
    expect(orgs.items).toHaveLength(4);
    expect((await browseMemorials({ sort: "popular" })).items[0].firstName).toBe("Person11");
    expect((await browseMemorials({ sort: "alphabetical" })).items[0].lastName).toBe("O");
    expect((await featuredMemorials()).map((m) => m.firstName)).toEqual(["Person11", "Person10", "Person9"]);
  });

  it.skipIf(skip)("counts only approved tributes on cards", async () => {
    const skye = (await browseMemorials({ search: "skye" })).items[0];
    expect(skye.tributeCount).toBe(1);
  });
});
