import { prisma } from "~/services/db.server";
import { getPaymentProvider } from "~/services/payments.server";
import { askProvider, PaymentProviderError, type PaymentProvider } from "~/services/payments/provider.server";
import { SUBSCRIPTION_MESSAGES } from "~/utils/plans";
import { queueMail } from "../mail/outbox.server";

// A plan payment given back: a second payment of one plan payment, one that the member's plan
// had overtaken by the time it completed, or the part of one above what the plan cost by then. Recorded in
// plan_refunds first, then asked of the provider; retried until it goes through, and emailed once.

export type TakenPayment = { paymentId: string; amount: number; subscriptionId: string | null };

/**
 * A second successful payment for a plan payment already paid (two tabs, the card form and Checkout's page):
 * refunded in full, once (plan_refunds holds one row per payment; Stripe's idempotency keys make a retried
 * refund the same refund), and a second subscription ended at once so it takes nothing more. If Stripe
 * cannot be reached the row stays "refunding": the webhook is answered "retry" and the server tries again.
 */
export async function refundSecondPayment(
  planPaymentId: string,
  taken: TakenPayment,
  provider: PaymentProvider,
): Promise<{ refunded: boolean; message: string }> {
  await prisma().planRefund.createMany({
    data: [{ planPaymentId, paymentId: taken.paymentId, subscriptionId: taken.subscriptionId, amount: taken.amount }],
    skipDuplicates: true,
  });
  const record = await prisma().planRefund.findUniqueOrThrow({ where: { paymentId: taken.paymentId } });
  if (record.status === "refunding" && !(await finishPlanRefund(record, provider)))
    return { refunded: false, message: SUBSCRIPTION_MESSAGES.secondPaymentRefundPending };
  console.warn(`Plan payment ${planPaymentId} was paid twice: ${taken.paymentId} refunded`);
  return { refunded: true, message: SUBSCRIPTION_MESSAGES.secondPaymentRefunded };
}

export type RefundRecord = { id: string; paymentId: string; subscriptionId: string | null; amount: number };

/**
 * Asks the provider for a refund recorded in plan_refunds (its amount: the whole payment, or the part
 * above the price) and, monthly, ends the subscription that payment started. The row moves to refunded
 * once, and the member's refund email is queued with that move, so a retried or racing call sends none.
 */
export async function finishPlanRefund(record: RefundRecord, provider: PaymentProvider): Promise<boolean> {
  const refunded = await askProvider(async () => {
    if (record.subscriptionId) {
      if (!provider.endInstalmentPlanNow) throw new PaymentProviderError("Stripe is not configured to end a Stripe subscription");
      await provider.endInstalmentPlanNow(record.subscriptionId, { idempotencyKey: `plan-refund-end:${record.paymentId}` });
    }
    return provider.refund(record.paymentId, { idempotencyKey: `plan-refund:${record.paymentId}`, amount: record.amount });
  });
  if (!refunded.ok) return false;
  const refundId = refunded.value.id;
  await prisma().$transaction(async (tx) => {
    const moved = await tx.planRefund.updateMany({ where: { id: record.id, status: "refunding" }, data: { status: "refunded", refundId } });
    if (!moved.count) return;
    const refund = await tx.planRefund.findUniqueOrThrow({
      where: { id: record.id },
      include: { planPayment: { include: { purchase: { include: { user: { select: { id: true, email: true, firstName: true } } } } } } },
    });
    const { purchase } = refund.planPayment;
    if (!purchase.user) return;
    await queueMail(tx, {
      to: purchase.user.email,
      kind: "plan-refund",
      data: {
        userId: purchase.user.id,
        firstName: purchase.user.firstName,
        planId: purchase.planId,
        amount: refund.amount,
        paymentRef: refund.paymentId,
        refundRef: refundId,
        reason: refund.reason,
        why: refund.reason === "superseded" ? refund.planPayment.lastError : null,
      },
    });
  });
  return true;
}

/** Second payments whose refund has not gone through yet (Stripe unreachable): tried again by the server's timer. */
export async function retryPlanRefunds(options: { provider?: PaymentProvider } = {}): Promise<number> {
  const provider = options.provider ?? getPaymentProvider();
  if (provider.name !== "stripe") return 0;
  const pending = await prisma().planRefund.findMany({ where: { status: "refunding" }, take: 50 });
  let done = 0;
  for (const record of pending) if (await finishPlanRefund(record, provider)) done++;
  return done;
}
