import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { askProvider, type ProviderPayment } from "~/services/payments/provider.server";
import { testProvider } from "~/services/payments/test-provider.server";
import { formatPence } from "~/utils/money";
import { SHOP_MESSAGES } from "~/utils/shop";
import { queueMail } from "../mail/outbox.server";
import { freezeBooks } from "../memorials/book.server";
import { itemsOf, providerFor, shippingOf, type CheckoutItem, type CheckoutRow, type Member } from "./order-checkout.server";
import { finishRefund } from "./order-refunds.server";
import { loadOrder, SoldOutError, toOrderView, type OrderView } from "./orders.server";

// Completing a checkout's payment.
// The rules:
// - An order is created only once the provider says the payment succeeded, by whichever comes first of
//   the confirmation page, the /api call and the signed webhook; one use case (completePayment) for all.
//   A checkout moves from open to completed in one conditional update inside the order's transaction, and
//   a payment id is unique on checkouts and on orders, so the order is made at most once.
// - Stock goes down in that same transaction, by conditional updates; if an item ran out meanwhile the
//   transaction is undone, the payment is refunded through the provider (an idempotent refund, retried
//   until it goes through; order-refunds.server.ts) and the buyer is told plainly. Nothing charged is kept
//   without an order.
// - The basket loses what was bought, and the confirmation email is queued, in that transaction too.

export type CompletePaymentResult =
  | { ok: true; order: OrderView; created: boolean }
  | { ok: false; reason: "not-found"; message: string }
  | { ok: false; reason: "unpaid" | "processing"; message: string; paymentId: string; providerMessage: string | null }
  | { ok: false; reason: "refunded"; message: string; paymentId: string; refundPending: boolean }
  | { ok: false; reason: "provider"; message: string };

export type PaymentReference = { paymentId: string } | { sessionId: string };

const NOT_FOUND = { ok: false, reason: "not-found", message: SHOP_MESSAGES.invalidOrder } as const;

/** A payment or session id as providers make them (pi_…, cs_…, testpay_…): anything else finds nothing, unread. */
const isPaymentReference = (value: string) => /^[A-Za-z0-9_-]{1,255}$/.test(value);

/**
 * The one way an order is made (the confirmation page, POST /api/orders/create-from-payment, the Stripe
 * webhook and the test provider's Pay button all call it): asks the provider whether the payment
 * succeeded, then makes the order once. `userId` limits it to the member's own payments (someone else's
 * payment or session id finds nothing); the webhook, which is the provider itself, passes none.
 */
export async function completePayment(ref: PaymentReference, options: { userId?: string } = {}): Promise<CompletePaymentResult> {
  const where: Prisma.CheckoutWhereUniqueInput = "paymentId" in ref ? { paymentId: ref.paymentId } : { sessionId: ref.sessionId };
  const value = "paymentId" in ref ? ref.paymentId : ref.sessionId;
  if (!isPaymentReference(value)) return NOT_FOUND;
  let checkout = await prisma().checkout.findUnique({ where });
  if (!checkout || (options.userId !== undefined && checkout.userId !== options.userId)) return NOT_FOUND;
  if (checkout.status !== "open") return settled(checkout);

  const provider = providerFor(checkout);
  if (!provider) return { ok: false, reason: "provider", message: SHOP_MESSAGES.paymentUnexpected };
  const unreachable = { ok: false, reason: "provider", message: SHOP_MESSAGES.paymentUnexpected } as const;
  let paymentId = checkout.paymentId;
  const sessionId = checkout.sessionId;
  if (!paymentId && sessionId) {
    // The page without JavaScript: Stripe Checkout makes the payment when the buyer pays there.
    const asked = await askProvider(() => provider.getHostedCheckout(sessionId));
    if (!asked.ok) return unreachable;
    const session = asked.value;
    if (!session) return NOT_FOUND;
    if (!session.paid || !session.paymentId) return { ok: false, reason: "unpaid", message: SHOP_MESSAGES.unpaid, paymentId: sessionId, providerMessage: null };
    paymentId = session.paymentId;
    await prisma().checkout.updateMany({ where: { id: checkout.id, paymentId: null }, data: { paymentId } });
    checkout = (await prisma().checkout.findUnique({ where: { id: checkout.id } }))!;
    if (checkout.status !== "open") return settled(checkout);
  }
  if (!paymentId) return NOT_FOUND;
  const asked = await askProvider(() => provider.getPayment(paymentId));
  if (!asked.ok) return unreachable;
  const payment = asked.value;
  if (!payment) return NOT_FOUND;
  if (payment.status === "processing")
    return { ok: false, reason: "processing", message: SHOP_MESSAGES.processing, paymentId: payment.id, providerMessage: null };
  if (payment.status !== "succeeded")
    return { ok: false, reason: "unpaid", message: SHOP_MESSAGES.unpaid, paymentId: payment.id, providerMessage: payment.failureMessage };

  if (payment.amount !== checkout.totalAmount || payment.currency.toLowerCase() !== checkout.currency) {
    // Never happens with amounts we set ourselves; if it does, nothing is sold for the wrong money.
    console.error(
      `Payment ${payment.id} took ${payment.amount} ${payment.currency}, checkout ${checkout.id} expected ${checkout.totalAmount} ${checkout.currency}: refunding`,
    );
    await prisma().checkout.updateMany({ where: { id: checkout.id, status: "open" }, data: { status: "refunding", refundReason: "amount-mismatch" } });
    return settled((await prisma().checkout.findUnique({ where: { id: checkout.id } }))!);
  }
  return createOrder(checkout, payment);
}

async function createOrder(checkout: CheckoutRow, payment: ProviderPayment): Promise<CompletePaymentResult> {
  const items = itemsOf(checkout);
  const shipping = shippingOf(checkout);
  let orderId: string | null;
  try {
    orderId = await prisma().$transaction(async (tx) => {
      // The claim: only one transaction moves this checkout from open; a second waits here and finds nothing.
      const claimed = await tx.checkout.updateMany({ where: { id: checkout.id, status: "open" }, data: { status: "completed" } });
      if (!claimed.count) return null;
      const soldOut: string[] = [];
      for (const item of items) {
        if (!item.productId) continue;
        // Only while enough is left: two buyers of the last one cannot both have it.
        const taken = await tx.product.updateMany({
          where: { id: item.productId, stockQuantity: { gte: item.quantity } },
          data: { stockQuantity: { decrement: item.quantity } },
        });
        if (!taken.count) soldOut.push(item.name);
      }
      if (soldOut.length) throw new SoldOutError(soldOut);
      // A memorial book is printed as the memorial was when it was paid for (docs/decisions/029-memorial-book.md).
      const books = await freezeBooks(tx, items);
      const order = await tx.order.create({
        data: {
          userId: checkout.userId,
          totalAmount: checkout.totalAmount,
          subtotalAmount: checkout.subtotalAmount,
          taxAmount: checkout.taxAmount,
          currency: checkout.currency,
          status: "pending",
          paymentIntentId: payment.id,
          paymentProvider: checkout.provider,
          isTest: !payment.live,
          shippingAddress: { address: shipping.address, city: shipping.city, state: shipping.state, zipCode: shipping.zipCode, country: shipping.country },
          customerEmail: shipping.email,
          customerName: `${shipping.firstName} ${shipping.lastName}`,
          customerPhone: shipping.phone,
          items: {
            create: items.map((i, n) => ({
              productId: i.productId,
              memorialId: i.memorialId,
              name: i.name,
              quantity: i.quantity,
              price: i.unitPrice,
              book: books[n] ?? Prisma.DbNull,
            })),
          },
        },
        select: { id: true },
      });
      await tx.checkout.update({ where: { id: checkout.id }, data: { orderId: order.id } });
      if (checkout.userId) await takeFromBasket(tx, checkout.userId, items);
      // Transactional: always sent, whatever the member's email choices.
      await queueMail(tx, { to: shipping.email, kind: "order-confirmation", data: { orderId: order.id } });
      return order.id;
    });
  } catch (error) {
    if (isBasketOrderedError(error)) {
      // Another payment for this same basket already made its order (at most one checkout of a
      // basket is ever completed: a partial unique index). This one is refunded, once, and makes no order.
      await prisma().checkout.updateMany({ where: { id: checkout.id, status: "open" }, data: { status: "refunding", refundReason: "duplicate" } });
      return settled((await prisma().checkout.findUnique({ where: { id: checkout.id } }))!);
    }
    if (!(error instanceof SoldOutError)) throw error;
    await prisma().checkout.updateMany({
      where: { id: checkout.id, status: "open" },
      data: { status: "refunding", refundReason: "sold-out", soldOutItems: error.names.join(", ") },
    });
    return settled((await prisma().checkout.findUnique({ where: { id: checkout.id } }))!);
  }
  if (orderId === null) return settled((await prisma().checkout.findUnique({ where: { id: checkout.id } }))!);
  return { ok: true, order: toOrderView(await loadOrder(orderId)), created: true };
}

/** The claim of a checkout whose basket another completed checkout already ordered (checkouts_basketKey_completed_key). */
function isBasketOrderedError(error: unknown) {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") return false;
  const target = JSON.stringify(error.meta ?? {});
  return target.includes("basketKey") || !target.includes("paymentIntentId");
}

/** What was bought leaves the basket; anything added since, or beyond what was bought, stays. */
async function takeFromBasket(tx: Prisma.TransactionClient, userId: string, items: CheckoutItem[]) {
  for (const item of items) {
    const target = item.productId ? { productId: item.productId } : item.memorialId ? { memorialId: item.memorialId } : null;
    if (!target) continue;
    await tx.cartItem.deleteMany({ where: { userId, ...target, quantity: { lte: item.quantity } } });
    await tx.cartItem.updateMany({ where: { userId, ...target, quantity: { gt: item.quantity } }, data: { quantity: { decrement: item.quantity } } });
  }
}

/** A checkout that is no longer open: its order, or its refund (finished here if it has not gone through yet). */
async function settled(checkout: CheckoutRow): Promise<CompletePaymentResult> {
  if (checkout.status === "completed" && checkout.orderId) return { ok: true, order: toOrderView(await loadOrder(checkout.orderId)), created: false };
  if (checkout.status === "refunding") checkout = await finishRefund(checkout);
  const amount = formatPence(checkout.totalAmount);
  const message =
    checkout.refundReason === "sold-out"
      ? SHOP_MESSAGES.soldOut(checkout.soldOutItems || "an item", amount)
      : checkout.refundReason === "duplicate"
        ? SHOP_MESSAGES.duplicatePayment(amount)
        : `Your payment of ${amount} has been refunded in full and no order was placed. ${SHOP_MESSAGES.paymentUnexpected}`;
  return { ok: false, reason: "refunded", message, paymentId: checkout.paymentId ?? checkout.sessionId ?? "", refundPending: checkout.status !== "refunded" };
}

// ───────────────────────────── the test provider's Pay button ─────────────────────────────

/** Step 2 with the test provider: the payment succeeds (no card, no money), then the order is made. */
export async function payTestPayment(user: Member, paymentId: string): Promise<CompletePaymentResult> {
  const checkout = isPaymentReference(paymentId) ? await prisma().checkout.findUnique({ where: { paymentId } }) : null;
  if (!checkout || checkout.userId !== user.id || checkout.provider !== "test") return NOT_FOUND;
  if (checkout.status === "open") await testProvider.payTestPayment!(paymentId);
  return completePayment({ paymentId }, { userId: user.id });
}
