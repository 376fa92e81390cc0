import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { SHIPPING as SHOP_SHIPPING } from "../../../test/shop";
import { addToCart, getBasket } from "./cart.server";
import { changeOrderStatus, shipOrder } from "./order-status.server";
import { completePayment, payTestPayment } from "./order-completion.server";
import { getCheckoutForPayment, startCheckout } from "./order-checkout.server";
import { listOrders } from "./orders.server";
import { retryPendingRefunds } from "./order-refunds.server";
import { composeMail } from "../mail/compose.server";
import { type OutboxRow } from "../mail/outbox.server";
import { renderEmail } from "~/emails/index";
import { testProvider } from "~/services/payments/test-provider.server";
import { formatPence } from "~/utils/money";
import { MAX_ORDER_PENCE, ORDERS_PER_PAGE, SHOP_MESSAGES } from "~/utils/shop";
import { ADMIN_MESSAGES } from "~/utils/validation/admin";
import type { ShippingDetails } from "~/utils/validation/shop";

// Checkout and orders with the built-in test provider, on PGlite and PostgreSQL: what is
// charged comes from the database; an order is made once, only for a succeeded payment, with the stock
// taken, the basket emptied and the confirmation email queued in its transaction; a sold-out item means a
// refund and no order.

// Stripe is proven over HTTP against the local Stripe server (test/stripe.test.ts); here, the test provider.
process.env.PAYMENT_PROVIDER = "test";
process.env.STRIPE_SECRET_KEY = "";
process.env.STRIPE_PUBLISHABLE_KEY = "";

const SHIPPING: ShippingDetails = { ...SHOP_SHIPPING, email: "bea@example.com" };
const SITE = "http://localhost:3000";

let n = 0;
describe.each(databaseKinds)("checkout and orders on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const member = async () => {
    const u = await app.db.prisma.user.create({
      data: { email: `order${Date.now().toString(36)}${n++}@example.com`, firstName: "Bea", lastName: "Buyer", password: "x" },
    });
    return { id: u.id, isAdmin: false, email: u.email };
  };
  const product = (price: number, stock: number) =>
    app.db.prisma.product.create({ data: { name: `Frame ${n++}`, description: "Oak frame.", price, category: "Frames", stockQuantity: stock } });
  type Member = Awaited<ReturnType<typeof member>>;

  async function checkout(user: Member) {
    const started = await startCheckout(user, SHIPPING, { hosted: false, site: SITE });
    if (!started.ok || started.next.kind !== "pay-here") throw new Error(`checkout did not start: ${JSON.stringify(started)}`);
    return started.next.paymentId;
  }

  it.skipIf(skip)(
    "charges the basket as the database prices it, then makes one order with the stock taken, the basket emptied and the email queued",
    async () => {
      const user = await member();
      const a = await product(2500, 5);
      const b = await product(999, 2);
      await addToCart(user, { productId: a.id, quantity: 2 });
      await addToCart(user, { productId: b.id, quantity: 1 });
      const paymentId = await checkout(user);
      const payment = await testProvider.getPayment(paymentId);
      expect(payment).toMatchObject({ amount: 5999 + 480, currency: "gbp", status: "unpaid", live: false });

      // Not paid yet: no order, nothing taken.
      expect(await completePayment({ paymentId }, { userId: user.id })).toMatchObject({ ok: false, reason: "unpaid", message: SHOP_MESSAGES.unpaid });
      expect(await app.db.prisma.order.count({ where: { userId: user.id } })).toBe(0);

      const paid = await payTestPayment(user, paymentId);
      expect(paid).toMatchObject({ ok: true, created: true, order: { total: 6479, subtotal: 5999, tax: 480, isTest: true, paymentId, status: "pending" } });
      if (!paid.ok) return;
      expect(paid.order.items.map((i) => [i.name, i.quantity, i.unitPrice])).toEqual([
        [a.name, 2, 2500],
        [b.name, 1, 999],
      ]);
      expect((await app.db.prisma.product.findUniqueOrThrow({ where: { id: a.id } })).stockQuantity).toBe(3);
      expect((await app.db.prisma.product.findUniqueOrThrow({ where: { id: b.id } })).stockQuantity).toBe(1);
      expect((await getBasket(user)).lines).toEqual([]);
      expect(
        await app.db.prisma.mailOutbox.findMany({ where: { to: SHIPPING.email, kind: "order-confirmation", data: { equals: { orderId: paid.order.id } } } }),
      ).toHaveLength(1);

      // Again (the page reloaded, the /api asked, a second tab): the same order, nothing taken twice.
      expect(await completePayment({ paymentId }, { userId: user.id })).toMatchObject({ ok: true, created: false, order: { id: paid.order.id } });
      expect(await payTestPayment(user, paymentId)).toMatchObject({ ok: true, created: false });
      expect(await app.db.prisma.order.count({ where: { userId: user.id } })).toBe(1);
      expect((await app.db.prisma.product.findUniqueOrThrow({ where: { id: a.id } })).stockQuantity).toBe(3);
      expect(await getCheckoutForPayment(user, (await app.db.prisma.checkout.findFirstOrThrow({ where: { paymentId } })).id)).toEqual({
        status: "done",
        paymentId,
      });
    },
  );

  it.skipIf(skip)("makes one order when the payment is completed many times at once", async () => {
    const user = await member();
    const p = await product(1000, 10);
    await addToCart(user, { productId: p.id, quantity: 2 });
    const paymentId = await checkout(user);
    await testProvider.payTestPayment!(paymentId);
    const results = await Promise.all(Array.from({ length: 8 }, () => completePayment({ paymentId })));
    expect(results.filter((r) => r.ok && r.created)).toHaveLength(1);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await app.db.prisma.order.count({ where: { paymentIntentId: paymentId } })).toBe(1);
    expect((await app.db.prisma.product.findUniqueOrThrow({ where: { id: p.id } })).stockQuantity).toBe(8);
  });

  it.skipIf(skip)("shows nothing of someone else's payment", async () => {
    const buyer = await member();
    const stranger = await member();
    const p = await product(1000, 3);
    await addToCart(buyer, { productId: p.id });
    const paymentId = await checkout(buyer);
    expect(await payTestPayment(stranger, paymentId)).toEqual({ ok: false, reason: "not-found", message: SHOP_MESSAGES.invalidOrder });
    expect((await testProvider.getPayment(paymentId))?.status).toBe("unpaid");
    await payTestPayment(buyer, paymentId);
    expect(await completePayment({ paymentId }, { userId: stranger.id })).toMatchObject({ ok: false, reason: "not-found" });
    expect(await completePayment({ paymentId: "testpay_nosuchpayment" }, { userId: buyer.id })).toMatchObject({ ok: false, reason: "not-found" });
    expect(await completePayment({ sessionId: "x".repeat(300) })).toMatchObject({ ok: false, reason: "not-found" });
    // A NUL byte cannot even be looked up in PostgreSQL: not found, never an error.
    expect(await completePayment({ paymentId: "testpay_\u0000" })).toMatchObject({ ok: false, reason: "not-found" });
    expect(await payTestPayment(buyer, "testpay_a\u0000b")).toMatchObject({ ok: false, reason: "not-found" });
    expect((await getCheckoutForPayment(stranger, (await app.db.prisma.checkout.findFirstOrThrow({ where: { paymentId } })).id)).status).toBe("not-found");
  });

  it.skipIf(skip)("refuses an empty basket and one whose items ran short, before any payment is made", async () => {
    const user = await member();
    expect(await startCheckout(user, SHIPPING, { hosted: false, site: SITE })).toEqual({ ok: false, reason: "empty", message: SHOP_MESSAGES.basketEmpty });
    const p = await product(1000, 2);
    await addToCart(user, { productId: p.id, quantity: 2 });
    await app.db.prisma.product.update({ where: { id: p.id }, data: { stockQuantity: 1 } });
    expect(await startCheckout(user, SHIPPING, { hosted: false, site: SITE })).toEqual({ ok: false, reason: "stock", message: SHOP_MESSAGES.basketChanged });
    expect(await app.db.prisma.checkout.count({ where: { userId: user.id } })).toBe(0);
  });

  it.skipIf(skip)("refunds in full, and makes no order, when the last item was sold to someone else while paying", async () => {
    const first = await member();
    const second = await member();
    const p = await product(4000, 1);
    await addToCart(first, { productId: p.id });
    await addToCart(second, { productId: p.id });
    const firstPayment = await checkout(first);
    const secondPayment = await checkout(second);
    expect(await payTestPayment(first, firstPayment)).toMatchObject({ ok: true, created: true });
    const late = await payTestPayment(second, secondPayment);
    expect(late).toMatchObject({ ok: false, reason: "refunded", refundPending: false, paymentId: secondPayment });
    if (late.ok) return;
    expect(late.message).toBe(SHOP_MESSAGES.soldOut(p.name, "£43.20"));
    expect(late.message).toContain("stock");
    expect(await app.db.prisma.testPayment.findUniqueOrThrow({ where: { id: secondPayment } })).toMatchObject({ status: "succeeded", amountRefunded: 4320 });
    expect(await app.db.prisma.order.count({ where: { userId: second.id } })).toBe(0);
    expect((await app.db.prisma.product.findUniqueOrThrow({ where: { id: p.id } })).stockQuantity).toBe(0);
    // The second buyer's basket keeps the item, now marked out of stock.
    expect((await getBasket(second)).lines[0].problem).toBe(SHOP_MESSAGES.outOfStock);
    // Asked again: the same answer, and no second refund.
    expect(await completePayment({ paymentId: secondPayment }, { userId: second.id })).toMatchObject({ ok: false, reason: "refunded", refundPending: false });
    expect(await retryPendingRefunds()).toBe(0);
  });

  it.skipIf(skip)("pages My Orders newest first", async () => {
    const user = await member();
    const start = Date.now() - 1_000_000;
    for (let i = 0; i < ORDERS_PER_PAGE + 2; i++) {
      await app.db.prisma.order.create({
        data: {
          userId: user.id,
          totalAmount: 100 * (i + 1),
          paymentIntentId: `testpay_page${n}_${i}`,
          status: i === 0 ? "refund-requested" : "completed",
          createdAt: new Date(start + i * 1000),
        },
      });
    }
    n++;
    const first = await listOrders(user.id, 1);
    expect(first).toMatchObject({ total: ORDERS_PER_PAGE + 2, pages: 2, page: 1 });
    expect(first.orders[0].total).toBe(100 * (ORDERS_PER_PAGE + 2));
    const second = await listOrders(user.id, 2);
    expect(second.orders).toHaveLength(2);
    expect(second.orders[1].badge).toEqual({ label: "Refund-requested", tone: "destructive" });
    expect(second.orders[0].badge).toEqual({ label: "Completed", tone: "success" });
    expect((await listOrders(user.id, 50)).page).toBe(2);
  });

  // ───────────── one basket, one payment, one order; restock once; shipped; bounds ─────────────

  const admin = async () => {
    const u = await app.db.prisma.user.create({
      data: { email: `oadm${Date.now().toString(36)}${n++}@example.com`, firstName: "Ada", lastName: "Admin", password: "x", isAdmin: true },
    });
    return { id: u.id, email: u.email, isAdmin: true as const, ip: "10.0.0.1" };
  };
  const stockOf = async (id: string) => (await app.db.prisma.product.findUniqueOrThrow({ where: { id } })).stockQuantity;
  /** The email a queued row becomes, as text (what the buyer reads). */
  async function mailText(where: { kind: string; to?: string }) {
    const rows = await app.db.prisma.mailOutbox.findMany({ where });
    return Promise.all(
      rows.map(async (row) => {
        const composed = await composeMail({ ...row, data: row.data as Record<string, unknown> } as OutboxRow);
        if ("skip" in composed) return `skipped: ${composed.skip}`;
        const { subject, text } = await renderEmail(composed.kind, composed.props as never);
        return `${subject}\n${text}`;
      }),
    );
  }

  it.skipIf(skip)(
    "reuses the open payment for a second checkout of an unchanged basket, with the newest shipping, and makes a new one once the basket changes",
    async () => {
      const user = await member();
      const p = await product(1500, 10);
      await addToCart(user, { productId: p.id, quantity: 2 });
      const first = await checkout(user);
      const second = await startCheckout(user, { ...SHIPPING, address: "2 Low Street" }, { hosted: false, site: SITE });
      expect(second).toMatchObject({ ok: true, next: { kind: "pay-here", paymentId: first } });
      expect(await app.db.prisma.checkout.count({ where: { userId: user.id } })).toBe(1);
      expect(await app.db.prisma.testPayment.count({ where: { metadata: { path: ["userId"], equals: user.id } } })).toBe(1);
      // Paid: the order goes to the address given last.
      const paid = await payTestPayment(user, first);
      expect(paid).toMatchObject({ ok: true, created: true });
      if (paid.ok) expect(paid.order.shipping[0]).toBe("2 Low Street");

      // A changed basket is another basket: another payment.
      await addToCart(user, { productId: p.id, quantity: 1 });
      const third = await checkout(user);
      await addToCart(user, { productId: p.id, quantity: 1 });
      const fourth = await checkout(user);
      expect(new Set([first, third, fourth]).size).toBe(3);
    },
  );

  it.skipIf(skip)("makes one open payment for ten checkouts of one basket at once", async () => {
    const user = await member();
    const p = await product(1000, 10);
    await addToCart(user, { productId: p.id, quantity: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, () => startCheckout(user, SHIPPING, { hosted: false, site: SITE })));
    const ids = results.map((r) => (r.ok && r.next.kind === "pay-here" ? r.next.paymentId : `failed: ${JSON.stringify(r)}`));
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^testpay_/);
    expect(await app.db.prisma.checkout.count({ where: { userId: user.id, status: "open" } })).toBe(1);
    expect(await app.db.prisma.testPayment.count({ where: { metadata: { path: ["userId"], equals: user.id } } })).toBe(1);
  });

  it.skipIf(skip)("refunds once, and makes no second order, a second payment for a basket already ordered, and emails the buyer", async () => {
    const user = await member();
    const p = await product(2000, 10);
    await addToCart(user, { productId: p.id, quantity: 2 });
    const firstPayment = await checkout(user);
    // A second checkout of the same basket paid another way (Stripe Checkout without JavaScript; an older tab):
    // the same basket's row with a payment of its own.
    const open = await app.db.prisma.checkout.findFirstOrThrow({ where: { paymentId: firstPayment } });
    const other = await testProvider.createPayment({
      amount: open.totalAmount,
      currency: "gbp",
      idempotencyKey: `other-${open.id}`,
      description: "x",
      metadata: { userId: user.id },
    });
    const { id: _id, createdAt: _c, updatedAt: _u, orderId: _o, sessionId: _s, ...copy } = open;
    await app.db.prisma.checkout.create({ data: { ...copy, items: copy.items as object, shipping: copy.shipping as object, paymentId: other.id } });
    await testProvider.payTestPayment!(firstPayment);
    await testProvider.payTestPayment!(other.id);

    // Both completed at once (the webhook and the page): one order, one refund.
    const results = await Promise.all([
      completePayment({ paymentId: firstPayment }),
      completePayment({ paymentId: other.id }),
      completePayment({ paymentId: other.id }),
    ]);
    expect(results.filter((r) => r.ok && r.created)).toHaveLength(1);
    expect(await app.db.prisma.order.count({ where: { userId: user.id } })).toBe(1);
    expect(await stockOf(p.id)).toBe(8);
    const refunded = results.find((r) => !r.ok);
    expect(refunded).toMatchObject({ ok: false, reason: "refunded", message: SHOP_MESSAGES.duplicatePayment("£43.20") });
    const loser = results[0].ok && results[0].created ? other.id : firstPayment;
    expect((await app.db.prisma.testPayment.findUniqueOrThrow({ where: { id: loser } })).amountRefunded).toBe(4320);
    // Asked again later: the same answer, nothing refunded or emailed twice.
    expect(await completePayment({ paymentId: loser })).toMatchObject({ ok: false, reason: "refunded", refundPending: false });
    expect(await retryPendingRefunds()).toBe(0);
    const mails = await mailText({ kind: "payment-refunded", to: SHIPPING.email });
    const mine = mails.filter((m) => m.includes(loser));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toContain("£43.20");
    expect(mine[0]).toContain(`2 × ${p.name}`);
    expect(mine[0]).toContain(`${SITE}/orders`);
  });

  it.skipIf(skip)("refuses a basket over what one order can take with a clear message, before anything is made", async () => {
    const user = await member();
    // £100,000 a piece (the highest price), 250 of them: £27m, over 2^31−1 pence.
    const p = await product(10_000_000, 300);
    await addToCart(user, { productId: p.id, quantity: 250 });
    const total = 250 * 10_000_000 * 1.08;
    expect(total).toBeGreaterThan(2 ** 31 - 1);
    const result = await startCheckout(user, SHIPPING, { hosted: false, site: SITE });
    expect(result).toEqual({ ok: false, reason: "too-large", message: SHOP_MESSAGES.orderTooLarge(formatPence(total)) });
    if (!result.ok) expect(result.message).toContain(formatPence(MAX_ORDER_PENCE));
    expect(await app.db.prisma.checkout.count({ where: { userId: user.id } })).toBe(0);
  });

  it.skipIf(skip)("puts a cancelled order's items back in stock once, however often it is cancelled, and emails the amount", async () => {
    const user = await member();
    const urn = await product(9900, 16);
    await addToCart(user, { productId: urn.id, quantity: 3 });
    const paid = await payTestPayment(user, await checkout(user));
    if (!paid.ok) throw new Error("not paid");
    expect(await stockOf(urn.id)).toBe(13);
    const a = await admin();
    const results = await Promise.all([changeOrderStatus(a, paid.order.id, "cancelled"), changeOrderStatus(a, paid.order.id, "cancelled")]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await stockOf(urn.id)).toBe(16);
    expect(await changeOrderStatus(a, paid.order.id, "cancelled")).toMatchObject({ ok: true, unchanged: true });
    expect(await stockOf(urn.id)).toBe(16);
    expect(await changeOrderStatus(a, paid.order.id, "pending")).toMatchObject({ ok: false, reason: "refunded" });
    const mails = await mailText({ kind: "order-cancelled", to: SHIPPING.email });
    const mine = mails.filter((m) => m.includes(paid.order.number));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toContain("£320.76");
    expect(mine[0]).toContain(`3 × ${urn.name}`);
    expect(mine[0]).toContain(paid.order.paymentId!);

    // An order without a payment: cancelled and restocked once; put back, its items leave the stock again.
    const unpaid = await app.db.prisma.order.create({
      data: { totalAmount: 100, status: "pending", items: { create: [{ productId: urn.id, name: urn.name, quantity: 2, price: 50 }] } },
    });
    await Promise.all([changeOrderStatus(a, unpaid.id, "cancelled"), changeOrderStatus(a, unpaid.id, "cancelled")]);
    expect(await stockOf(urn.id)).toBe(18);
    expect(await changeOrderStatus(a, unpaid.id, "processing")).toMatchObject({ ok: true });
    expect(await stockOf(urn.id)).toBe(16);
  });

  it.skipIf(skip)("ships an order with its carrier and tracking number, shown in My Orders and emailed once, and never a cancelled one", async () => {
    const user = await member();
    const p = await product(2500, 5);
    await addToCart(user, { productId: p.id });
    const paid = await payTestPayment(user, await checkout(user));
    if (!paid.ok) throw new Error("not paid");
    expect(paid.order.badge.label).toBe("Paid");
    const a = await admin();
    expect(await changeOrderStatus(a, paid.order.id, "shipped")).toEqual({ ok: false, reason: "invalid", message: ADMIN_MESSAGES.needsTracking });
    const details = { carrier: "Royal Mail", trackingNumber: "RM123456785GB" };
    expect(await shipOrder(a, paid.order.id, details)).toMatchObject({ ok: true, unchanged: false });
    expect(await shipOrder(a, paid.order.id, details)).toMatchObject({ ok: true, unchanged: true });
    const [mine] = (await listOrders(user.id)).orders;
    expect(mine).toMatchObject({ status: "shipped", badge: { label: "Shipped" }, carrier: "Royal Mail", trackingNumber: "RM123456785GB" });
    const mails = (await mailText({ kind: "order-shipped", to: SHIPPING.email })).filter((m) => m.includes(paid.order.number));
    expect(mails).toHaveLength(1);
    for (const text of ["Royal Mail", "RM123456785GB", "£27.00", p.name, paid.order.paymentId!, `${SITE}/orders`]) expect(mails[0]).toContain(text);

    await changeOrderStatus(a, paid.order.id, "cancelled");
    expect(await shipOrder(a, paid.order.id, { carrier: "DPD", trackingNumber: "1" })).toEqual({
      ok: false,
      reason: "invalid",
      message: ADMIN_MESSAGES.shipCancelled,
    });
  });
});
