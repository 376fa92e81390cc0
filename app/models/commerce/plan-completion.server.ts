import { prisma } from "~/services/db.server";
import { lockMemberRow } from "~/services/transaction-locks.server";
import { getPaymentProvider } from "~/services/payments.server";
import { askProvider, PaymentProviderError, type PaymentProvider } from "~/services/payments/provider.server";
import { formatPence } from "~/utils/money";
import { instalments, judgePlanPayment, OVERTAKEN_WHY, PLANS, SUBSCRIPTION_MESSAGES, type PaymentType, type PlanId } from "~/utils/plans";
import { finishPlanRefund, refundSecondPayment, type RefundRecord, type TakenPayment } from "./plan-refunds.server";
import { addMonths, graceAfter, holdingOf, instalmentPhases, planIdOf, planProduct, queueReceipt, subscriptionOf } from "./plan-subscription.server";

// Granting a plan (docs/decisions/013-plan-payments-judged-at-completion.md).
// The rule: a plan is granted only after the provider itself says the payment succeeded, for the amount and
// currency recorded, to this member, and only once: the payment row moves from pending to succeeded in
// one conditional update, and a provider payment id is unique among plan payments.

// ───────────────────────────── granting the plan ─────────────────────────────

export type CompletePlanResult =
  /**
   * secondPayment: this payment came after the plan was paid another way; refunded (or to be, when Stripe answers).
   * excessRefund: the part of this payment above what the plan cost the member by then, given back.
   */
  | {
      ok: true;
      planId: PlanId;
      alreadyDone: boolean;
      secondPayment?: { refunded: boolean; message: string };
      excessRefund?: { pence: number; refunded: boolean; message: string };
    }
  /** superseded: the member's plan had overtaken this payment when it completed; it granted nothing and is refunded whole. */
  | { ok: false; reason: "superseded"; message: string; refunded: boolean }
  | { ok: false; reason: "not-found" | "unpaid" | "mismatch" | "used" | "provider" | "refunded"; message: string };

const NOT_FOUND: CompletePlanResult = { ok: false, reason: "not-found", message: SUBSCRIPTION_MESSAGES.paymentNotFound };
const PROVIDER_FAILED: CompletePlanResult = { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.upgradeFailed };

/**
 * POST /api/complete-subscription-upgrade, the payment screen after paying, and the signed webhook: the
 * provider is asked about the payment; the plan is granted if it succeeded for the recorded amount and
 * currency, belongs to this member (when a member asks) and has not granted anything before.
 */
export async function completePlanPayment(
  paymentId: string,
  options: { userId?: string; expect?: { planId?: string; paymentType?: string }; now?: Date; provider?: PaymentProvider } = {},
): Promise<CompletePlanResult> {
  const now = options.now ?? new Date();
  if (!paymentId || paymentId.length > 255) return NOT_FOUND;
  const row = await prisma().planPayment.findUnique({ where: { paymentId }, include: { purchase: true } });
  if (!row || row.replacedPaymentId === paymentId) return completeOtherPayment(paymentId, options);
  if ((options.userId !== undefined && row.purchase.userId !== options.userId) || !row.purchase.userId) return NOT_FOUND;
  const { purchase } = row;
  if (options.expect?.planId && options.expect.planId !== purchase.planId) return { ok: false, reason: "mismatch", message: SUBSCRIPTION_MESSAGES.wrongPlan };
  if (options.expect?.paymentType && options.expect.paymentType !== purchase.paymentType)
    return { ok: false, reason: "mismatch", message: SUBSCRIPTION_MESSAGES.wrongPlan };
  if (row.number !== 1) return { ok: false, reason: "used", message: SUBSCRIPTION_MESSAGES.alreadyUsed };
  // Succeeded means granted: the claim and the purchase's update share one transaction, which a racing
  // caller may see half-way on PGlite's single connection.
  if (row.status === "succeeded") return { ok: true, planId: planIdOf(purchase.planId), alreadyDone: true };
  if (row.status === "refunded") return overtakenAnswer(row.id);
  // An abandoned purchase's payment (its price no longer held when the member pressed again) may still be
  // paid in a tab left open: it is judged like any other.
  if (purchase.status !== "awaiting_payment" && purchase.status !== "abandoned")
    return (await grantedMeanwhile(row.id, planIdOf(purchase.planId))) ?? { ok: false, reason: "used", message: SUBSCRIPTION_MESSAGES.alreadyUsed };

  const provider = options.provider ?? getPaymentProvider();
  if (provider.name !== purchase.provider) return PROVIDER_FAILED;
  const asked = await askProvider(() => provider.getPayment(paymentId));
  if (!asked.ok) return PROVIDER_FAILED;
  const payment = asked.value;
  if (!payment) return NOT_FOUND;
  if (payment.status !== "succeeded") return { ok: false, reason: "unpaid", message: payment.failureMessage ?? SUBSCRIPTION_MESSAGES.unpaid };
  if (payment.amount !== row.amount || payment.currency.toLowerCase() !== row.currency) {
    console.error(`Plan payment ${paymentId} took ${payment.amount} ${payment.currency}, expected ${row.amount} ${row.currency}: nothing granted`);
    return { ok: false, reason: "mismatch", message: SUBSCRIPTION_MESSAGES.wrongAmount };
  }
  const taken: TakenPayment = { paymentId, amount: payment.amount, subscriptionId: purchase.paymentType === "monthly" ? purchase.stripeSubscriptionId : null };
  const result = await grant(row, purchase, taken, now, provider);
  return result.ok && result.alreadyDone ? afterLostRace(row.id, taken, provider, result) : result;
}

/**
 * A provider payment that is not the one recorded on its plan payment: the Payment Element's payment that a
 * Checkout page replaced (and cancelled), or the payment a Checkout page took. Found through what we
 * recorded, or through the metadata Stripe itself holds on the payment (never through what a client sends).
 * Paid after the plan was paid another way, it is refunded, once.
 */
async function completeOtherPayment(paymentId: string, options: { userId?: string; now?: Date; provider?: PaymentProvider }): Promise<CompletePlanResult> {
  const provider = options.provider ?? getPaymentProvider();
  if (provider.name !== "stripe") return NOT_FOUND;
  let row = await prisma().planPayment.findUnique({ where: { replacedPaymentId: paymentId }, include: { purchase: true } });
  const asked = await askProvider(() => provider.getPayment(paymentId));
  if (!asked.ok) return PROVIDER_FAILED;
  const payment = asked.value;
  if (!payment) return NOT_FOUND;
  const replaced = !!row;
  if (!row && payment.metadata.kind === "plan" && payment.metadata.planPaymentId) {
    row = await prisma().planPayment.findUnique({ where: { id: payment.metadata.planPaymentId.slice(0, 255) }, include: { purchase: true } });
  }
  if (
    !row ||
    !row.purchase.userId ||
    (options.userId !== undefined && row.purchase.userId !== options.userId) ||
    row.purchase.provider !== "stripe" ||
    row.number !== 1
  )
    return NOT_FOUND;
  const planId = planIdOf(row.purchase.planId);
  if (!replaced) {
    // A Checkout page's payment. The plan paid already (by another payment): this one is a second payment.
    if (row.status === "succeeded") {
      if (payment.status !== "succeeded" || row.paymentId === paymentId) return { ok: true, planId, alreadyDone: true };
      return {
        ok: true,
        planId,
        alreadyDone: true,
        secondPayment: await refundSecondPayment(row.id, { paymentId, amount: payment.amount, subscriptionId: null }, provider),
      };
    }
    // Not yet: the session decides (checked there, and granted once).
    if (row.checkoutSessionId) return completePlanSession(row.checkoutSessionId, options);
    return NOT_FOUND;
  }
  // The Payment Element's payment, cancelled when the Checkout page was opened.
  if (payment.status !== "succeeded") {
    if (row.status === "succeeded") return { ok: true, planId, alreadyDone: true };
    return { ok: false, reason: "unpaid", message: payment.failureMessage ?? SUBSCRIPTION_MESSAGES.unpaid };
  }
  const taken: TakenPayment = {
    paymentId,
    amount: payment.amount,
    subscriptionId: row.purchase.paymentType === "monthly" ? row.purchase.replacedSubscriptionId : null,
  };
  const refund = await refundSecondPayment(row.id, taken, provider);
  if (row.status === "succeeded") return { ok: true, planId, alreadyDone: true, secondPayment: refund };
  // Paid in the card form at the very moment it was replaced by the Checkout page: given back.
  return {
    ok: false,
    reason: "refunded",
    message: refund.refunded ? SUBSCRIPTION_MESSAGES.replacedPaymentRefunded : SUBSCRIPTION_MESSAGES.replacedPaymentRefundPending,
  };
}

/** A grant that found its plan payment granted already: by this payment (done), or by another one (this one is refunded). */
async function afterLostRace(
  rowId: string,
  taken: TakenPayment,
  provider: PaymentProvider,
  result: Extract<CompletePlanResult, { ok: true }>,
): Promise<CompletePlanResult> {
  const now = await prisma().planPayment.findUnique({ where: { id: rowId }, select: { paymentId: true } });
  if (!now || now.paymentId === taken.paymentId) return result;
  return { ...result, secondPayment: await refundSecondPayment(rowId, taken, provider) };
}

/**
 * The payment row and its purchase are read in two queries: a racing grant may land between them (its claim
 * and the purchase's update share one transaction), so a purchase no longer waiting is checked against the
 * payment row once more before "already used" is answered.
 */
async function grantedMeanwhile(rowId: string, planId: PlanId): Promise<CompletePlanResult | null> {
  const now = await prisma().planPayment.findUnique({ where: { id: rowId }, select: { status: true } });
  if (now?.status === "refunded") return overtakenAnswer(rowId);
  return now?.status === "succeeded" ? { ok: true, planId, alreadyDone: true } : null;
}

async function isRecordedPayment(rowId: string, paymentId: string) {
  const now = await prisma().planPayment.findUnique({ where: { id: rowId }, select: { paymentId: true } });
  return now?.paymentId === paymentId;
}

/** A plan payment that was judged overtaken (by this caller or a racing one): what it says, and whether the refund went through. */
async function overtakenAnswer(rowId: string): Promise<CompletePlanResult> {
  const row = await prisma().planPayment.findUniqueOrThrow({ where: { id: rowId }, include: { refunds: { where: { reason: "superseded" } } } });
  const refunded = row.refunds[0]?.status === "refunded";
  const why = row.lastError ?? OVERTAKEN_WHY["price-changed"]("");
  return {
    ok: false,
    reason: "superseded",
    refunded,
    message: SUBSCRIPTION_MESSAGES.overtaken(why, formatPence(row.refunds[0]?.amount ?? row.amount), refunded),
  };
}

type Judged = { kind: "lost" } | { kind: "granted"; excess: RefundRecord | null } | { kind: "overtaken"; refund: RefundRecord };

/**
 * The grant, judged: under a lock on the member's row, what they hold now is read and the
 * payment is honoured only if it still improves it (judgePlanPayment). Then, in the same transaction, the
 * payment row is claimed (only one caller moves it from pending), and either the plan is granted and a
 * receipt queued, or the purchase reads "refunded" and a refund is recorded. The refunds themselves are
 * asked of the provider after the commit (finishPlanRefund: once, retried while the provider is down).
 */
async function grant(
  row: { id: string },
  purchase: { id: string; userId: string | null; planId: string; paymentType: string; instalmentCount: number },
  taken: TakenPayment,
  now: Date,
  provider: PaymentProvider,
  options: { paidWith?: string; subscriptionId?: string | null } = {},
): Promise<CompletePlanResult> {
  const planId = planIdOf(purchase.planId);
  const paymentType = purchase.paymentType as PaymentType;
  const monthly = paymentType === "monthly";
  const nextDueAt = monthly ? addMonths(now, 1) : null;
  const judged: Judged = await prisma().$transaction(async (tx) => {
    // One completion at a time per member: what they hold is read, judged and changed under this lock.
    if (purchase.userId) await lockMemberRow(tx, purchase.userId);
    const member = await tx.user.findUnique({
      where: { id: purchase.userId! },
      select: { id: true, email: true, firstName: true, subscriptionPlan: true, subscriptionExpiryDate: true },
    });
    if (!member) return { kind: "lost" };
    const holding = holdingOf(await subscriptionOf(tx, member, now));
    const verdict = judgePlanPayment(holding, { planId, paymentType, amountPence: taken.amount });
    const why = verdict.grant ? null : OVERTAKEN_WHY[verdict.reason](PLANS[holding.planId].name);
    // The claim: only one caller moves this payment from pending; a replay or a race finds nothing.
    const claimed = await tx.planPayment.updateMany({
      where: { id: row.id, status: "pending" },
      data: {
        status: verdict.grant ? "succeeded" : "refunded",
        paidAt: now,
        attempts: { increment: 1 },
        lastError: why,
        ...(options.paidWith ? { paymentId: options.paidWith } : {}),
      },
    });
    if (!claimed.count) return { kind: "lost" };
    const subscription = options.subscriptionId ? { stripeSubscriptionId: options.subscriptionId } : {};
    if (!verdict.grant) {
      await tx.planPurchase.update({ where: { id: purchase.id }, data: { status: "refunded", retryAt: null, ...subscription } });
      const refund = await tx.planRefund.create({
        data: { planPaymentId: row.id, paymentId: taken.paymentId, subscriptionId: taken.subscriptionId, amount: taken.amount, reason: "superseded" },
      });
      return { kind: "overtaken", refund };
    }
    const finished = !monthly || purchase.instalmentCount === 1;
    await tx.planPurchase.update({
      where: { id: purchase.id },
      data: { status: finished ? "completed" : "active", instalmentsPaid: 1, nextDueAt: finished ? null : nextDueAt, ...subscription },
    });
    // A plan held before (Forever, moving to Forever Plus) is replaced: its instalments stop.
    await tx.planPurchase.updateMany({
      where: { userId: purchase.userId, id: { not: purchase.id }, status: { in: ["active", "completed", "cancelled", "lapsed"] } },
      data: { status: "replaced" },
    });
    await tx.user.update({ where: { id: member.id }, data: { subscriptionPlan: planId, subscriptionExpiryDate: finished ? null : graceAfter(nextDueAt!) } });
    await queueReceipt(tx, member, {
      planId,
      paymentType,
      number: 1,
      count: purchase.instalmentCount,
      amount: taken.amount,
      paymentRef: taken.paymentId,
      nextDueAt: finished ? null : nextDueAt,
    });
    const excess = verdict.excessPence
      ? await tx.planRefund.create({
          data: { planPaymentId: row.id, paymentId: taken.paymentId, subscriptionId: null, amount: verdict.excessPence, reason: "excess" },
        })
      : null;
    return { kind: "granted", excess };
  });
  if (judged.kind === "overtaken") {
    await finishPlanRefund(judged.refund, provider);
    return overtakenAnswer(row.id);
  }
  if (judged.kind === "lost") {
    // Someone else's claim won: the payment row says so even before their transaction's last statement.
    const claimed = await prisma().planPayment.findUnique({ where: { id: row.id }, select: { status: true } });
    if (claimed?.status === "refunded") return overtakenAnswer(row.id);
    return claimed?.status === "succeeded"
      ? { ok: true, planId, alreadyDone: true }
      : { ok: false, reason: "used", message: SUBSCRIPTION_MESSAGES.alreadyUsed };
  }
  if (judged.excess) {
    const refunded = await finishPlanRefund(judged.excess, provider);
    return {
      ok: true,
      planId,
      alreadyDone: false,
      excessRefund: {
        pence: judged.excess.amount,
        refunded,
        message: SUBSCRIPTION_MESSAGES.excessRefunded(PLANS[planId].name, formatPence(judged.excess.amount), refunded),
      },
    };
  }
  return { ok: true, planId, alreadyDone: false };
}

/**
 * Back from Stripe Checkout (the success address), or its signed checkout.session.completed webhook: the
 * session is asked of Stripe; it must be complete and paid, for the plan payment it was opened for (its
 * metadata), by this member, at the amount and currency recorded. Monthly, the subscription Checkout made
 * must be that plan payment's, its first invoice paid for the first instalment; it is then put on the
 * instalments' schedule (as the card form's is) before the plan is granted. Once only; a session paid after
 * the plan was paid another way is refunded (and its subscription ended).
 */
export async function completePlanSession(
  sessionId: string,
  options: { userId?: string; now?: Date; provider?: PaymentProvider } = {},
): Promise<CompletePlanResult> {
  const now = options.now ?? new Date();
  if (!/^cs_[A-Za-z0-9_]{1,250}$/.test(sessionId)) return NOT_FOUND;
  const provider = options.provider ?? getPaymentProvider();
  if (provider.name !== "stripe") return NOT_FOUND;
  const asked = await askProvider(() => provider.getHostedCheckout(sessionId));
  if (!asked.ok) return PROVIDER_FAILED;
  const session = asked.value;
  if (!session || session.metadata.kind !== "plan" || !session.metadata.planPaymentId) return NOT_FOUND;
  const row = await prisma().planPayment.findUnique({ where: { id: session.metadata.planPaymentId.slice(0, 255) }, include: { purchase: true } });
  if (!row || !row.purchase.userId || (options.userId !== undefined && row.purchase.userId !== options.userId) || row.purchase.provider !== "stripe")
    return NOT_FOUND;
  const planId = planIdOf(row.purchase.planId);
  const monthly = row.purchase.paymentType === "monthly";
  if (row.number !== 1 || session.mode !== (monthly ? "subscription" : "payment"))
    return { ok: false, reason: "used", message: SUBSCRIPTION_MESSAGES.alreadyUsed };
  if (!session.complete || !session.paid) {
    // Nothing taken on this page: a plan paid another way is simply paid.
    if (row.status === "succeeded") return { ok: true, planId, alreadyDone: true };
    return { ok: false, reason: "unpaid", message: SUBSCRIPTION_MESSAGES.unpaid };
  }

  // What the page took: one payment, or a subscription whose first invoice was paid.
  let taken: TakenPayment & { currency: string };
  if (monthly) {
    const { invoiceId } = session;
    if (!session.subscriptionId || !invoiceId || !provider.getInvoice) return { ok: false, reason: "unpaid", message: SUBSCRIPTION_MESSAGES.unpaid };
    const found = await askProvider(() => provider.getInvoice!(invoiceId));
    if (!found.ok) return PROVIDER_FAILED;
    const invoice = found.value;
    if (!invoice || !invoice.paid || !invoice.paymentId) return { ok: false, reason: "unpaid", message: SUBSCRIPTION_MESSAGES.unpaid };
    if (invoice.subscriptionId !== session.subscriptionId || invoice.billingReason !== "subscription_create" || invoice.metadata.planPaymentId !== row.id) {
      console.error(
        `Checkout session ${sessionId}'s invoice ${invoice.id} is not the first invoice of a subscription for plan payment ${row.id}: nothing granted`,
      );
      return { ok: false, reason: "mismatch", message: SUBSCRIPTION_MESSAGES.wrongPlan };
    }
    taken = { paymentId: invoice.paymentId, amount: invoice.amountPaid, currency: invoice.currency, subscriptionId: invoice.subscriptionId };
  } else {
    if (!session.paymentId) return { ok: false, reason: "unpaid", message: SUBSCRIPTION_MESSAGES.unpaid };
    taken = { paymentId: session.paymentId, amount: session.amount, currency: session.currency, subscriptionId: null };
  }

  if (row.status === "succeeded") {
    if (row.paymentId === taken.paymentId) return { ok: true, planId, alreadyDone: true };
    return { ok: true, planId, alreadyDone: true, secondPayment: await refundSecondPayment(row.id, taken, provider) };
  }
  if (row.status === "refunded") {
    if (row.paymentId !== taken.paymentId) await refundSecondPayment(row.id, taken, provider);
    return overtakenAnswer(row.id);
  }
  if (row.purchase.status !== "awaiting_payment" && row.purchase.status !== "abandoned") {
    const meanwhile = await grantedMeanwhile(row.id, planId);
    if (meanwhile)
      return meanwhile.ok && meanwhile.alreadyDone && !(await isRecordedPayment(row.id, taken.paymentId))
        ? afterLostRace(row.id, taken, provider, meanwhile)
        : meanwhile;
    return { ok: false, reason: "used", message: SUBSCRIPTION_MESSAGES.alreadyUsed };
  }
  if (taken.amount !== row.amount || taken.currency.toLowerCase() !== row.currency) {
    console.error(`Checkout session ${sessionId} took ${taken.amount} ${taken.currency}, expected ${row.amount} ${row.currency}: nothing granted`);
    return { ok: false, reason: "mismatch", message: SUBSCRIPTION_MESSAGES.wrongAmount };
  }
  if (monthly) {
    // The same schedule as the card form's subscription: the plans module's instalments, then it ends.
    const userId = row.purchase.userId;
    const scheduled = await askProvider(async () => {
      if (!provider.scheduleInstalmentPlan) throw new PaymentProviderError("Stripe is not configured for monthly payments");
      await provider.scheduleInstalmentPlan(taken.subscriptionId!, {
        currency: row.currency,
        idempotencyKey: `plan-subscription:${row.purchaseId}:${taken.subscriptionId}`,
        product: planProduct(planId),
        phases: instalmentPhases(instalments(PLANS[planId])),
        metadata: { kind: "plan", userId, planId, paymentType: "monthly", purchaseId: row.purchaseId, planPaymentId: row.id },
      });
    });
    if (!scheduled.ok) return PROVIDER_FAILED;
  }
  const result = await grant(row, row.purchase, taken, now, provider, { paidWith: taken.paymentId, subscriptionId: taken.subscriptionId });
  return result.ok && result.alreadyDone ? afterLostRace(row.id, taken, provider, result) : result;
}
