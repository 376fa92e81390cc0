import { createHash } from "node:crypto";
import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { getPaymentProvider } from "~/services/payments.server";
import { PaymentProviderError, WebhookRejectedError, type PaymentProvider, type ProviderPayment } from "~/services/payments/provider.server";
import { testProvider } from "~/services/payments/test-provider.server";
import { countryName } from "~/utils/countries";
import { formatPence } from "~/utils/money";
import { MAX_ORDER_PENCE, orderNumber, orderStatusBadge, ORDERS_PER_PAGE, SHOP_MESSAGES, TAX_LABEL } from "~/utils/shop";
import { pageWindow } from "~/utils/paging";
import { ADMIN_MESSAGES, ADMIN_PAGE_SIZE, type OrderStatus, type ShipInput } from "~/utils/validation/admin";
import type { ShippingDetails } from "~/utils/validation/shop";
import type { RateLimited } from "./account.server";
import { recordAudit, type AdminActor } from "./audit.server";
import { getBasket } from "./cart.server";
import { queueMail } from "./mail.server";
import { handlePlanWebhook } from "./plan.server";
import { isRecordId } from "./memorial.server";
import type { Viewer } from "./memorial-access";
import { describeRetry, hitRateLimit, RATE_LIMIT_MESSAGES, RATE_LIMITS } from "./rate-limit.server";

// Checkout and orders (commerce-and-accounts.md §2 "Checkout", "Order confirmation", "My Orders", §4, §7;
// issue 16 §3–§6; DESIGN.md security notes on Stripe). The rules:
// - What is charged is computed here from the database: the basket's lines at today's prices plus 8% tax.
//   An amount or item list a client sends is never read.
// - Before the provider is asked for a payment, a checkout row records exactly what is being paid for
//   (items, prices, shipping, amounts); the order is made from that row, not from the basket, which may
//   change while the buyer pays.
// - An order is created only once the provider says the payment succeeded, by whichever comes first of
//   the confirmation page, the /api call and the signed webhook; one use case (completePayment) for all.
//   A checkout moves from open to completed in one conditional update inside the order's transaction, and
//   a payment id is unique on checkouts and on orders, so the order is made at most once.
// - Stock goes down in that same transaction, by conditional updates; if an item ran out meanwhile the
//   transaction is undone, the payment is refunded through the provider (an idempotent refund, retried
//   until it goes through) and the buyer is told plainly. Nothing charged is kept without an order.
// - The basket loses what was bought, and the confirmation email is queued, in that transaction too.

type Member = NonNullable<Viewer> & { email: string };

export type CheckoutItem = { productId: string | null; memorialId: string | null; name: string; imageUrl: string | null; quantity: number; unitPrice: number };

type CheckoutRow = Prisma.CheckoutGetPayload<object>;

const itemsOf = (checkout: Pick<CheckoutRow, "items">) => checkout.items as unknown as CheckoutItem[];
const shippingOf = (checkout: Pick<CheckoutRow, "shipping">) => checkout.shipping as unknown as ShippingDetails;

// ───────────────────────────── starting a checkout ─────────────────────────────

export type StartCheckoutResult =
  | { ok: true; checkoutId: string; next: { kind: "pay-here"; paymentId: string; clientSecret: string | null } | { kind: "redirect"; url: string } }
  | RateLimited
  | { ok: false; reason: "empty" | "stock" | "provider" | "too-large"; message: string };

/**
 * Which basket a checkout pays for (issue 24 §4): the member, and each line's id, quantity and unit price.
 * An unchanged basket has the same key; a changed one (a quantity, a price, a line) another. A basket
 * ordered loses its lines, so buying the same things again later makes new lines and a new key.
 */
function basketKeyOf(userId: string, lines: { id: string; quantity: number; unitPrice: number }[]) {
  const text = `${userId}|${lines.map((l) => `${l.id}:${l.quantity}:${l.unitPrice}`).join(",")}`;
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Step 1's Continue to Payment (§4: "submitting the shipping form creates a payment intent"). With
 * `hosted` (a browser without JavaScript) and Stripe, the payment is taken on a Stripe Checkout page the
 * buyer is sent to; otherwise on our own step 2 (the Payment Element, or the test provider's button).
 *
 * One basket, one payment (issue 24 §4; Stripe: one PaymentIntent per cart): a second Continue to Payment
 * for an unchanged basket (another tab, the back button, a double click, ten at once) reuses the open
 * checkout and its payment, with the newest shipping details. Finding or making that checkout happens
 * under a per-member advisory lock, and its payment is made with an idempotency key of the checkout, so
 * parallel requests get one payment.
 */
export async function startCheckout(user: Member, shipping: ShippingDetails, options: { hosted: boolean; site: string }): Promise<StartCheckoutResult> {
  const basket = await getBasket(user);
  if (!basket.lines.length) return { ok: false, reason: "empty", message: SHOP_MESSAGES.basketEmpty };
  if (basket.hasProblems) return { ok: false, reason: "stock", message: SHOP_MESSAGES.basketChanged };
  // Issue 24 §7: more than one payment can take (and far below what an amount column holds).
  if (basket.total > MAX_ORDER_PENCE) return { ok: false, reason: "too-large", message: SHOP_MESSAGES.orderTooLarge(formatPence(basket.total)) };

  const provider = getPaymentProvider();
  const hosted = options.hosted && provider.name === "stripe";
  const basketKey = basketKeyOf(user.id, basket.lines);
  const reusable = { userId: user.id, basketKey, status: "open", provider: provider.name, sessionId: null } satisfies Prisma.CheckoutWhereInput;
  if (hosted || !(await prisma().checkout.findFirst({ where: reusable, select: { id: true } }))) {
    const limit = await hitRateLimit(RATE_LIMITS.checkoutPerUser, user.id);
    if (!limit.allowed) {
      return { ok: false, reason: "rate-limited", retryAfterSeconds: limit.retryAfterSeconds, message: `${RATE_LIMIT_MESSAGES.checkout} ${describeRetry(limit.retryAfterSeconds)}` };
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
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`checkout:${user.id}`}))`;
    const open = hosted ? null : await tx.checkout.findFirst({ where: reusable, orderBy: { createdAt: "desc" } });
    if (open) return { checkout: await tx.checkout.update({ where: { id: open.id }, data: { shipping } }), reused: true };
    return { checkout: await tx.checkout.create({ data: fresh }), reused: false };
  });
  const metadata = { checkoutId: checkout.id, userId: user.id };
  const description = `Everlight order (${basket.count} item${basket.count === 1 ? "" : "s"})`;
  try {
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
    const payment = await provider.createPayment({ amount: checkout.totalAmount, currency: checkout.currency, idempotencyKey: `checkout-${checkout.id}-payment`, description, metadata });
    if (reused && payment.status === "canceled") {
      // Its payment can no longer be paid (cancelled at the provider): this checkout is retired, a new one made.
      await prisma().checkout.updateMany({ where: { id: checkout.id, status: "open" }, data: { basketKey: null } });
      return startCheckout(user, shipping, options);
    }
    await prisma().checkout.updateMany({ where: { id: checkout.id, paymentId: null }, data: { paymentId: payment.id } });
    return { ok: true, checkoutId: checkout.id, next: { kind: "pay-here", paymentId: payment.id, clientSecret: payment.clientSecret } };
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    console.error(error.message);
    // Nothing was created at the provider that anyone can pay: the record of it goes too.
    if (!reused) await prisma().checkout.deleteMany({ where: { id: checkout.id, status: "open", paymentId: null } });
    return { ok: false, reason: "provider", message: SHOP_MESSAGES.paymentCreateFailed };
  }
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

/** Step 2 (§2 "Checkout"): an open checkout of this member, with what its payment form needs. */
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
  const checkout = isRecordId(checkoutId) ? await prisma().checkout.findFirst({ where: { id: checkoutId, userId: user.id }, select: { shipping: true } }) : null;
  return checkout ? shippingOf(checkout) : null;
}

// ───────────────────────────── completing a payment ─────────────────────────────

export type OrderView = ReturnType<typeof toOrderView>;

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
  let payment: ProviderPayment | null;
  try {
    let paymentId = checkout.paymentId;
    if (!paymentId && checkout.sessionId) {
      // The page without JavaScript: Stripe Checkout makes the payment when the buyer pays there.
      const session = await provider.getHostedCheckout(checkout.sessionId);
      if (!session) return NOT_FOUND;
      if (!session.paid || !session.paymentId) return { ok: false, reason: "unpaid", message: SHOP_MESSAGES.unpaid, paymentId: checkout.sessionId, providerMessage: null };
      paymentId = session.paymentId;
      await prisma().checkout.updateMany({ where: { id: checkout.id, paymentId: null }, data: { paymentId } });
      checkout = (await prisma().checkout.findUnique({ where: { id: checkout.id } }))!;
      if (checkout.status !== "open") return settled(checkout);
    }
    if (!paymentId) return NOT_FOUND;
    payment = await provider.getPayment(paymentId);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    console.error(error.message);
    return { ok: false, reason: "provider", message: SHOP_MESSAGES.paymentUnexpected };
  }
  if (!payment) return NOT_FOUND;
  if (payment.status === "processing") return { ok: false, reason: "processing", message: SHOP_MESSAGES.processing, paymentId: payment.id, providerMessage: null };
  if (payment.status !== "succeeded") return { ok: false, reason: "unpaid", message: SHOP_MESSAGES.unpaid, paymentId: payment.id, providerMessage: payment.failureMessage };

  if (payment.amount !== checkout.totalAmount || payment.currency.toLowerCase() !== checkout.currency) {
    // Never happens with amounts we set ourselves; if it does, nothing is sold for the wrong money.
    console.error(`Payment ${payment.id} took ${payment.amount} ${payment.currency}, checkout ${checkout.id} expected ${checkout.totalAmount} ${checkout.currency}: refunding`);
    await prisma().checkout.updateMany({ where: { id: checkout.id, status: "open" }, data: { status: "refunding", refundReason: "amount-mismatch" } });
    return settled((await prisma().checkout.findUnique({ where: { id: checkout.id } }))!);
  }
  return createOrder(checkout, payment);
}

class SoldOutError extends Error {
  constructor(readonly names: string[]) {
    super(`Sold out: ${names.join(", ")}`);
  }
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
        const taken = await tx.product.updateMany({ where: { id: item.productId, stockQuantity: { gte: item.quantity } }, data: { stockQuantity: { decrement: item.quantity } } });
        if (!taken.count) soldOut.push(item.name);
      }
      if (soldOut.length) throw new SoldOutError(soldOut);
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
            create: items.map((i) => ({ productId: i.productId, memorialId: i.memorialId, name: i.name, quantity: i.quantity, price: i.unitPrice })),
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
      // Issue 24 §4: another payment for this same basket already made its order (at most one checkout of a
      // basket is ever completed: a partial unique index). This one is refunded, once, and makes no order.
      await prisma().checkout.updateMany({ where: { id: checkout.id, status: "open" }, data: { status: "refunding", refundReason: "duplicate" } });
      return settled((await prisma().checkout.findUnique({ where: { id: checkout.id } }))!);
    }
    if (!(error instanceof SoldOutError)) throw error;
    await prisma().checkout.updateMany({ where: { id: checkout.id, status: "open" }, data: { status: "refunding", refundReason: "sold-out", soldOutItems: error.names.join(", ") } });
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

/** Refunds a checkout's payment through its provider (idempotent); left "refunding" to retry if it fails. */
async function finishRefund(checkout: CheckoutRow): Promise<CheckoutRow> {
  const provider = providerFor(checkout);
  if (!provider || !checkout.paymentId) return checkout;
  try {
    const refund = await provider.refund(checkout.paymentId, { idempotencyKey: `refund-${checkout.id}` });
    // Recorded once, and the buyer told once (issue 24 §9), by the one update that moves it to refunded.
    await prisma().$transaction(async (tx) => {
      const moved = await tx.checkout.updateMany({ where: { id: checkout.id, status: "refunding" }, data: { status: "refunded", refundId: refund.id } });
      const email = shippingOf(checkout).email;
      if (moved.count && email) await queueMail(tx, { to: email, kind: "payment-refunded", data: { checkoutId: checkout.id } });
    });
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    console.error(`Refund of checkout ${checkout.id} failed (it is retried on the next confirmation or webhook): ${error.message}`);
  }
  return (await prisma().checkout.findUnique({ where: { id: checkout.id } }))!;
}

/** Checkouts whose refund has not gone through yet: retried (the server does so at start and every few minutes). */
export async function retryPendingRefunds(): Promise<number> {
  const pending = await prisma().checkout.findMany({ where: { status: "refunding" }, take: 50 });
  let done = 0;
  for (const checkout of pending) if ((await finishRefund(checkout)).status === "refunded") done++;
  return done;
}

/** The provider that took a checkout's payment: the configured one, or the test provider for test checkouts. */
function providerFor(checkout: Pick<CheckoutRow, "provider">): PaymentProvider | null {
  if (checkout.provider === "test") return testProvider;
  const provider = getPaymentProvider();
  return provider.name === checkout.provider ? provider : null;
}

// ───────────────────────────── the test provider's Pay button ─────────────────────────────

/** Step 2 with the test provider: the payment succeeds (no card, no money), then the order is made. */
export async function payTestPayment(user: Member, paymentId: string): Promise<CompletePaymentResult> {
  const checkout = isPaymentReference(paymentId) ? await prisma().checkout.findUnique({ where: { paymentId } }) : null;
  if (!checkout || checkout.userId !== user.id || checkout.provider !== "test") return NOT_FOUND;
  if (checkout.status === "open") await testProvider.payTestPayment!(paymentId);
  return completePayment({ paymentId }, { userId: user.id });
}

// ───────────────────────────── the Stripe webhook ─────────────────────────────

export type WebhookResult = { ok: true; duplicate: boolean; handled: string } | { ok: false; reason: "rejected" | "retry"; message: string };

/**
 * POST /api/stripe/webhook: the raw body's signature and timestamp checked by the provider, the event id
 * recorded once handled (a redelivery is acknowledged and not handled again). Anything that needs another
 * try (the provider unreachable, a refund not through yet) answers so, and Stripe sends the event again.
 */
export async function handleStripeWebhook(rawBody: string, signature: string | null): Promise<WebhookResult> {
  const provider = getPaymentProvider();
  let event;
  try {
    event = provider.verifyWebhook(rawBody, signature);
  } catch (error) {
    if (error instanceof WebhookRejectedError) return { ok: false, reason: "rejected", message: error.message };
    throw error;
  }
  if (await prisma().stripeEvent.findUnique({ where: { id: event.id }, select: { id: true } })) return { ok: true, duplicate: true, handled: "already handled" };
  let handled = "ignored";
  // Plans (issue 17): their payments carry metadata kind=plan; invoices belong to plan subscriptions.
  const plan = event.subject ? await handlePlanWebhook(event.subject) : null;
  if (plan) {
    if ("retry" in plan) return { ok: false, reason: "retry", message: plan.retry };
    handled = plan.handled;
  } else if (event.subject && (event.subject.kind === "payment" || event.subject.kind === "session")) {
    const result = await completePayment(event.subject.kind === "payment" ? { paymentId: event.subject.id } : { sessionId: event.subject.id });
    if (!result.ok && (result.reason === "provider" || (result.reason === "refunded" && result.refundPending))) {
      return { ok: false, reason: "retry", message: result.message };
    }
    handled = result.ok ? (result.created ? "order created" : "order exists") : result.reason;
  }
  await prisma().stripeEvent.createMany({ data: [{ id: event.id, type: event.type }], skipDuplicates: true });
  return { ok: true, duplicate: false, handled };
}

// ───────────────────────────── orders ─────────────────────────────

const orderInclude = { items: { orderBy: { createdAt: "asc" } } } satisfies Prisma.OrderInclude;
type OrderRow = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;

function loadOrder(id: string) {
  return prisma().order.findUniqueOrThrow({ where: { id }, include: orderInclude });
}

export function toOrderView(order: OrderRow) {
  const address = (order.shippingAddress ?? {}) as Partial<Record<"address" | "city" | "state" | "zipCode" | "country", string>>;
  return {
    id: order.id,
    number: orderNumber(order.id),
    createdAt: order.createdAt,
    status: order.status,
    badge: orderStatusBadge(order.status),
    isTest: order.isTest,
    paymentId: order.paymentIntentId,
    subtotal: order.subtotalAmount,
    tax: order.taxAmount,
    total: order.totalAmount,
    items: order.items.map((i) => ({ id: i.id, name: i.name, quantity: i.quantity, unitPrice: i.price, lineTotal: i.price * i.quantity, productId: i.productId, memorialId: i.memorialId })),
    customerName: order.customerName,
    customerEmail: order.customerEmail,
    carrier: order.carrier,
    trackingNumber: order.trackingNumber,
    shippedAt: order.shippedAt,
    shipping: [address.address, address.city, address.state, address.zipCode, address.country ? countryName(address.country) : undefined].filter(Boolean) as string[],
  };
}

/** My Orders (§2): the member's orders, newest first, a page at a time. */
export async function listOrders(userId: string, page = 1) {
  const total = await prisma().order.count({ where: { userId } });
  const pages = Math.max(1, Math.ceil(total / ORDERS_PER_PAGE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const rows = await prisma().order.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (current - 1) * ORDERS_PER_PAGE,
    take: ORDERS_PER_PAGE,
    include: orderInclude,
  });
  return { orders: rows.map(toOrderView), total, page: current, pages };
}

/** GET /api/orders (§7): the member's orders, newest first (at most 100 from `offset`). */
export async function listOrdersForApi(userId: string, { limit = 50, offset = 0 } = {}) {
  const rows = await prisma().order.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: offset, take: limit, include: orderInclude });
  return rows.map(toApiOrder);
}

/** §3 "orders" with its items, as the /api answers it. */
export function toApiOrder(order: OrderRow) {
  return {
    id: order.id,
    userId: order.userId,
    totalAmount: order.totalAmount,
    subtotalAmount: order.subtotalAmount,
    taxAmount: order.taxAmount,
    currency: order.currency,
    status: order.status,
    paymentIntentId: order.paymentIntentId,
    isTest: order.isTest,
    shippingAddress: order.shippingAddress,
    customerEmail: order.customerEmail,
    customerName: order.customerName,
    customerPhone: order.customerPhone,
    carrier: order.carrier,
    trackingNumber: order.trackingNumber,
    shippedAt: order.shippedAt,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    items: order.items.map((i) => ({ id: i.id, productId: i.productId, memorialId: i.memorialId, name: i.name, quantity: i.quantity, price: i.price, createdAt: i.createdAt })),
  };
}

/** One order as the /api answers it. */
export async function apiOrder(orderId: string) {
  return toApiOrder(await loadOrder(orderId));
}

// ───────────────────────────── the admin dashboard's Orders tab (issue 19) ─────────────────────────────

const adminOrderInclude = { ...orderInclude, user: { select: { email: true, firstName: true, lastName: true } } } satisfies Prisma.OrderInclude;

/** Every order with its customer, items, total, test marker and status, newest first (§3 "Admin views"). */
export async function listOrdersForAdmin({ search = "", status = null, page = 1 }: { search?: string; status?: string | null; page?: number }) {
  const where: Prisma.OrderWhereInput = {
    ...(status ? { status } : {}),
    ...(search
      ? {
          OR: [
            { customerEmail: { contains: search, mode: "insensitive" } },
            { customerName: { contains: search, mode: "insensitive" } },
            { paymentIntentId: search },
            // The short order number people read out (orderNumber): the id's first characters.
            ...(/^[0-9a-f]{4,8}$/i.test(search) ? [{ id: { startsWith: search.toLowerCase() } }] : []),
          ],
        }
      : {}),
  };
  const total = await prisma().order.count({ where });
  const w = pageWindow(total, page, ADMIN_PAGE_SIZE);
  const rows = await prisma().order.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: w.skip, take: w.take, include: adminOrderInclude });
  return {
    items: rows.map((o) => ({ ...toOrderView(o), refunded: !!o.refundId, refundedAt: o.refundedAt?.toISOString() ?? null, account: o.user ? o.user.email : null })),
    total,
    page: w.page,
    pages: w.pages,
  };
}

/** GET /api/admin/orders (§7): every order with its user and items, bounded. */
export async function listOrdersForAdminApi({ limit = 50, offset = 0 } = {}) {
  const rows = await prisma().order.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: offset, take: limit, include: adminOrderInclude });
  return rows.map((o) => ({ ...toApiOrder(o), refundId: o.refundId, refundedAt: o.refundedAt, user: o.user }));
}

export type OrderStatusResult =
  | { ok: true; status: OrderStatus; refunded: boolean; unchanged: boolean; number: string }
  | { ok: false; reason: "not-found" | "refunded" | "refund-failed" | "invalid"; message: string };

/** Puts a cancelled order's products back in stock, once (issue 24 §6): restockedAt is claimed by a conditional update. */
async function restockOrder(tx: Prisma.TransactionClient, orderId: string) {
  const claimed = await tx.order.updateMany({ where: { id: orderId, restockedAt: null }, data: { restockedAt: new Date() } });
  if (!claimed.count) return false;
  const items = await tx.orderItem.findMany({ where: { orderId, productId: { not: null } }, select: { productId: true, quantity: true } });
  for (const item of items) await tx.product.updateMany({ where: { id: item.productId! }, data: { stockQuantity: { increment: item.quantity } } });
  return true;
}

/**
 * Changes an order's status (§4; issue 19 §5; issue 24 §6, §8). Cancelling a paid order refunds it through
 * its payments provider first (an idempotent refund keyed by the order), then records the refund on the
 * order, puts its items back in stock and emails the customer, in one transaction behind a conditional
 * update: however many times it is cancelled, at once or again later, one refund, one restock, one email
 * and one audit record. A refunded (or restocked) order stays cancelled. If the provider cannot refund just
 * now, nothing changes and the administrator is told. "shipped" needs a carrier and a tracking number
 * (shipOrder).
 */
export async function changeOrderStatus(
  actor: AdminActor,
  orderId: string,
  status: OrderStatus,
  options: { provider?: PaymentProvider; shipping?: ShipInput } = {},
): Promise<OrderStatusResult> {
  if (status === "shipped") {
    if (!options.shipping) return { ok: false, reason: "invalid", message: ADMIN_MESSAGES.needsTracking };
    const shipped = await shipOrder(actor, orderId, options.shipping);
    return shipped.ok ? { ok: true, status, refunded: false, unchanged: shipped.unchanged, number: shipped.number } : shipped;
  }
  if (!isRecordId(orderId)) return { ok: false, reason: "not-found", message: ADMIN_MESSAGES.orderNotFound };
  const order = await prisma().order.findUnique({
    where: { id: orderId },
    select: { id: true, status: true, paymentIntentId: true, paymentProvider: true, refundId: true, restockedAt: true, totalAmount: true, customerEmail: true },
  });
  if (!order) return { ok: false, reason: "not-found", message: ADMIN_MESSAGES.orderNotFound };
  const number = orderNumber(order.id);
  if (order.refundId) {
    if (status === "cancelled") return { ok: true, status, refunded: true, unchanged: true, number };
    return { ok: false, reason: "refunded", message: `Order ${number} was refunded, so it stays cancelled.` };
  }
  if (order.status === status) return { ok: true, status, refunded: false, unchanged: true, number };

  if (status === "cancelled" && order.paymentIntentId) {
    const provider = options.provider ?? (order.paymentProvider === "test" ? testProvider : getPaymentProvider());
    let refundId: string;
    try {
      refundId = (await provider.refund(order.paymentIntentId, { idempotencyKey: `order-refund-${order.id}` })).id;
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      console.error(`Refunding order ${order.id} failed:`, error.message);
      return { ok: false, reason: "refund-failed", message: ADMIN_MESSAGES.refundFailed };
    }
    const first = await prisma().$transaction(async (tx) => {
      const claimed = await tx.order.updateMany({ where: { id: order.id, refundId: null }, data: { status: "cancelled", refundId, refundedAt: new Date() } });
      if (!claimed.count) return false;
      await restockOrder(tx, order.id);
      await recordAudit(tx, actor, { action: "order.refund", targetType: "order", targetId: order.id, summary: `Order ${number} cancelled (was ${order.status}); ${formatPence(order.totalAmount)} refunded (${refundId}); items back in stock` });
      if (order.customerEmail) await queueMail(tx, { to: order.customerEmail, kind: "order-cancelled", data: { orderId: order.id } });
      return true;
    });
    return { ok: true, status, refunded: true, unchanged: !first, number };
  }

  let changed: boolean;
  try {
    changed = await prisma().$transaction(async (tx) => {
      const updated = await tx.order.updateMany({ where: { id: order.id, status: order.status, refundId: null }, data: { status } });
      if (!updated.count) return false;
      // An order without a payment (none is made so today; older data) is cancelled without a refund and
      // restocked once; cancelled by mistake and put back, its items leave the stock again (if still there).
      if (status === "cancelled") {
        await restockOrder(tx, order.id);
        if (order.customerEmail) await queueMail(tx, { to: order.customerEmail, kind: "order-cancelled", data: { orderId: order.id } });
      } else if (order.restockedAt) {
        await unrestockOrder(tx, order.id);
      }
      await recordAudit(tx, actor, { action: "order.status", targetType: "order", targetId: order.id, summary: `Order ${number}: ${order.status} → ${status}` });
      return true;
    });
  } catch (error) {
    if (!(error instanceof SoldOutError)) throw error;
    return { ok: false, reason: "refunded", message: ADMIN_MESSAGES.restocked(number, error.names.join(", ")) };
  }
  if (!changed) {
    // Someone else changed it meanwhile (two cancels at once): done if it is now what was asked.
    const now = await prisma().order.findUnique({ where: { id: order.id }, select: { status: true } });
    if (now?.status === status) return { ok: true, status, refunded: false, unchanged: true, number };
    return { ok: false, reason: "refunded", message: `Order ${number} changed meanwhile (or was refunded). Please reload and try again.` };
  }
  return { ok: true, status, refunded: false, unchanged: false, number };
}

/** Takes a restocked (unpaid) order's items out of stock again, only while enough are left; else SoldOutError. */
async function unrestockOrder(tx: Prisma.TransactionClient, orderId: string) {
  const claimed = await tx.order.updateMany({ where: { id: orderId, restockedAt: { not: null } }, data: { restockedAt: null } });
  if (!claimed.count) return;
  const items = await tx.orderItem.findMany({ where: { orderId, productId: { not: null } }, select: { productId: true, quantity: true, name: true } });
  const short: string[] = [];
  for (const item of items) {
    const taken = await tx.product.updateMany({ where: { id: item.productId!, stockQuantity: { gte: item.quantity } }, data: { stockQuantity: { decrement: item.quantity } } });
    if (!taken.count) short.push(item.name);
  }
  if (short.length) throw new SoldOutError(short);
}

export type ShipOrderResult = { ok: true; number: string; unchanged: boolean } | { ok: false; reason: "not-found" | "invalid"; message: string };

/**
 * Marks an order shipped with its carrier and tracking number (issue 24 §8), shown in My Orders and emailed
 * to the buyer. Saving the same details again changes nothing and sends nothing; corrected details are
 * saved and emailed again. A cancelled order cannot be shipped.
 */
export async function shipOrder(actor: AdminActor, orderId: string, input: ShipInput): Promise<ShipOrderResult> {
  if (!isRecordId(orderId)) return { ok: false, reason: "not-found", message: ADMIN_MESSAGES.orderNotFound };
  const order = await prisma().order.findUnique({ where: { id: orderId }, select: { id: true, status: true, carrier: true, trackingNumber: true, customerEmail: true } });
  if (!order) return { ok: false, reason: "not-found", message: ADMIN_MESSAGES.orderNotFound };
  const number = orderNumber(order.id);
  if (order.status === "cancelled") return { ok: false, reason: "invalid", message: ADMIN_MESSAGES.shipCancelled };
  if (order.status === "shipped" && order.carrier === input.carrier && order.trackingNumber === input.trackingNumber) return { ok: true, number, unchanged: true };
  const changed = await prisma().$transaction(async (tx) => {
    // Conditional on what was read: two administrators saving at once send one email each for what they saved, never for a cancelled order.
    const updated = await tx.order.updateMany({
      where: { id: order.id, status: order.status, carrier: order.carrier, trackingNumber: order.trackingNumber, refundId: null },
      data: { status: "shipped", carrier: input.carrier, trackingNumber: input.trackingNumber, shippedAt: new Date() },
    });
    if (!updated.count) return false;
    await recordAudit(tx, actor, { action: "order.ship", targetType: "order", targetId: order.id, summary: `Order ${number} shipped with ${input.carrier}, tracking ${input.trackingNumber}` });
    if (order.customerEmail) await queueMail(tx, { to: order.customerEmail, kind: "order-shipped", data: { orderId: order.id, carrier: input.carrier, trackingNumber: input.trackingNumber } });
    return true;
  });
  if (!changed) return shipOrder(actor, orderId, input);
  return { ok: true, number, unchanged: false };
}
