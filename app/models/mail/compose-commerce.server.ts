import { prisma } from "~/services/db.server";
import { getEnv } from "~/services/env.server";
import { countryName } from "~/utils/countries";
import { formatLongDate } from "~/utils/dates";
import { formatPence } from "~/utils/money";
import { PLANS } from "~/utils/plans";
import { orderNumber, SHOP_MESSAGES, TAX_LABEL, WHATS_NEXT_EMAIL } from "~/utils/shop";
import type { ComposedMail, OutboxRow } from "./outbox.server";

// The receipts and news of orders and plans: transactional, sent whatever the member chose under Notifications.

/** Paid so far, left of the price, and the plan's reference, for the cancel and resume emails (older rows had none). */
export function planAccount(data: OutboxRow["data"]) {
  const count = Number(data.paidCount ?? 0);
  return {
    paid: `${formatPence(Number(data.paid ?? 0))} (${count} monthly ${count === 1 ? "payment" : "payments"})`,
    left: formatPence(Number(data.left ?? 0)),
    purchaseRef: String(data.purchaseRef ?? "not recorded"),
  };
}

/** The plan's money emails: a receipt, a refund, payments cancelled or resumed. */
export function composePlanMail(row: OutboxRow, site: string): ComposedMail | { skip: string } {
  const data = row.data;
  const planName = PLANS[data.planId === "forever_plus" ? "forever_plus" : "forever"].name;
  const common = { firstName: String(data.firstName), planName, subscriptionUrl: `${site}/subscription` };
  switch (row.kind) {
    case "plan-receipt": {
      const monthly = data.paymentType === "monthly";
      const next = data.nextDueAt ? `Payment ${Number(data.number) + 1} of ${Number(data.count)} is due on ${formatLongDate(String(data.nextDueAt))}.` : null;
      const props = {
        ...common,
        amount: formatPence(Number(data.amount)),
        what: monthly ? `Monthly payment ${Number(data.number)} of ${Number(data.count)}` : "Paid in full, one time",
        paidOn: formatLongDate(String(data.paidAt)),
        paymentRef: String(data.paymentRef),
        next,
      };
      return { to: row.to, kind: "plan-receipt", props };
    }
    case "plan-refund": {
      const why =
        typeof data.why === "string" && data.why
          ? data.why
          : data.reason === "excess"
            ? `You had already paid part of your ${planName} plan, so we have given back the part of your payment above what it cost you.`
            : `Your ${planName} plan was already paid, so your second payment was not needed.`;
      const props = { ...common, amount: formatPence(Number(data.amount)), why, paymentRef: String(data.paymentRef), refundRef: String(data.refundRef) };
      return { to: row.to, kind: "plan-refund", props };
    }
    case "plan-cancelled":
      return { to: row.to, kind: "plan-cancelled", props: { ...common, ...planAccount(data), accessUntil: formatLongDate(String(data.accessUntil)) } };
    case "plan-resumed": {
      const next = `Payment ${Number(data.number)} of ${Number(data.count)} (${formatPence(Number(data.amount))}) is due on ${formatLongDate(String(data.nextDueAt))}.`;
      return { to: row.to, kind: "plan-resumed", props: { ...common, ...planAccount(data), next } };
    }
    default:
      return { skip: `no plan email of kind ${row.kind}` };
  }
}

// Transactional: sent whatever the member chose under Notifications, as a receipt is.
export async function composeOrderConfirmation(row: OutboxRow, site: string): Promise<ComposedMail<"order-confirmation"> | { skip: string }> {
  const order = await orderOf(row);
  if (!order) return { skip: "the order was deleted" };
  return {
    to: row.to,
    kind: "order-confirmation",
    props: {
      ...orderFacts(order, site),
      subtotal: formatPence(order.subtotalAmount),
      taxLabel: TAX_LABEL,
      tax: formatPence(order.taxAmount),
      shipping: addressOf(order.shippingAddress),
      whatsNext: WHATS_NEXT_EMAIL,
    },
  };
}

const addressOf = (shippingAddress: unknown) => {
  const a = (shippingAddress ?? {}) as Partial<Record<"address" | "city" | "state" | "zipCode" | "country", string>>;
  return [a.address, a.city, a.state, a.zipCode, a.country ? countryName(a.country) : undefined].filter((s): s is string => !!s);
};

/** The order a row is about, with its lines in the order they were bought. */
const orderOf = (row: OutboxRow) =>
  prisma().order.findUnique({
    where: { id: String(row.data.orderId) },
    include: { items: { orderBy: { createdAt: "asc" }, omit: { book: true } } },
  });

/** What every email about an order says of it: who, which order, its lines and total, and where to see it. */
function orderFacts(order: NonNullable<Awaited<ReturnType<typeof orderOf>>>, site: string) {
  return {
    customerName: order.customerName ?? "customer",
    orderNumber: orderNumber(order.id),
    paymentId: order.paymentIntentId ?? "",
    isTest: order.isTest,
    lines: order.items.map((i) => ({ name: i.name, quantity: i.quantity, lineTotal: formatPence(i.price * i.quantity) })),
    total: formatPence(order.totalAmount),
    ordersUrl: `${site}/orders`,
  };
}

// An order cancelled (and refunded) or shipped, with its items, amount and payment reference.
export async function composeOrderNews(row: OutboxRow, site: string): Promise<ComposedMail<"order-cancelled" | "order-shipped"> | { skip: string }> {
  const order = await orderOf(row);
  if (!order) return { skip: "the order was deleted" };
  const common = orderFacts(order, site);
  if (row.kind === "order-cancelled") {
    if (order.status !== "cancelled") return { skip: "the order is not cancelled" };
    return {
      to: row.to,
      kind: "order-cancelled",
      props: { ...common, refunded: order.refundId ? formatPence(order.totalAmount) : null, supportEmail: getEnv().SUPPORT_EMAIL },
    };
  }
  // What was shipped, as the row recorded it (an order cancelled since was still shipped: the cancellation
  // email follows). Corrected tracking details are emailed again, and an email for details since replaced says nothing.
  const carrier = String(row.data.carrier ?? order.carrier ?? "");
  const trackingNumber = String(row.data.trackingNumber ?? order.trackingNumber ?? "");
  if (!carrier || !trackingNumber) return { skip: "the order has no tracking details" };
  if (order.status === "shipped" && order.trackingNumber !== trackingNumber) return { skip: "the tracking details were corrected since" };
  return { to: row.to, kind: "order-shipped", props: { ...common, carrier, trackingNumber, shipping: addressOf(order.shippingAddress) } };
}

// A payment the shop refunded instead of making an order (sold out while paying, a basket already ordered).
export async function composePaymentRefunded(row: OutboxRow, site: string): Promise<ComposedMail<"payment-refunded"> | { skip: string }> {
  const checkout = await prisma().checkout.findUnique({ where: { id: String(row.data.checkoutId) } });
  if (!checkout || checkout.status !== "refunded") return { skip: "the payment was not refunded" };
  const items = checkout.items as unknown as { name: string; quantity: number; unitPrice: number }[];
  const shipping = checkout.shipping as unknown as { firstName?: string; lastName?: string };
  const refunded = formatPence(checkout.totalAmount);
  const duplicate = checkout.refundReason === "duplicate";
  const reason =
    checkout.refundReason === "sold-out"
      ? SHOP_MESSAGES.soldOut(checkout.soldOutItems || "an item", refunded)
      : duplicate
        ? SHOP_MESSAGES.duplicatePayment(refunded)
        : `Your payment of ${refunded} has been refunded in full and no order was placed.`;
  return {
    to: row.to,
    kind: "payment-refunded",
    props: {
      customerName: `${shipping.firstName ?? ""} ${shipping.lastName ?? ""}`.trim() || "customer",
      reason,
      refunded,
      paymentId: checkout.paymentId ?? checkout.sessionId ?? "",
      isTest: checkout.provider === "test",
      lines: items.map((i) => ({ name: i.name, quantity: i.quantity, lineTotal: formatPence(i.unitPrice * i.quantity) })),
      total: refunded,
      linkUrl: duplicate ? `${site}/orders` : `${site}/basket`,
      linkLabel: duplicate ? "See your orders" : "See your basket",
      supportEmail: getEnv().SUPPORT_EMAIL,
    },
  };
}
