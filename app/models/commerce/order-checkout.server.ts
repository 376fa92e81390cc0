import { createHash } from "node:crypto";
import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { holdAdvisoryLock } from "~/services/transaction-locks.server";
import { getPaymentProvider } from "~/services/payments.server";
import { askProvider, type PaymentProvider } from "~/services/payments/provider.server";
import { testProvider } from "~/services/payments/test-provider.server";
import { formatPence } from "~/utils/money";
import { MAX_ORDER_PENCE, SHOP_MESSAGES, TAX_LABEL } from "~/utils/shop";
import type { ShippingDetails } from "~/utils/validation/shop";
import type { RateLimited } from "../rate-limit.server";
import { getBasket } from "./cart.server";
import { isRecordId } from "../memorials/access.server";
import type { Viewer } from "../memorials/access-rules";
import { describeRetry, hitRateLimit, RATE_LIMIT_MESSAGES, RATE_LIMITS } from "../rate-limit.server";

// Checkout. The rules:
// - What is charged is computed here from the database: the basket's lines at today's prices plus 8% tax.
//   An amount or item list a client sends is never read.
// - Before the provider is asked for a payment, a checkout row records exactly what is being paid for
//   (items, prices, shipping, amounts); the order is made from that row (order-completion.server.ts), not
//   from the basket, which may change while the buyer pays.

export type Member = NonNullable<Viewer> & { email: string };

export type CheckoutItem = { productId: string | null; memorialId: string | null; name: string; imageUrl: string | null; quantity: number; unitPrice: number };

export type CheckoutRow = Prisma.CheckoutGetPayload<object>;

export const itemsOf = (checkout: Pick<CheckoutRow, "items">) => checkout.items as unknown as CheckoutItem[];
export const shippingOf = (checkout: Pick<CheckoutRow, "shipping">) => checkout.shipping as unknown as ShippingDetails;

/** The provider that took a checkout's payment: the configured one, or the test provider for test checkouts. */
export function providerFor(checkout: Pick<CheckoutRow, "provider">): PaymentProvider | null {
  if (checkout.provider === "test") return testProvider;
  const provider = getPaymentProvider();
  return provider.name === checkout.provider ? provider : null;
}

// ───────────────────────────── starting a checkout ─────────────────────────────

export type StartCheckoutResult =
  | { ok: true; checkoutId: string; next: { kind: "pay-here"; paymentId: string; clientSecret: string | null } | { kind: "redirect"; url: string } }
  | RateLimited
  | { ok: false; reason: "empty" | "stock" | "provider" | "too-large"; message: string };

/**
 * Which basket a checkout pays for: the member, and each line's id, quantity and unit price.
 * An unchanged basket has the same key; a changed one (a quantity, a price, a line) another. A basket
 * ordered loses its lines, so buying the same things again later makes new lines and a new key.
 */
function basketKeyOf(userId: string, lines: { id: string; quantity: number; unitPrice: number }[]) {
  const text = `${userId}|${lines.map((l) => `${l.id}:${l.quantity}:${l.unitPrice}`).join(",")}`;
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Step 1's Continue to Payment (submitting the shipping form creates a payment intent). With
 * `hosted` (a browser without JavaScript) and Stripe, the payment is taken on a Stripe Checkout page the
 * buyer is sent to; otherwise on our own step 2 (the Payment Element, or the test provider's button).
 *
 * One basket, one payment (Stripe: one PaymentIntent per cart): a second Continue to Payment
 * for an unchanged basket (another tab, the back button, a double click, ten at once) reuses the open
 * checkout and its payment, with the newest shipping details. Finding or making that checkout happens
 * under a per-member advisory lock, and its payment is made with an idempotency key of the checkout, so
 * parallel requests get one payment.
 */
export async function startCheckout(user: Member, shipping: ShippingDetails, options: { hosted: boolean; site: string }): Promise<StartCheckoutResult> {
  const basket = await getBasket(user);
  if (!basket.lines.length) return { ok: false, reason: "empty", message: SHOP_MESSAGES.basketEmpty };
  if (basket.hasProblems) return { ok: false, reason: "stock", message: SHOP_MESSAGES.basketChanged };
  // More than one payment can take (and far below what an amount column holds).
  if (basket.total > MAX_ORDER_PENCE) return { ok: false, reason: "too-large", message: SHOP_MESSAGES.orderTooLarge(formatPence(basket.total)) };

  const provider = getPaymentProvider();
  const hosted = options.hosted && provider.name === "stripe";
  const basketKey = basketKeyOf(user.id, basket.lines);
  const reusable = { userId: user.id, basketKey, status: "open", provider: provider.name, sessionId: null } satisfies Prisma.CheckoutWhereInput;
  if (hosted || !(await prisma().checkout.findFirst({ where: reusable, select: { id: true } }))) {
    const limit = await hitRateLimit(RATE_LIMITS.checkoutPerUser, user.id);
    if (!limit.allowed) {
      return {
        ok: false,
        reason: "rate-limited",
        retryAfterSeconds: limit.retryAfterSeconds,
        message: `${RATE_LIMIT_MESSAGES.checkout} ${describeRetry(limit.retryAfterSeconds)}`,
      };
    }
  }

  const items: CheckoutItem[] = basket.lines.map((line) => ({
    productId: line.productId,
    memorialId: line.memorialId,
    name: line.name,
    imageUrl: line.image.src,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
  }));
  const fresh = {
    userId: user.id,
    provider: provider.name,
    basketKey,
    subtotalAmount: basket.subtotal,
    taxAmount: basket.tax,
    totalAmount: basket.total,
    items,
    shipping,
  };
  const { checkout, reused } = await prisma().$transaction(async (tx) => {
    await holdAdvisoryLock(tx, `checkout:${user.id}`);
    const open = hosted ? null : await tx.checkout.findFirst({ where: reusable, orderBy: { createdAt: "desc" } });
    if (open) return { checkout: await tx.checkout.update({ where: { id: open.id }, data: { shipping } }), reused: true };
    return { checkout: await tx.checkout.create({ data: fresh }), reused: false };
  });
  const metadata = { checkoutId: checkout.id, userId: user.id };
  const description = `Everlight order (${basket.count} item${basket.count === 1 ? "" : "s"})`;
  const asked = await askProvider(async (): Promise<StartCheckoutResult> => {
    if (hosted) {
      const session = await provider.createHostedCheckout({
        amount: basket.total,
        currency: checkout.currency,
        idempotencyKey: `checkout-${checkout.id}-session`,
        description,
        metadata,
        lines: [
          ...items.map((i) => ({ name: i.name, quantity: i.quantity, unitAmount: i.unitPrice })),
          ...(basket.tax > 0 ? [{ name: TAX_LABEL, quantity: 1, unitAmount: basket.tax }] : []),
        ],
        customerEmail: shipping.email,
        successUrl: `${options.site}/order-confirmation?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${options.site}/checkout?cancelled=1`,
      });
      await prisma().checkout.update({ where: { id: checkout.id }, data: { sessionId: session.id } });
      return { ok: true, checkoutId: checkout.id, next: { kind: "redirect", url: session.url } };
    }
    // The same idempotency key for the same checkout: however many requests get here, one payment.
    const payment = await provider.createPayment({
      amount: checkout.totalAmount,
      currency: checkout.currency,
      idempotencyKey: `checkout-${checkout.id}-payment`,
      description,
      metadata,
    });
    if (reused && payment.status === "canceled") {
      // Its payment can no longer be paid (cancelled at the provider): this checkout is retired, a new one made.
      await prisma().checkout.updateMany({ where: { id: checkout.id, status: "open" }, data: { basketKey: null } });
      return startCheckout(user, shipping, options);
    }
    await prisma().checkout.updateMany({ where: { id: checkout.id, paymentId: null }, data: { paymentId: payment.id } });
    return { ok: true, checkoutId: checkout.id, next: { kind: "pay-here", paymentId: payment.id, clientSecret: payment.clientSecret } };
  });
  if (asked.ok) return asked.value;
  // Nothing was created at the provider that anyone can pay: the record of it goes too.
  if (!reused) await prisma().checkout.deleteMany({ where: { id: checkout.id, status: "open", paymentId: null } });
  return { ok: false, reason: "provider", message: SHOP_MESSAGES.paymentCreateFailed };
}

export type CheckoutSummary = {
  id: string;
  items: (CheckoutItem & { lineTotal: number })[];
  subtotal: number;
  tax: number;
  total: number;
  shipping: ShippingDetails;
  provider: { name: "stripe" | "test"; isTest: boolean; publishableKey: string | null };
  paymentId: string;
  clientSecret: string | null;
};

export type CheckoutForPayment = { status: "pay"; checkout: CheckoutSummary } | { status: "done"; paymentId: string } | { status: "not-found" };

/** Step 2: an open checkout of this member, with what its payment form needs. */
export async function getCheckoutForPayment(user: Member, checkoutId: string): Promise<CheckoutForPayment> {
  const checkout = isRecordId(checkoutId) ? await prisma().checkout.findFirst({ where: { id: checkoutId, userId: user.id } }) : null;
  if (!checkout?.paymentId) return { status: "not-found" };
  if (checkout.status !== "open") return { status: "done", paymentId: checkout.paymentId };
  const provider = providerFor(checkout);
  if (!provider) return { status: "not-found" };
  const payment = await provider.getPayment(checkout.paymentId);
  if (!payment) return { status: "not-found" };
  // Paid already (in another tab, or the redirect back was lost): the confirmation makes the order.
  if (payment.status === "succeeded" || payment.status === "processing") return { status: "done", paymentId: checkout.paymentId };
  return {
    status: "pay",
    checkout: {
      id: checkout.id,
      items: itemsOf(checkout).map((i) => ({ ...i, lineTotal: i.unitPrice * i.quantity })),
      subtotal: checkout.subtotalAmount,
      tax: checkout.taxAmount,
      total: checkout.totalAmount,
      shipping: shippingOf(checkout),
      provider: { name: provider.name, isTest: provider.isTest, publishableKey: provider.publishableKey },
      paymentId: checkout.paymentId,
      clientSecret: payment.clientSecret,
    },
  };
}

/** The shipping details of a member's earlier checkout (to start again on Stripe's own page). */
export async function shippingOfCheckout(user: Member, checkoutId: string): Promise<ShippingDetails | null> {
  const checkout = isRecordId(checkoutId)
    ? await prisma().checkout.findFirst({ where: { id: checkoutId, userId: user.id }, select: { shipping: true } })
    : null;
  return checkout ? shippingOf(checkout) : null;
}
