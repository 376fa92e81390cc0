import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { getPaymentProvider } from "~/services/payments.server";
import { askProvider, type PaymentProvider } from "~/services/payments/provider.server";
import { testProvider } from "~/services/payments/test-provider.server";
import { formatPence } from "~/utils/money";
import { orderNumber } from "~/utils/shop";
import { ADMIN_MESSAGES, type OrderStatus, type ShipInput } from "~/utils/validation/admin";
import { recordAudit, type AdminActor } from "../audit.server";
import { queueMail } from "../mail/outbox.server";
import { isRecordId } from "../memorials/access.server";
import { SoldOutError } from "./orders.server";

// An administrator moves an order on: shipped with its tracking, or
// cancelled, which refunds a paid order and puts its items back in stock, once.

export type OrderStatusResult =
  | { ok: true; status: OrderStatus; refunded: boolean; unchanged: boolean; number: string }
  | { ok: false; reason: "not-found" | "refunded" | "refund-failed" | "invalid"; message: string };

/** Puts a cancelled order's products back in stock, once: restockedAt is claimed by a conditional update. */
async function restockOrder(tx: Prisma.TransactionClient, orderId: string) {
  const claimed = await tx.order.updateMany({ where: { id: orderId, restockedAt: null }, data: { restockedAt: new Date() } });
  if (!claimed.count) return false;
  const items = await tx.orderItem.findMany({ where: { orderId, productId: { not: null } }, select: { productId: true, quantity: true } });
  for (const item of items) await tx.product.updateMany({ where: { id: item.productId! }, data: { stockQuantity: { increment: item.quantity } } });
  return true;
}

/**
 * Changes an order's status. Cancelling a paid order refunds it through
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
    const paymentId = order.paymentIntentId;
    const refund = await askProvider(() => provider.refund(paymentId, { idempotencyKey: `order-refund-${order.id}` }), `Refunding order ${order.id} failed`);
    if (!refund.ok) return { ok: false, reason: "refund-failed", message: ADMIN_MESSAGES.refundFailed };
    const refundId = refund.value.id;
    const first = await prisma().$transaction(async (tx) => {
      const claimed = await tx.order.updateMany({ where: { id: order.id, refundId: null }, data: { status: "cancelled", refundId, refundedAt: new Date() } });
      if (!claimed.count) return false;
      await restockOrder(tx, order.id);
      await recordAudit(tx, actor, {
        action: "order.refund",
        targetType: "order",
        targetId: order.id,
        summary: `Order ${number} cancelled (was ${order.status}); ${formatPence(order.totalAmount)} refunded (${refundId}); items back in stock`,
      });
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
      await recordAudit(tx, actor, {
        action: "order.status",
        targetType: "order",
        targetId: order.id,
        summary: `Order ${number}: ${order.status} → ${status}`,
      });
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
    const taken = await tx.product.updateMany({
      where: { id: item.productId!, stockQuantity: { gte: item.quantity } },
      data: { stockQuantity: { decrement: item.quantity } },
    });
    if (!taken.count) short.push(item.name);
  }
  if (short.length) throw new SoldOutError(short);
}

export type ShipOrderResult = { ok: true; number: string; unchanged: boolean } | { ok: false; reason: "not-found" | "invalid"; message: string };

/**
 * Marks an order shipped with its carrier and tracking number, shown in My Orders and emailed
 * to the buyer. Saving the same details again changes nothing and sends nothing; corrected details are
 * saved and emailed again. A cancelled order cannot be shipped.
 */
export async function shipOrder(actor: AdminActor, orderId: string, input: ShipInput): Promise<ShipOrderResult> {
  if (!isRecordId(orderId)) return { ok: false, reason: "not-found", message: ADMIN_MESSAGES.orderNotFound };
  const order = await prisma().order.findUnique({
    where: { id: orderId },
    select: { id: true, status: true, carrier: true, trackingNumber: true, customerEmail: true },
  });
  if (!order) return { ok: false, reason: "not-found", message: ADMIN_MESSAGES.orderNotFound };
  const number = orderNumber(order.id);
  if (order.status === "cancelled") return { ok: false, reason: "invalid", message: ADMIN_MESSAGES.shipCancelled };
  if (order.status === "shipped" && order.carrier === input.carrier && order.trackingNumber === input.trackingNumber)
    return { ok: true, number, unchanged: true };
  const changed = await prisma().$transaction(async (tx) => {
    // Conditional on what was read: two administrators saving at once send one email each for what they saved, never for a cancelled order.
    const updated = await tx.order.updateMany({
      where: { id: order.id, status: order.status, carrier: order.carrier, trackingNumber: order.trackingNumber, refundId: null },
      data: { status: "shipped", carrier: input.carrier, trackingNumber: input.trackingNumber, shippedAt: new Date() },
    });
    if (!updated.count) return false;
    await recordAudit(tx, actor, {
      action: "order.ship",
      targetType: "order",
      targetId: order.id,
      summary: `Order ${number} shipped with ${input.carrier}, tracking ${input.trackingNumber}`,
    });
    if (order.customerEmail)
      await queueMail(tx, {
        to: order.customerEmail,
        kind: "order-shipped",
        data: { orderId: order.id, carrier: input.carrier, trackingNumber: input.trackingNumber },
      });
    return true;
  });
  if (!changed) return shipOrder(actor, orderId, input);
  return { ok: true, number, unchanged: false };
}
