import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../test/databases";
import { SHIPPING as SHOP_SHIPPING } from "../../test/shop";
import { addToCart, getBasket } from "./cart.server";
import { completePayment, getCheckoutForPayment, listOrders, payTestPayment, retryPendingRefunds, startCheckout } from "./order.server";
import { testProvider } from "~/services/payments.server";
import { ORDERS_PER_PAGE, SHOP_MESSAGES } from "~/utils/shop";
import type { ShippingDetails } from "~/utils/validation/shop";

// Checkout and orders with the built-in test provider (issue 16 §3–§6), on PGlite and PostgreSQL: what is
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
    const u = await app.db.prisma.user.create({ data: { email: `order${Date.now().toString(36)}${n++}@example.com`, firstName: "Bea", lastName: "Buyer", password: "x" } });
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

  it.skipIf(skip)("charges the basket as the database prices it, then makes one order with the stock taken, the basket emptied and the email queued", async () => {
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
    expect(await app.db.prisma.mailOutbox.findMany({ where: { to: SHIPPING.email, kind: "order-confirmation", data: { equals: { orderId: paid.order.id } } } })).toHaveLength(1);

    // Again (the page reloaded, the /api asked, a second tab): the same order, nothing taken twice.
    expect(await completePayment({ paymentId }, { userId: user.id })).toMatchObject({ ok: true, created: false, order: { id: paid.order.id } });
    expect(await payTestPayment(user, paymentId)).toMatchObject({ ok: true, created: false });
    expect(await app.db.prisma.order.count({ where: { userId: user.id } })).toBe(1);
    expect((await app.db.prisma.product.findUniqueOrThrow({ where: { id: a.id } })).stockQuantity).toBe(3);
    expect(await getCheckoutForPayment(user, (await app.db.prisma.checkout.findFirstOrThrow({ where: { paymentId } })).id)).toEqual({ status: "done", paymentId });
  });

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
        data: { userId: user.id, totalAmount: 100 * (i + 1), paymentIntentId: `testpay_page${n}_${i}`, status: i === 0 ? "refund-requested" : "completed", createdAt: new Date(start + i * 1000) },
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
});
