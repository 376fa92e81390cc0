import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../test/databases";
import { deleteUserAsAdmin, listPendingTributesForAdmin, setAdminRights } from "./admin.server";
import { moderateTribute } from "./tributes/tributes.server";
import { dailyFigures } from "./analytics.server";
import { listAudit, type AdminActor } from "./audit.server";
import { changeOrderStatus } from "./commerce/order-status.server";
import { createProduct, removeProduct, updateProduct } from "./commerce/products.server";
import { ADMIN_MESSAGES } from "~/utils/validation/admin";

// The admin dashboard's rules on PGlite and PostgreSQL: the last administrator keeps their
// rights and one's own go only when confirmed; deleting a user takes their memorials; tributes are
// moderated under the one rule; a product with orders is deactivated, not deleted; cancelling a paid order
// refunds it once and emails once; the analytics equal direct counts; every change is in the audit log,
// which cannot be edited.

process.env.PAYMENT_PROVIDER = "test";
process.env.STRIPE_SECRET_KEY = "";

describe.each(databaseKinds)("the admin dashboard on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const user = async (isAdmin = false) => {
    const u = await app.db.prisma.user.create({
      data: { email: `adm-${randomBytes(5).toString("hex")}@example.com`, firstName: "Ada", lastName: isAdmin ? "Admin" : "Member", password: "x", isAdmin },
    });
    return u;
  };
  const actor = (u: { id: string; email: string }): AdminActor => ({ id: u.id, email: u.email, isAdmin: true, ip: "10.1.2.3" });
  const auditOf = async (targetId: string) =>
    (await app.db.prisma.auditLog.findMany({ where: { targetId }, orderBy: { createdAt: "asc" } })).map((a) => a.action);

  it.skipIf(skip)(
    "keeps the last administrator's rights, removes one's own only when confirmed, and lets only one of two simultaneous removals through",
    async () => {
      // A fresh database: these are its only administrators.
      await app.db.prisma.user.updateMany({ where: { isAdmin: true }, data: { isAdmin: false } });
      const a = await user(true);
      expect(await setAdminRights(actor(a), a.id, false)).toEqual({ ok: false, reason: "own-rights" });
      expect(await setAdminRights(actor(a), a.id, false, { confirmOwn: true })).toEqual({ ok: false, reason: "last-admin" });
      const b = await user();
      expect(await setAdminRights(actor(a), b.id, true)).toMatchObject({ ok: true, user: { id: b.id, isAdmin: true } });
      // Each removes the other at the same moment: one of them must stay an administrator.
      const results = await Promise.all([setAdminRights(actor(a), b.id, false), setAdminRights(actor(b), a.id, false)]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: "last-admin" }]);
      expect(await app.db.prisma.user.count({ where: { isAdmin: true } })).toBe(1);
      expect(await auditOf(b.id)).toContain("user.grant-admin");
      // The grant, found by the email of whom it named (whichever of the two removals went through is newer).
      const entry = (await listAudit({ search: b.email })).items.find((item) => item.action === "user.grant-admin");
      expect(entry).toMatchObject({ actorEmail: a.email, ip: "10.1.2.3", targetType: "user" });
    },
  );

  it.skipIf(skip)("deletes a user with their memorials and tributes (hidden, kept 30 days), never oneself, and records it", async () => {
    const admin = await user(true);
    const member = await user();
    const memorial = await app.db.prisma.memorial.create({ data: { userId: member.id, title: "In memory", firstName: "Gone", lastName: "Too" } });
    await app.db.prisma.tribute.create({ data: { memorialId: memorial.id, authorName: "Ann", content: "Kind soul" } });
    expect(await deleteUserAsAdmin(actor(admin), admin.id)).toEqual({ ok: false, reason: "own-account" });
    expect(await deleteUserAsAdmin(actor(admin), member.id)).toMatchObject({ ok: true, user: { email: member.email } });
    // Hidden at once (the memorials view leaves it out), kept with its tributes for the 30 days.
    expect(await app.db.prisma.memorial.count({ where: { id: memorial.id } })).toBe(0);
    expect(await app.db.prisma.tribute.count({ where: { memorialId: memorial.id } })).toBe(1);
    expect(await app.db.prisma.user.findUniqueOrThrow({ where: { id: member.id }, select: { deletedAt: true } })).toMatchObject({
      deletedAt: expect.any(Date),
    });
    expect(await deleteUserAsAdmin(actor(admin), member.id)).toEqual({ ok: false, reason: "not-found" });
    expect(await auditOf(member.id)).toEqual(["user.delete"]);
    // The account-deleted email goes to the member.
    expect(await app.db.prisma.mailOutbox.count({ where: { to: member.email, kind: "account-deleted" } })).toBe(1);
  });

  it.skipIf(skip)("moderates tributes only on memorials an administrator created, under the one rule", async () => {
    const admin = await user(true);
    const member = await user();
    const own = await app.db.prisma.memorial.create({ data: { userId: admin.id, title: `Admin's ${admin.id}`, firstName: "A", lastName: "B" } });
    const theirs = await app.db.prisma.memorial.create({ data: { userId: member.id, title: `Member's ${member.id}`, firstName: "C", lastName: "D" } });
    const t1 = await app.db.prisma.tribute.create({ data: { memorialId: own.id, authorName: "Ann", content: "On the admin's" } });
    const t2 = await app.db.prisma.tribute.create({ data: { memorialId: theirs.id, authorName: "Ben", content: "On the member's" } });
    const list = await listPendingTributesForAdmin(admin, { search: "On the" });
    expect(Object.fromEntries(list.items.filter((t) => [t1.id, t2.id].includes(t.id)).map((t) => [t.id, t.canAct]))).toEqual({ [t1.id]: true, [t2.id]: false });
    expect(await moderateTribute("approve", t2.id, actor(admin))).toBe("forbidden");
    expect((await app.db.prisma.tribute.findUniqueOrThrow({ where: { id: t2.id } })).isApproved).toBe(false);
    expect(await moderateTribute("approve", t1.id, actor(admin))).toBe("ok");
    expect(await auditOf(t1.id)).toEqual(["tribute.approve"]);
    expect(await auditOf(t2.id)).toEqual([]);
  });

  it.skipIf(skip)("deletes a product nobody ordered and deactivates one with orders", async () => {
    const admin = await user(true);
    const input = { name: "Oak frame", description: "A frame.", category: "Frames", price: 2499, stockQuantity: 4, isActive: true, imageUrl: null };
    const fresh = await createProduct(actor(admin), input);
    const ordered = await createProduct(actor(admin), { ...input, name: "Candle" });
    await app.db.prisma.order.create({ data: { totalAmount: 2699, items: { create: [{ productId: ordered.id, quantity: 1, price: 2499, name: "Candle" }] } } });
    expect(await removeProduct(actor(admin), fresh.id)).toMatchObject({ ok: true, outcome: "deleted" });
    expect(await removeProduct(actor(admin), ordered.id)).toMatchObject({ ok: true, outcome: "deactivated" });
    expect(await app.db.prisma.product.findUnique({ where: { id: fresh.id } })).toBeNull();
    expect((await app.db.prisma.product.findUniqueOrThrow({ where: { id: ordered.id } })).isActive).toBe(false);
    expect(await auditOf(ordered.id)).toEqual(["product.create", "product.deactivate"]);
  });

  it.skipIf(skip)("cancels a paid order with one refund and one email however often it is cancelled, and keeps a refunded order cancelled", async () => {
    const admin = await user(true);
    const paymentId = `testpay_${randomBytes(12).toString("hex")}`;
    await app.db.prisma.testPayment.create({ data: { id: paymentId, idempotencyKey: paymentId, amount: 2699, currency: "gbp", status: "succeeded" } });
    const order = await app.db.prisma.order.create({
      data: {
        totalAmount: 2699,
        status: "processing",
        paymentIntentId: paymentId,
        paymentProvider: "test",
        isTest: true,
        customerEmail: "buyer@example.com",
        customerName: "Bea Buyer",
      },
    });
    const results = await Promise.all([changeOrderStatus(actor(admin), order.id, "cancelled"), changeOrderStatus(actor(admin), order.id, "cancelled")]);
    expect(results.every((r) => r.ok && r.refunded)).toBe(true);
    const after = await app.db.prisma.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(after).toMatchObject({ status: "cancelled", refundId: expect.stringMatching(/^testrefund_/) });
    expect((await app.db.prisma.testPayment.findUniqueOrThrow({ where: { id: paymentId } })).amountRefunded).toBe(2699);
    expect(await app.db.prisma.mailOutbox.count({ where: { kind: "order-cancelled", data: { equals: { orderId: order.id } } } })).toBe(1);
    expect(await auditOf(order.id)).toEqual(["order.refund"]);
    expect(await changeOrderStatus(actor(admin), order.id, "pending")).toMatchObject({ ok: false, reason: "refunded" });

    // An unpaid order is simply cancelled: nothing to refund.
    const unpaid = await app.db.prisma.order.create({ data: { totalAmount: 100, status: "pending" } });
    expect(await changeOrderStatus(actor(admin), unpaid.id, "cancelled")).toMatchObject({ ok: true, refunded: false });
    expect(await changeOrderStatus(actor(admin), unpaid.id, "completed")).toMatchObject({ ok: true, status: "completed" });
    expect(await auditOf(unpaid.id)).toEqual(["order.status", "order.status"]);
  });

  it.skipIf(skip)("keeps a sale made while a product was being edited, and refuses a stock figure that changed meanwhile", async () => {
    const admin = await user(true);
    const input = { name: "Urn", description: "A brass urn.", category: "Urns", price: 12000, stockQuantity: 16, isActive: true, imageUrl: null };
    const urn = await createProduct(actor(admin), input);
    // The form was loaded at 16; three sold; the price is edited, the stock left as loaded.
    await app.db.prisma.product.update({ where: { id: urn.id }, data: { stockQuantity: { decrement: 3 } } });
    expect(await updateProduct(actor(admin), urn.id, { ...input, price: 12500, expectedStock: 16 })).toMatchObject({
      ok: true,
      product: { price: 12500, stockQuantity: 13 },
    });
    // The stock changed in the form (to 20) while one more sold: nothing saved, the current figure told.
    await app.db.prisma.product.update({ where: { id: urn.id }, data: { stockQuantity: { decrement: 1 } } });
    expect(await updateProduct(actor(admin), urn.id, { ...input, name: "Brass urn", stockQuantity: 20, expectedStock: 13 })).toEqual({
      ok: false,
      reason: "stock-changed",
      stock: 12,
      message: ADMIN_MESSAGES.stockChanged(12),
    });
    expect(await app.db.prisma.product.findUniqueOrThrow({ where: { id: urn.id } })).toMatchObject({ name: "Urn", stockQuantity: 12 });
    // Saved again from the figure now shown: set.
    expect(await updateProduct(actor(admin), urn.id, { ...input, stockQuantity: 20, expectedStock: 12 })).toMatchObject({
      ok: true,
      product: { stockQuantity: 20 },
    });
    expect(await auditOf(urn.id)).toEqual(["product.create", "product.update", "product.update"]);
  });

  it.skipIf(skip)("counts the last 30 days per day exactly as direct counts do", async () => {
    const member = await user();
    const today = new Date("2030-06-30T12:00:00Z");
    const day = (n: number, hour = 10) => new Date(Date.UTC(2030, 5, 30 - n, hour));
    for (const [n, count] of [
      [0, 2],
      [3, 1],
      [29, 4],
      [30, 5],
    ] as const) {
      for (let i = 0; i < count; i++) {
        const m = await app.db.prisma.memorial.create({ data: { userId: member.id, title: "x", firstName: "x", lastName: "y", createdAt: day(n, i) } });
        await app.db.prisma.tribute.create({ data: { memorialId: m.id, authorName: "A", content: "c", isApproved: i % 2 === 0, createdAt: day(n, i) } });
        await app.db.prisma.order.create({ data: { totalAmount: 1000 + i, status: i === 1 ? "cancelled" : "pending", createdAt: day(n, i) } });
      }
    }
    const purchase = await app.db.prisma.planPurchase.create({
      data: { planId: "forever", paymentType: "full", provider: "test", instalmentCount: 1, status: "completed", userId: member.id },
    });
    await app.db.prisma.planPayment.create({ data: { purchaseId: purchase.id, number: 1, amount: 27900, status: "succeeded", dueAt: day(3), paidAt: day(3) } });

    const figures = await dailyFigures(today);
    expect(figures.days).toHaveLength(30);
    expect(figures.days[0].day).toBe("2030-06-01");
    expect(figures.days[29].day).toBe("2030-06-30");
    // Direct counts of the same rows, day by day.
    for (const d of figures.days) {
      const from = new Date(`${d.day}T00:00:00Z`);
      const to = new Date(from.getTime() + 86_400_000);
      const range = { gte: from, lt: to };
      const orders = await app.db.prisma.order.aggregate({
        where: { createdAt: range, status: { not: "cancelled" } },
        _count: { _all: true },
        _sum: { totalAmount: true },
      });
      expect(d).toMatchObject({
        memorials: await app.db.prisma.memorial.count({ where: { createdAt: range } }),
        tributes: await app.db.prisma.tribute.count({ where: { createdAt: range } }),
        tributesApproved: await app.db.prisma.tribute.count({ where: { createdAt: range, isApproved: true } }),
        orders: orders._count._all,
        revenue: orders._sum.totalAmount ?? 0,
        members: await app.db.prisma.user.count({ where: { createdAt: range } }),
      });
    }
    expect(figures.days[29]).toMatchObject({ memorials: 2, tributes: 2, tributesApproved: 1, orders: 1, revenue: 1000 });
    expect(figures.days[26]).toMatchObject({ memorials: 1, planPurchases: 1, endowment: Math.floor((27900 * 15) / 100) });
    expect(figures.days[0]).toMatchObject({ memorials: 4, orders: 3, revenue: 1000 + 1002 + 1003 });
    expect(figures.totals.memorials).toBe(7);
  });

  it.skipIf(skip)("refuses to change or delete an audit record", async () => {
    const admin = await user(true);
    await createProduct(actor(admin), {
      name: "Card",
      description: "A card.",
      category: "Cards",
      price: 399,
      stockQuantity: 1,
      isActive: true,
      imageUrl: null,
    });
    const entry = await app.db.prisma.auditLog.findFirstOrThrow({ where: { actorId: admin.id } });
    await expect(app.db.prisma.auditLog.update({ where: { id: entry.id }, data: { summary: "nothing happened" } })).rejects.toThrow();
    await expect(app.db.prisma.auditLog.delete({ where: { id: entry.id } })).rejects.toThrow();
    // Nor emptied at once.
    await expect(app.db.prisma.$executeRawUnsafe('TRUNCATE "audit_log"')).rejects.toThrow(/audit log cannot be changed/);
    expect((await app.db.prisma.auditLog.findUniqueOrThrow({ where: { id: entry.id } })).summary).toBe(entry.summary);
  });
});
