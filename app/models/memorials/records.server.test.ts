import { describe, expect, it } from "vitest";
import { deleteMemorial } from "./deletion.server";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { FREE_MEMORIAL_LIMIT } from "~/utils/plans";
import { decideAccess, type Viewer } from "./access-rules";
import { countPendingForOwner } from "../tributes/tributes.server";
import { byAddressWhere, findMemorialForViewer } from "./access.server";
import { countOwnMemorials, listRecentOwnMemorials } from "./own-memorials.server";
import { createMemorial, listMemorialsForViewer, MemorialDatesError, MemorialLimitError, publicMemorialVersion, updateOwnMemorial } from "./records.server";
import { countSitemapChildren, listSitemapChild } from "./sitemap.server";
import { countView, flushViews, recordView } from "./views.server";

let n = 0;
const email = () => `m${Date.now().toString(36)}${n++}@example.com`;
const input = (over: Partial<Parameters<typeof createMemorial>[1]> = {}) => ({
  firstName: "Mary",
  lastName: "Jones",
  title: null,
  dateOfBirth: "1940-02-03",
  dateOfPassing: "2020-05-06",
  biography: "A kind woman.",
  visibility: "public" as const,
  isPublished: true,
  ...over,
});

describe.each(databaseKinds)("memorials on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const user = async (over: { isAdmin?: boolean; subscriptionPlan?: string } = {}) =>
    app.db.prisma.user.create({ data: { email: email(), firstName: "U", lastName: "Ser", password: "x", ...over } });

  it.skipIf(skip)("lists exactly what decideAccess allows, for every viewer", async () => {
    const owner = await user();
    const friend = await user();
    const other = await user();
    const admin = await user({ isAdmin: true });
    await app.db.prisma.friendship.createMany({
      data: [
        { userId: owner.id, friendId: friend.id },
        { userId: friend.id, friendId: owner.id },
      ],
    });
    const memorials = await Promise.all(
      [
        { visibility: "public" as const, isPublished: false },
        { visibility: "public" as const, isPublished: true },
        { visibility: "unlisted" as const, isPublished: true },
        { visibility: "friends" as const, isPublished: true },
        { visibility: "private" as const, isPublished: true },
      ].map((state) => createMemorial(owner, input(state))),
    );
    // Co-managers: an editor and a manager of every one of the owner's memorials.
    const editor = await user();
    const manager = await user();
    await app.db.prisma.memorialManager.createMany({
      data: memorials.flatMap((m) => [
        { memorialId: m.id, userId: editor.id, role: "editor" },
        { memorialId: m.id, userId: manager.id, role: "manager" },
      ]),
    });
    const viewers: [string, Viewer, boolean, "editor" | "manager" | null][] = [
      ["owner", { id: owner.id, isAdmin: false }, false, null],
      ["friend", { id: friend.id, isAdmin: false }, true, null],
      ["other", { id: other.id, isAdmin: false }, false, null],
      ["visitor", null, false, null],
      ["admin", { id: admin.id, isAdmin: true }, false, null],
      ["editor", { id: editor.id, isAdmin: false }, false, "editor"],
      ["manager", { id: manager.id, isAdmin: false }, false, "manager"],
    ];
    for (const [who, viewer, isFriend, coRole] of viewers) {
      const listed = new Set((await listMemorialsForViewer(viewer, { userId: owner.id })).map((m) => m.id));
      const byAddress = new Set(
        (await app.db.prisma.memorial.findMany({ where: { userId: owner.id, ...byAddressWhere(viewer) }, select: { id: true } })).map((m) => m.id),
      );
      for (const m of memorials) {
        const allowed = decideAccess(m, viewer, isFriend, coRole).allowed;
        // Unlisted: opens by its address for anyone, listed only for those who run it.
        const listable = allowed && (m.visibility !== "unlisted" || ["owner", "admin", "editor", "manager"].includes(who));
        expect(listed.has(m.id), `${who} × ${m.visibility}/${m.isPublished}`).toBe(listable);
        expect(byAddress.has(m.id), `by address: ${who} × ${m.visibility}/${m.isPublished}`).toBe(allowed);
        const lookup = await findMemorialForViewer(m.id, viewer);
        expect(lookup.status, `${who} × ${m.visibility}/${m.isPublished}`).toBe(allowed ? "ok" : "locked");
        if (lookup.status === "ok") expect(lookup.role).toBe(coRole ?? (who === "owner" ? "owner" : "none"));
      }
    }
    // A co-manager sees the drafts and private ones too, as the rule says.
    expect(decideAccess(memorials[0], { id: editor.id, isAdmin: false }, false, "editor").allowed).toBe(true);
    expect((await findMemorialForViewer("00000000-0000-4000-8000-000000000000", null)).status).toBe("not-found");
    expect((await findMemorialForViewer("not-even-a-uuid", null)).status).toBe("not-found");
  });

  it.skipIf(skip)("fills the title from the names and stores dates as calendar dates", async () => {
    const owner = await user();
    const m = await createMemorial(owner, input({ title: "  " }));
    expect(m.title).toBe("Mary Jones");
    expect(m.dateOfBirth?.toISOString().slice(0, 10)).toBe("1940-02-03");
    const updated = await updateOwnMemorial(m.id, owner.id, { firstName: "Maria" });
    expect(updated).toMatchObject({ firstName: "Maria", lastName: "Jones", biography: "A kind woman." });
  });

  it.skipIf(skip)("refuses a partial update that puts the date of passing before the date of birth", async () => {
    const owner = await user();
    const m = await createMemorial(owner, input({ dateOfBirth: "1940-02-03", dateOfPassing: "2020-05-06" }));
    await expect(updateOwnMemorial(m.id, owner.id, { dateOfPassing: "1930-01-01" })).rejects.toBeInstanceOf(MemorialDatesError);
    expect((await app.db.prisma.memorial.findUniqueOrThrow({ where: { id: m.id } })).dateOfPassing?.toISOString().slice(0, 10)).toBe("2020-05-06");
  });

  it.skipIf(skip)("refuses a free user's 26th memorial and allows a paid user's", async () => {
    const free = await user();
    await app.db.prisma.memorial.createMany({
      data: Array.from({ length: FREE_MEMORIAL_LIMIT }, (_, i) => ({ userId: free.id, title: `M${i}`, firstName: "A", lastName: "B" })),
    });
    await expect(createMemorial(free, input())).rejects.toBeInstanceOf(MemorialLimitError);
    expect(await app.db.prisma.memorial.count({ where: { userId: free.id } })).toBe(FREE_MEMORIAL_LIMIT);

    const paid = await user({ subscriptionPlan: "forever" });
    await app.db.prisma.memorial.createMany({
      data: Array.from({ length: FREE_MEMORIAL_LIMIT }, (_, i) => ({ userId: paid.id, title: `M${i}`, firstName: "A", lastName: "B" })),
    });
    await expect(createMemorial(paid, input())).resolves.toMatchObject({ userId: paid.id });
  });

  it.skipIf(skip)("never lets a non-owner update or delete, and an admin may delete", async () => {
    const owner = await user();
    const other = await user();
    const admin = await user({ isAdmin: true });
    const m = await createMemorial(owner, input());
    expect(await updateOwnMemorial(m.id, other.id, { firstName: "Hacked" })).toBeNull();
    const as = (u: { id: string; email: string }) => ({ id: u.id, email: u.email, isAdmin: u.id === admin.id, ip: "203.0.113.9" });
    expect(await deleteMemorial(m.id, as(other))).toBe(false);
    expect((await app.db.prisma.memorial.findUniqueOrThrow({ where: { id: m.id } })).firstName).toBe("Mary");
    expect(await deleteMemorial(m.id, as(admin))).toBe(true);
    expect(await app.db.prisma.memorial.count({ where: { id: m.id } })).toBe(0);
    // From whichever screen, an administrator's deletion is in the audit log.
    expect(await app.db.prisma.auditLog.findMany({ where: { targetId: m.id }, select: { action: true, actorId: true } })).toEqual([
      { action: "memorial.delete", actorId: admin.id },
    ]);
  });

  it.skipIf(skip)("counts views in one write without touching updatedAt, and a view of a missing memorial does not throw", async () => {
    const owner = await user();
    const m = await createMemorial(owner, input());
    recordView(m.id);
    recordView(m.id);
    recordView("missing");
    expect((await app.db.prisma.memorial.findUniqueOrThrow({ where: { id: m.id } })).viewCount).toBe(0);
    await flushViews();
    const after = await app.db.prisma.memorial.findUniqueOrThrow({ where: { id: m.id } });
    expect(after.viewCount).toBe(2);
    // The anonymous page cache keys on updatedAt: a view is not a change to the page.
    expect(after.updatedAt).toEqual(m.updatedAt);
    // The /api's counter takes along the views not yet written.
    recordView(m.id);
    expect(await countView(m.id)).toBe(4);
    await flushViews();
    expect((await app.db.prisma.memorial.findUniqueOrThrow({ where: { id: m.id } })).viewCount).toBe(4);
  });

  it.skipIf(skip)("gives a version only to a published public memorial, and moves it on an edit", async () => {
    const owner = await user();
    const m = await createMemorial(owner, input());
    await app.db.prisma.memorial.update({ where: { id: m.id }, data: { isPublished: true, visibility: "public" } });
    const v1 = await publicMemorialVersion(m.id);
    expect(v1).toBeInstanceOf(Date);
    await updateOwnMemorial(m.id, owner.id, { biography: "Kinder still." });
    expect((await publicMemorialVersion(m.id))!.getTime()).toBeGreaterThan(v1!.getTime());
    for (const data of [{ visibility: "friends" }, { visibility: "private" }, { visibility: "public", isPublished: false }]) {
      await app.db.prisma.memorial.update({ where: { id: m.id }, data });
      expect(await publicMemorialVersion(m.id)).toBeNull();
    }
    expect(await publicMemorialVersion("not-an-id")).toBeNull();
  });

  it.skipIf(skip)("counts the dashboard's figures in the database, for the member's own memorials only", async () => {
    const owner = await user();
    const other = await user();
    expect(await countOwnMemorials(owner.id)).toEqual({ total: 0, published: 0, drafts: 0 });
    expect(await countPendingForOwner(owner.id)).toBe(0);
    const start = Date.now() - 60_000;
    const mine = await Promise.all(
      [true, true, false, true].map((isPublished, i) =>
        app.db.prisma.memorial.create({
          data: { userId: owner.id, title: `T${i}`, firstName: `Own${i}`, lastName: "B", isPublished, createdAt: new Date(start + i * 1000) },
        }),
      ),
    );
    const theirs = await app.db.prisma.memorial.create({ data: { userId: other.id, title: "X", firstName: "Other", lastName: "B", isPublished: true } });
    await app.db.prisma.tribute.createMany({
      data: [
        { memorialId: mine[0].id, authorName: "A", content: "Pending one." },
        { memorialId: mine[2].id, authorName: "A", content: "Pending two." },
        { memorialId: mine[1].id, authorName: "A", content: "Approved.", isApproved: true },
        { memorialId: theirs.id, authorName: "A", content: "Not mine." },
      ],
    });
    expect(await countOwnMemorials(owner.id)).toEqual({ total: 4, published: 3, drafts: 1 });
    expect(await countPendingForOwner(owner.id)).toBe(2);
    expect((await listRecentOwnMemorials(owner.id)).map((m) => m.firstName)).toEqual(["Own3", "Own2", "Own1"]);
  });

  it.skipIf(skip)(
    "splits the sitemap's memorials into children of any size: each listable one exactly once, in order, ties on createdAt included",
    async () => {
      const owner = await user();
      // Five listable memorials made at the very same instant (a tie on the sort key that straddles the
      // boundaries of every small size below), four more around them, and every kind that must never be listed
      // made at that instant too.
      const tie = new Date("2001-02-03T04:05:06.789Z");
      const made = async (over: { visibility?: string; isPublished?: boolean; createdAt?: Date }, i: number) =>
        app.db.prisma.memorial.create({
          data: { userId: owner.id, title: `S${i}`, firstName: `Site${i}`, lastName: "Map", visibility: "public", isPublished: true, createdAt: tie, ...over },
        });
      const listable = await Promise.all(
        [
          {},
          {},
          {},
          {},
          {},
          { createdAt: new Date(tie.getTime() - 1) },
          { createdAt: new Date(tie.getTime() + 1) },
          { createdAt: new Date("1999-01-01") },
          { createdAt: new Date("2003-01-01") },
        ].map(made),
      );
      const hidden = await Promise.all(
        [{ visibility: "unlisted" }, { visibility: "friends" }, { visibility: "private" }, { isPublished: false }, {}].map((over, i) => made(over, 100 + i)),
      );
      expect(await deleteMemorial(hidden[4].id, { id: owner.id, email: owner.email, isAdmin: false, ip: "203.0.113.9" })).toBe(true);
      // What the sitemap must list, read straight from the table (other tests' memorials included).
      const expected = (
        await app.db.sql.query<{ id: string }>(
          `SELECT id FROM memorial_records WHERE "deletedAt" IS NULL AND visibility = 'public' AND "isPublished" ORDER BY "createdAt", id`,
        )
      ).map((r) => r.id);
      for (const m of listable) expect(expected).toContain(m.id);
      for (const m of hidden) expect(expected).not.toContain(m.id);

      for (const size of [1, 2, 3, 4, 5, 7, 10_000]) {
        const children = await countSitemapChildren(size);
        expect(children, `size ${size}`).toBe(Math.ceil(expected.length / size));
        const listed: string[] = [];
        for (let child = 1; child <= children; child++) {
          const page = await listSitemapChild(child, size);
          // Every child full but the last, which holds the rest.
          expect(page.length, `size ${size}, child ${child}`).toBe(child < children ? size : expected.length - size * (children - 1));
          listed.push(...page.map((m) => m.id));
        }
        expect(listed, `size ${size}`).toEqual(expected);
        expect(await listSitemapChild(children + 1, size), `size ${size}: past the end`).toEqual([]);
      }
      // The memorial's lastmod is its updatedAt.
      const [first] = await listSitemapChild(1, 10_000);
      expect(first.updatedAt).toBeInstanceOf(Date);
      for (const child of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) expect(await listSitemapChild(child, 3), String(child)).toEqual([]);
      expect(await listSitemapChild(1, 0)).toEqual([]);
    },
  );
});
