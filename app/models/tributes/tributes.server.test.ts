import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import {
  createTribute,
  leaveTribute,
  listApprovedTributes,
  listPendingForOwner,
  listTributesForAdmin,
  moderateTribute,
  TRIBUTES_PER_PAGE,
} from "./tributes.server";

let n = 0;
describe.each(databaseKinds)("tributes on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const user = (isAdmin = false) =>
    app.db.prisma.user.create({ data: { email: `t${Date.now().toString(36)}${n++}@example.com`, firstName: "U", lastName: "S", password: "x", isAdmin } });
  const memorial = (userId: string) => app.db.prisma.memorial.create({ data: { userId, title: "T", firstName: "A", lastName: "B", isPublished: true } });
  const tribute = (memorialId: string, content = "A lovely memory of her.") => createTribute(memorialId, { authorName: "Ann", authorEmail: null, content });
  /** The person acting, as the routes pass them (request/auth.server.ts actorOf). */
  const as = (u: { id: string; email: string }, isAdmin = false) => ({ id: u.id, email: u.email, isAdmin, ip: "203.0.113.9" });
  const auditOf = async (targetId: string) => (await app.db.prisma.auditLog.findMany({ where: { targetId } })).map((a) => a.action);

  it.skipIf(skip)("starts pending, becomes public when approved, and is gone when rejected", async () => {
    const owner = await user();
    const m = await memorial(owner.id);
    const first = await tribute(m.id, "First memory, long enough.");
    const second = await tribute(m.id, "Second memory, long enough.");
    expect(first.isApproved).toBe(false);
    expect((await listApprovedTributes(m.id)).total).toBe(0);
    expect(await moderateTribute("approve", first.id, as(owner))).toBe("ok");
    expect(await moderateTribute("reject", second.id, as(owner))).toBe("ok");
    // An owner's own moderation is theirs, not an administrator's act: nothing in the audit log.
    expect([...(await auditOf(first.id)), ...(await auditOf(second.id))]).toEqual([]);
    const approved = await listApprovedTributes(m.id);
    expect(approved.items.map((t) => t.content)).toEqual(["First memory, long enough."]);
    expect(await app.db.prisma.tribute.count({ where: { id: second.id } })).toBe(0);
  });

  it.skipIf(skip)("lets only the owner moderate, and an admin only on an admin's memorial", async () => {
    const owner = await user();
    const other = await user();
    const admin = await user(true);
    const memberMemorial = await memorial(owner.id);
    const adminMemorial = await memorial(admin.id);
    const onMember = await tribute(memberMemorial.id);
    const onAdmin = await tribute(adminMemorial.id);
    expect(await moderateTribute("approve", onMember.id, as(other))).toBe("not-found");
    expect(await moderateTribute("reject", onMember.id, as(other))).toBe("not-found");
    expect(await moderateTribute("approve", onMember.id, as(admin, true))).toBe("forbidden");
    expect((await app.db.prisma.tribute.findUniqueOrThrow({ where: { id: onMember.id } })).isApproved).toBe(false);
    expect(await moderateTribute("approve", onAdmin.id, as(admin, true))).toBe("ok");
    // An administrator's moderation is recorded wherever it was done from; a refused one is not.
    expect(await auditOf(onAdmin.id)).toEqual(["tribute.approve"]);
    expect(await auditOf(onMember.id)).toEqual([]);
    const adminList = await listTributesForAdmin(false);
    expect(adminList.find((t) => t.id === onMember.id)?.memorialCreatorIsAdmin).toBe(false);
    expect(await listPendingForOwner(other.id)).toEqual([]);
    expect((await listPendingForOwner(owner.id)).map((t) => t.id)).toEqual([onMember.id]);
  });

  it.skipIf(skip)("leaves a tribute in one statement and answers it as stored", async () => {
    const owner = await user();
    const m = await memorial(owner.id);
    const left = await leaveTribute(
      m.id,
      { authorName: "Ann", authorEmail: "ann@example.test", content: "A lovely memory of her." },
      `198.51.100.${n++ % 250}`,
    );
    expect(left.ok).toBe(true);
    if (!left.ok) return;
    const stored = await app.db.prisma.tribute.findUniqueOrThrow({
      where: { id: left.tribute.id },
      select: { id: true, authorName: true, content: true, createdAt: true, isApproved: true, memorialId: true, authorEmail: true },
    });
    expect(left.tribute).toEqual(stored);
    expect(Math.abs(stored.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it.skipIf(skip)("moderates from a memorial's page only that memorial's tributes, and none of a deleted memorial", async () => {
    const owner = await user();
    const here = await memorial(owner.id);
    const there = await memorial(owner.id);
    const onThere = await tribute(there.id);
    expect(await moderateTribute("approve", onThere.id, as(owner), here.id)).toBe("not-found");
    expect(await moderateTribute("reject", onThere.id, as(owner), here.id)).toBe("not-found");
    expect(await app.db.prisma.tribute.findUniqueOrThrow({ where: { id: onThere.id } })).toMatchObject({ isApproved: false });
    expect(await moderateTribute("approve", onThere.id, as(owner), there.id)).toBe("ok");
    expect(await app.db.prisma.tribute.findUniqueOrThrow({ where: { id: onThere.id } })).toMatchObject({ isApproved: true });
    // Approved already counts as done; a deleted memorial's tributes wait with it, untouched, for its restoring.
    expect(await moderateTribute("approve", onThere.id, as(owner), there.id)).toBe("ok");
    const waiting = await tribute(here.id);
    await app.db.prisma.$executeRaw`UPDATE "memorial_records" SET "deletedAt" = now() WHERE "id" = ${here.id}`;
    expect(await moderateTribute("approve", waiting.id, as(owner))).toBe("not-found");
    expect(await moderateTribute("reject", waiting.id, as(owner), here.id)).toBe("not-found");
    expect(await app.db.prisma.tribute.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({ isApproved: false });
  });

  it.skipIf(skip)("pages approved tributes newest first", async () => {
    const owner = await user();
    const m = await memorial(owner.id);
    const start = Date.now() - 100_000;
    await app.db.prisma.tribute.createMany({
      data: Array.from({ length: TRIBUTES_PER_PAGE + 3 }, (_, i) => ({
        memorialId: m.id,
        authorName: "A",
        content: `Memory number ${i}`,
        isApproved: true,
        createdAt: new Date(start + i * 1000),
      })),
    });
    const first = await listApprovedTributes(m.id, 1);
    const second = await listApprovedTributes(m.id, 2);
    expect(first).toMatchObject({ total: TRIBUTES_PER_PAGE + 3, pages: 2, page: 1 });
    expect(first.items[0].content).toBe(`Memory number ${TRIBUTES_PER_PAGE + 2}`);
    expect(second.items).toHaveLength(3);
    expect((await listApprovedTributes(m.id, -5)).page).toBe(1);
  });
});
