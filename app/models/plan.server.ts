import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { getPaymentProvider } from "~/services/payments.server";
import { PaymentProviderError, type InvoiceFacts, type PaymentProvider, type ProviderPayment, type WebhookEvent } from "~/services/payments/provider.server";
import { formatLongDate } from "~/utils/dates";
import { formatPence } from "~/utils/money";
import {
  describeInstalments,
  ENDOWMENT_PERCENT,
  INSTALMENT_GRACE_DAYS,
  INSTALMENT_RETRY_DAYS,
  instalments,
  isPaidPlan,
  judgePlanPayment,
  OVERTAKEN_WHY,
  planCredit,
  PLAN_ORDER,
  PLANS,
  type PlanHolding,
  SUBSCRIPTION_MESSAGES,
  type PaymentType,
  type PlanId,
  type TestCard,
} from "~/utils/plans";
import { queueMail } from "./mail.server";

// Permanence plans paid for real (commerce-and-accounts.md §2 "Subscription", §4 "Subscription purchase",
// §7; issue 17 §1–6). The rules:
// - What a plan costs is decided here, from app/utils/plans.ts and what the member already paid: a
//   purchase and its first payment are recorded (plan, way to pay, amount) before the provider is asked
//   for a payment, and the plan is granted from that record, never from what a client sends.
// - A plan is granted only after the provider itself says the payment succeeded, for the amount and
//   currency recorded, to this member, and only once: the payment row moves from pending to succeeded in
//   one conditional update, and a provider payment id is unique among plan payments.
// - Monthly means instalments: access runs to the next due date plus a grace period; the worker
//   (server/instalment-worker.ts) charges each one when due. A missed one is retried, the member is
//   emailed, and when the grace period ends new memorials and vault uploads are refused (the plan's
//   expiry passes). Nothing already there is deleted or hidden.
// - Cancelling stops future instalments and keeps access to the end of the period paid for.

type Member = { id: string; email: string; firstName: string; subscriptionPlan: string; subscriptionExpiryDate: Date | null };
type Db = Prisma.TransactionClient | ReturnType<typeof prisma>;

const DAY_MS = 86_400_000;

/** One month on from a moment, the same day of the month where it exists (31 January → 28/29 February). */
export function addMonths(date: Date, months: number): Date {
  const next = new Date(date);
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}

const graceAfter = (due: Date) => new Date(due.getTime() + INSTALMENT_GRACE_DAYS * DAY_MS);

// ───────────────────────────── what the member has ─────────────────────────────

export type PurchaseView = {
  id: string;
  planId: PlanId;
  paymentType: PaymentType;
  status: string;
  instalmentCount: number;
  instalmentsPaid: number;
  paidPence: number;
  remainingPence: number;
  nextDueAt: Date | null;
  nextAmountPence: number | null;
  missed: { dueAt: Date; lastError: string | null; accessUntil: Date } | null;
};

export type SubscriptionView = {
  /** The plan in force now (an ended one reads as Free). */
  planId: PlanId;
  /** A paid plan whose access has ended (cancelled, or a missed instalment after the grace period). */
  ended: { planId: PlanId; on: Date } | null;
  expiresAt: Date | null;
  purchase: PurchaseView | null;
};

function planIdOf(value: string | null | undefined): PlanId {
  return value === "forever" || value === "forever_plus" ? value : "free";
}

/** The member's plan now, and the purchase behind it (the newest that granted anything). */
export async function getSubscription(user: Member, now = new Date()): Promise<SubscriptionView> {
  return subscriptionOf(prisma(), user, now);
}

async function subscriptionOf(db: Db, user: Pick<Member, "id" | "subscriptionPlan" | "subscriptionExpiryDate">, now: Date): Promise<SubscriptionView> {
  const recorded = planIdOf(user.subscriptionPlan);
  const inForce = isPaidPlan(recorded, user.subscriptionExpiryDate, now) ? recorded : "free";
  const purchase = await db.planPurchase.findFirst({
    where: { userId: user.id, status: { in: ["active", "completed", "cancelled", "lapsed"] } },
    orderBy: { createdAt: "desc" },
    include: { payments: { orderBy: { number: "asc" } } },
  });
  let view: PurchaseView | null = null;
  if (purchase) {
    const amounts = purchaseAmounts(purchase);
    const paid = purchase.payments.filter((p) => p.status === "succeeded").reduce((sum, p) => sum + p.amount, 0);
    const failed = purchase.payments.find((p) => p.number === purchase.instalmentsPaid + 1 && p.status === "failed");
    view = {
      id: purchase.id,
      planId: planIdOf(purchase.planId),
      paymentType: purchase.paymentType as PaymentType,
      status: purchase.status,
      instalmentCount: purchase.instalmentCount,
      instalmentsPaid: purchase.instalmentsPaid,
      paidPence: paid,
      remainingPence: amounts.slice(purchase.instalmentsPaid).reduce((a, b) => a + b, 0),
      nextDueAt: purchase.status === "active" ? purchase.nextDueAt : null,
      nextAmountPence: purchase.status === "active" ? (amounts[purchase.instalmentsPaid] ?? null) : null,
      missed: failed && purchase.nextDueAt ? { dueAt: purchase.nextDueAt, lastError: failed.lastError, accessUntil: graceAfter(purchase.nextDueAt) } : null,
    };
  }
  return {
    planId: inForce,
    ended: recorded !== "free" && inForce === "free" && user.subscriptionExpiryDate ? { planId: recorded, on: user.subscriptionExpiryDate } : null,
    expiresAt: inForce === "free" ? null : user.subscriptionExpiryDate,
    purchase: view,
  };
}

/** The amounts of a purchase's payments: the instalments of its plan, or one payment of what it costs. */
function purchaseAmounts(purchase: { planId: string; paymentType: string; instalmentCount: number; payments?: { number: number; amount: number }[] }): number[] {
  if (purchase.paymentType === "monthly") return instalments(PLANS[planIdOf(purchase.planId)]);
  const first = purchase.payments?.find((p) => p.number === 1);
  return [first?.amount ?? PLANS[planIdOf(purchase.planId)].pricePence];
}

/** Instalments as runs of equal amounts: Forever is [36 × 775], Forever Plus [35 × 1192, 1 × 1180]. */
export function instalmentPhases(amounts: number[]): { amount: number; count: number }[] {
  const phases: { amount: number; count: number }[] = [];
  for (const amount of amounts) {
    const last = phases[phases.length - 1];
    if (last?.amount === amount) last.count++;
    else phases.push({ amount, count: 1 });
  }
  return phases;
}

export type PlanOffer = { planId: PlanId; pricePence: number; credit: number; monthly: boolean };

/**
 * What moving to a plan costs this member: its price, less what they have paid for a plan they hold
 * (Forever paid in full moves to Forever Plus for the difference). Monthly payments are offered from
 * the free plan only: a member part-way through instalments pays the rest of the new plan at once.
 */
export async function planOffer(user: Member, planId: PlanId, now = new Date()): Promise<PlanOffer | { refused: string }> {
  return offerFrom(holdingOf(await getSubscription(user, now)), planId);
}

/** The offers of every plan above the one in force (the plan cards show this member's price). */
export function planOffers(subscription: SubscriptionView): Partial<Record<PlanId, PlanOffer>> {
  const holding = holdingOf(subscription);
  const offers: Partial<Record<PlanId, PlanOffer>> = {};
  for (const planId of PLAN_ORDER) {
    const offer = offerFrom(holding, planId);
    if (!("refused" in offer)) offers[planId] = offer;
  }
  return offers;
}

function holdingOf(subscription: SubscriptionView): PlanHolding {
  const { purchase } = subscription;
  return { planId: subscription.planId, purchase: purchase && subscription.planId !== "free" ? { planId: purchase.planId, paymentType: purchase.paymentType, paidPence: purchase.paidPence } : null };
}

function offerFrom(holding: PlanHolding, planId: PlanId): PlanOffer | { refused: string } {
  if (planId === "free") return { refused: SUBSCRIPTION_MESSAGES.downgrade };
  if (holding.planId === planId) return { refused: SUBSCRIPTION_MESSAGES.alreadyOnPlan };
  if (holding.planId === "forever_plus") return { refused: SUBSCRIPTION_MESSAGES.downgrade };
  const credit = planCredit(holding);
  const pricePence = PLANS[planId].pricePence - credit;
  return { planId, pricePence, credit, monthly: holding.planId === "free" && !!PLANS[planId].monthlyPayments };
}

// ───────────────────────────── starting a payment ─────────────────────────────

export type StartPlanResult =
  | { ok: true; purchaseId: string; paymentId: string; clientSecret: string | null; amountPence: number }
  | { ok: false; reason: "refused" | "provider"; message: string };

/**
 * POST /api/create-subscription-payment and the plan screen's Continue to Payment: records the purchase
 * and its first payment, then asks the provider for the payment. One open purchase per member, plan and
 * way to pay (a partial unique index): Continue to Payment pressed twice, in two tabs or in parallel gets
 * the same purchase and the same provider payment. An open purchase whose price no longer holds (the
 * member's plan changed meanwhile) is abandoned and its payment cancelled where the provider can.
 */
export async function startPlanPurchase(user: Member, planId: PlanId, paymentType: PaymentType, options: { testCard?: TestCard; now?: Date; provider?: PaymentProvider } = {}): Promise<StartPlanResult> {
  const now = options.now ?? new Date();
  const provider = options.provider ?? getPaymentProvider();
  const offer = await planOffer(user, planId, now);
  if ("refused" in offer) return { ok: false, reason: "refused", message: offer.refused };
  if (paymentType === "monthly" && !offer.monthly) return { ok: false, reason: "refused", message: SUBSCRIPTION_MESSAGES.monthlyNotOffered };
  const monthly = paymentType === "monthly";
  const amount = monthly ? instalments(PLANS[planId])[0] : offer.pricePence;

  const purchase = await openPurchase(user, { planId, paymentType, amount, now, provider, testCard: options.testCard });
  const row = purchase.payments[0];
  const fail = (error: unknown): StartPlanResult => {
    if (!(error instanceof PaymentProviderError)) throw error;
    console.error(error.message);
    return { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.createFailed };
  };
  // Asked already (a second press, another tab): the same payment, as the provider knows it now.
  const asked = async (paymentId: string): Promise<StartPlanResult> => {
    let known: ProviderPayment | null;
    try {
      known = await provider.getPayment(paymentId);
    } catch (error) {
      return fail(error);
    }
    return { ok: true, purchaseId: purchase.id, paymentId, clientSecret: known?.clientSecret ?? null, amountPence: amount };
  };
  if (row.paymentId) return asked(row.paymentId);

  let payment: ProviderPayment;
  try {
    if (monthly && provider.createInstalmentPlan) {
      // Stripe charges the instalments itself: a subscription that ends after the last one. Its first
      // invoice's PaymentIntent is this payment (paid in the Payment Element); later ones arrive as webhooks.
      const plan = await provider.createInstalmentPlan({
        currency: row.currency,
        idempotencyKey: `plan-subscription:${purchase.id}`,
        customerEmail: user.email,
        product: { id: `everlight_plan_${planId}`, name: `Everlight ${PLANS[planId].name}` },
        phases: instalmentPhases(instalments(PLANS[planId])),
        metadata: { kind: "plan", userId: user.id, planId, paymentType, purchaseId: purchase.id, planPaymentId: row.id },
      });
      if (plan.payment.amount !== amount) throw new PaymentProviderError(`Stripe's first invoice is for ${plan.payment.amount}, expected ${amount}`);
      await prisma().planPurchase.updateMany({ where: { id: purchase.id, stripeSubscriptionId: null }, data: { stripeSubscriptionId: plan.subscriptionId } });
      payment = plan.payment;
    } else payment = await provider.createPayment({
      amount,
      currency: row.currency,
      idempotencyKey: `plan-payment:${row.id}`,
      description: `Everlight ${PLANS[planId].name}${monthly ? ", instalment 1" : ""}`,
      metadata: { kind: "plan", userId: user.id, planId, paymentType, purchaseId: purchase.id, planPaymentId: row.id },
    });
  } catch (error) {
    // A parallel request for the same purchase may have been answered (Stripe refuses a key in use).
    const meanwhile = await prisma().planPayment.findUnique({ where: { id: row.id }, select: { paymentId: true } });
    if (meanwhile?.paymentId) return asked(meanwhile.paymentId);
    return fail(error);
  }
  await prisma().planPayment.updateMany({ where: { id: row.id, paymentId: null }, data: { paymentId: payment.id } });
  // Two requests that raced past the check above: the first recorded payment is the one (the same one,
  // through the provider's idempotency key).
  const recorded = await prisma().planPayment.findUnique({ where: { id: row.id }, select: { paymentId: true } });
  if (recorded?.paymentId && recorded.paymentId !== payment.id) return asked(recorded.paymentId);
  return { ok: true, purchaseId: purchase.id, paymentId: payment.id, clientSecret: payment.clientSecret, amountPence: amount };
}

type OpenPurchase = Prisma.PlanPurchaseGetPayload<{ include: { payments: true } }>;

/**
 * The member's one open purchase for this plan and way to pay: reused when its first payment is still
 * to be paid for the same amount with the same provider, else abandoned (its payment cancelled where the
 * provider can; paid all the same, it is judged like any other when it completes) and a new one made.
 * Parallel requests meet at the partial unique index: the loser reads the winner's row.
 */
async function openPurchase(
  user: Member,
  choice: { planId: PlanId; paymentType: PaymentType; amount: number; now: Date; provider: PaymentProvider; testCard?: TestCard },
): Promise<OpenPurchase> {
  const { planId, paymentType, amount, provider } = choice;
  for (let attempt = 0; ; attempt++) {
    const open = await prisma().planPurchase.findFirst({
      where: { userId: user.id, planId, paymentType, status: "awaiting_payment" },
      include: { payments: { where: { number: 1 } } },
    });
    if (open) {
      const first = open.payments[0];
      if (open.provider === provider.name && first?.status === "pending" && first.amount === amount) {
        if (choice.testCard && open.testCard !== choice.testCard) await prisma().planPurchase.update({ where: { id: open.id }, data: { testCard: choice.testCard } });
        return open;
      }
      const abandoned = await prisma().planPurchase.updateMany({ where: { id: open.id, status: "awaiting_payment" }, data: { status: "abandoned" } });
      if (abandoned.count) await cancelAbandoned(open, provider);
      continue;
    }
    try {
      return await prisma().planPurchase.create({
        data: {
          userId: user.id,
          planId,
          paymentType,
          provider: provider.name,
          instalmentCount: paymentType === "monthly" ? PLANS[planId].monthlyPayments! : 1,
          testCard: provider.name === "test" ? (choice.testCard ?? "ok") : null,
          payments: { create: { number: 1, amount, dueAt: choice.now } },
        },
        include: { payments: { where: { number: 1 } } },
      });
    } catch (error) {
      if (attempt < 5 && error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") continue;
      throw error;
    }
  }
}

/** An abandoned purchase's payment is cancelled where the provider can (best effort: a payment made all the same is judged when it completes). */
async function cancelAbandoned(purchase: OpenPurchase, provider: PaymentProvider) {
  const first = purchase.payments[0];
  if (!first?.paymentId || purchase.provider !== provider.name) return;
  try {
    if (purchase.stripeSubscriptionId && provider.endInstalmentPlanNow) await provider.endInstalmentPlanNow(purchase.stripeSubscriptionId, { idempotencyKey: `plan-abandon:${purchase.id}` });
    else if (provider.cancelPayment) await provider.cancelPayment(first.paymentId, { idempotencyKey: `plan-abandon:${purchase.id}` });
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    console.error(`Abandoned plan purchase ${purchase.id}: ${error.message}`);
  }
}

/** The payment screen's facts: the caller's own payment, still to be paid; null for anything else. */
export async function getPendingPlanPayment(user: Member, paymentId: string) {
  if (!paymentId || paymentId.length > 255) return null;
  const row = await prisma().planPayment.findUnique({ where: { paymentId }, include: { purchase: true } });
  if (!row || row.purchase.userId !== user.id || row.status !== "pending" || row.purchase.status !== "awaiting_payment") return null;
  // A tab left open: the member's plan may have moved on since this payment was set up (issue 24 §1).
  const holding = holdingOf(await getSubscription(user));
  const verdict = judgePlanPayment(holding, { planId: planIdOf(row.purchase.planId), paymentType: row.purchase.paymentType as PaymentType, amountPence: row.amount });
  return {
    /** Why paying this now would change nothing (it would be refunded): the screen offers no payment then. */
    overtaken: !verdict.grant ? OVERTAKEN_WHY[verdict.reason](PLANS[holding.planId].name) : verdict.excessPence ? SUBSCRIPTION_MESSAGES.priceMovedOn : null,
    paymentId,
    planId: planIdOf(row.purchase.planId),
    paymentType: row.purchase.paymentType as PaymentType,
    amountPence: row.amount,
    testCard: (row.purchase.testCard ?? "ok") as TestCard,
    provider: row.purchase.provider,
    /** A Stripe Checkout page was opened for it: the Payment Element's payment was cancelled then. */
    checkoutOpened: row.replacedPaymentId !== null,
  };
}

// ───────────────────────────── granting the plan ─────────────────────────────

export type CompletePlanResult =
  /**
   * secondPayment: this payment came after the plan was paid another way; refunded (or to be, when Stripe answers).
   * excessRefund: the part of this payment above what the plan cost the member by then, given back.
   */
  | { ok: true; planId: PlanId; alreadyDone: boolean; secondPayment?: { refunded: boolean; message: string }; excessRefund?: { pence: number; refunded: boolean; message: string } }
  /** superseded: the member's plan had overtaken this payment when it completed; it granted nothing and is refunded whole. */
  | { ok: false; reason: "superseded"; message: string; refunded: boolean }
  | { ok: false; reason: "not-found" | "unpaid" | "mismatch" | "used" | "provider" | "refunded"; message: string };

const NOT_FOUND: CompletePlanResult = { ok: false, reason: "not-found", message: SUBSCRIPTION_MESSAGES.paymentNotFound };

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
  if (options.expect?.paymentType && options.expect.paymentType !== purchase.paymentType) return { ok: false, reason: "mismatch", message: SUBSCRIPTION_MESSAGES.wrongPlan };
  if (row.number !== 1) return { ok: false, reason: "used", message: SUBSCRIPTION_MESSAGES.alreadyUsed };
  // Succeeded means granted: the claim and the purchase's update share one transaction, which a racing
  // caller may see half-way on PGlite's single connection.
  if (row.status === "succeeded") return { ok: true, planId: planIdOf(purchase.planId), alreadyDone: true };
  if (row.status === "refunded") return overtakenAnswer(row.id);
  // An abandoned purchase's payment (its price no longer held when the member pressed again) may still be
  // paid in a tab left open: it is judged like any other.
  if (purchase.status !== "awaiting_payment" && purchase.status !== "abandoned") return (await grantedMeanwhile(row.id, planIdOf(purchase.planId))) ?? { ok: false, reason: "used", message: SUBSCRIPTION_MESSAGES.alreadyUsed };

  const provider = options.provider ?? getPaymentProvider();
  if (provider.name !== purchase.provider) return { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.upgradeFailed };
  let payment: ProviderPayment | null;
  try {
    payment = await provider.getPayment(paymentId);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    console.error(error.message);
    return { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.upgradeFailed };
  }
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

type TakenPayment = { paymentId: string; amount: number; subscriptionId: string | null };

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
  let payment: ProviderPayment | null;
  try {
    payment = await provider.getPayment(paymentId);
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    console.error(error.message);
    return { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.upgradeFailed };
  }
  if (!payment) return NOT_FOUND;
  const replaced = !!row;
  if (!row && payment.metadata.kind === "plan" && payment.metadata.planPaymentId) {
    row = await prisma().planPayment.findUnique({ where: { id: payment.metadata.planPaymentId.slice(0, 255) }, include: { purchase: true } });
  }
  if (!row || !row.purchase.userId || (options.userId !== undefined && row.purchase.userId !== options.userId) || row.purchase.provider !== "stripe" || row.number !== 1) return NOT_FOUND;
  const planId = planIdOf(row.purchase.planId);
  if (!replaced) {
    // A Checkout page's payment. The plan paid already (by another payment): this one is a second payment.
    if (row.status === "succeeded") {
      if (payment.status !== "succeeded" || row.paymentId === paymentId) return { ok: true, planId, alreadyDone: true };
      return { ok: true, planId, alreadyDone: true, secondPayment: await refundSecondPayment(row.id, { paymentId, amount: payment.amount, subscriptionId: null }, provider) };
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
  const taken: TakenPayment = { paymentId, amount: payment.amount, subscriptionId: row.purchase.paymentType === "monthly" ? row.purchase.replacedSubscriptionId : null };
  const refund = await refundSecondPayment(row.id, taken, provider);
  if (row.status === "succeeded") return { ok: true, planId, alreadyDone: true, secondPayment: refund };
  // Paid in the card form at the very moment it was replaced by the Checkout page: given back.
  return { ok: false, reason: "refunded", message: refund.refunded ? SUBSCRIPTION_MESSAGES.replacedPaymentRefunded : SUBSCRIPTION_MESSAGES.replacedPaymentRefundPending };
}

/** A grant that found its plan payment granted already: by this payment (done), or by another one (this one is refunded). */
async function afterLostRace(rowId: string, taken: TakenPayment, provider: PaymentProvider, result: Extract<CompletePlanResult, { ok: true }>): Promise<CompletePlanResult> {
  const now = await prisma().planPayment.findUnique({ where: { id: rowId }, select: { paymentId: true } });
  if (!now || now.paymentId === taken.paymentId) return result;
  return { ...result, secondPayment: await refundSecondPayment(rowId, taken, provider) };
}

/**
 * A second successful payment for a plan payment already paid (two tabs, the card form and Checkout's page):
 * refunded in full, once (plan_refunds holds one row per payment; Stripe's idempotency keys make a retried
 * refund the same refund), and a second subscription ended at once so it takes nothing more. If Stripe
 * cannot be reached the row stays "refunding": the webhook is answered "retry" and the server tries again.
 */
async function refundSecondPayment(planPaymentId: string, taken: TakenPayment, provider: PaymentProvider): Promise<{ refunded: boolean; message: string }> {
  await prisma().planRefund.createMany({ data: [{ planPaymentId, paymentId: taken.paymentId, subscriptionId: taken.subscriptionId, amount: taken.amount }], skipDuplicates: true });
  const record = await prisma().planRefund.findUniqueOrThrow({ where: { paymentId: taken.paymentId } });
  if (record.status === "refunding" && !(await finishPlanRefund(record, provider))) return { refunded: false, message: SUBSCRIPTION_MESSAGES.secondPaymentRefundPending };
  console.warn(`Plan payment ${planPaymentId} was paid twice: ${taken.paymentId} refunded`);
  return { refunded: true, message: SUBSCRIPTION_MESSAGES.secondPaymentRefunded };
}

type RefundRecord = { id: string; paymentId: string; subscriptionId: string | null; amount: number };

/**
 * Asks the provider for a refund recorded in plan_refunds (its amount: the whole payment, or the part
 * above the price) and, monthly, ends the subscription that payment started. The row moves to refunded
 * once, and the member's refund email is queued with that move, so a retried or racing call sends none.
 */
async function finishPlanRefund(record: RefundRecord, provider: PaymentProvider): Promise<boolean> {
  let refundId: string;
  try {
    if (record.subscriptionId) {
      if (!provider.endInstalmentPlanNow) throw new PaymentProviderError("Stripe is not configured to end a Stripe subscription");
      await provider.endInstalmentPlanNow(record.subscriptionId, { idempotencyKey: `plan-refund-end:${record.paymentId}` });
    }
    refundId = (await provider.refund(record.paymentId, { idempotencyKey: `plan-refund:${record.paymentId}`, amount: record.amount })).id;
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    console.error(error.message);
    return false;
  }
  await prisma().$transaction(async (tx) => {
    const moved = await tx.planRefund.updateMany({ where: { id: record.id, status: "refunding" }, data: { status: "refunded", refundId } });
    if (!moved.count) return;
    const refund = await tx.planRefund.findUniqueOrThrow({ where: { id: record.id }, include: { planPayment: { include: { purchase: { include: { user: { select: { id: true, email: true, firstName: true } } } } } } } });
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
  return { ok: false, reason: "superseded", refunded, message: SUBSCRIPTION_MESSAGES.overtaken(why, formatPence(row.refunds[0]?.amount ?? row.amount), refunded) };
}

type Judged =
  | { kind: "lost" }
  | { kind: "granted"; excess: RefundRecord | null }
  | { kind: "overtaken"; refund: RefundRecord };

/**
 * The grant, judged (issue 24 §1): under a lock on the member's row, what they hold now is read and the
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
    await tx.$queryRaw`SELECT 1 FROM "users" WHERE "id" = ${purchase.userId} FOR UPDATE`;
    const member = await tx.user.findUnique({ where: { id: purchase.userId! }, select: { id: true, email: true, firstName: true, subscriptionPlan: true, subscriptionExpiryDate: true } });
    if (!member) return { kind: "lost" };
    const holding = holdingOf(await subscriptionOf(tx, member, now));
    const verdict = judgePlanPayment(holding, { planId, paymentType, amountPence: taken.amount });
    const why = verdict.grant ? null : OVERTAKEN_WHY[verdict.reason](PLANS[holding.planId].name);
    // The claim: only one caller moves this payment from pending; a replay or a race finds nothing.
    const claimed = await tx.planPayment.updateMany({
      where: { id: row.id, status: "pending" },
      data: { status: verdict.grant ? "succeeded" : "refunded", paidAt: now, attempts: { increment: 1 }, lastError: why, ...(options.paidWith ? { paymentId: options.paidWith } : {}) },
    });
    if (!claimed.count) return { kind: "lost" };
    const subscription = options.subscriptionId ? { stripeSubscriptionId: options.subscriptionId } : {};
    if (!verdict.grant) {
      await tx.planPurchase.update({ where: { id: purchase.id }, data: { status: "refunded", retryAt: null, ...subscription } });
      const refund = await tx.planRefund.create({ data: { planPaymentId: row.id, paymentId: taken.paymentId, subscriptionId: taken.subscriptionId, amount: taken.amount, reason: "superseded" } });
      return { kind: "overtaken", refund };
    }
    const finished = !monthly || purchase.instalmentCount === 1;
    await tx.planPurchase.update({
      where: { id: purchase.id },
      data: { status: finished ? "completed" : "active", instalmentsPaid: 1, nextDueAt: finished ? null : nextDueAt, ...subscription },
    });
    // A plan held before (Forever, moving to Forever Plus) is replaced: its instalments stop.
    await tx.planPurchase.updateMany({ where: { userId: purchase.userId, id: { not: purchase.id }, status: { in: ["active", "completed", "cancelled", "lapsed"] } }, data: { status: "replaced" } });
    await tx.user.update({ where: { id: member.id }, data: { subscriptionPlan: planId, subscriptionExpiryDate: finished ? null : graceAfter(nextDueAt!) } });
    await queueReceipt(tx, member, { planId, paymentType, number: 1, count: purchase.instalmentCount, amount: taken.amount, paymentRef: taken.paymentId, nextDueAt: finished ? null : nextDueAt });
    const excess = verdict.excessPence
      ? await tx.planRefund.create({ data: { planPaymentId: row.id, paymentId: taken.paymentId, subscriptionId: null, amount: verdict.excessPence, reason: "excess" } })
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
    return claimed?.status === "succeeded" ? { ok: true, planId, alreadyDone: true } : { ok: false, reason: "used", message: SUBSCRIPTION_MESSAGES.alreadyUsed };
  }
  if (judged.excess) {
    const refunded = await finishPlanRefund(judged.excess, provider);
    return { ok: true, planId, alreadyDone: false, excessRefund: { pence: judged.excess.amount, refunded, message: SUBSCRIPTION_MESSAGES.excessRefunded(PLANS[planId].name, formatPence(judged.excess.amount), refunded) } };
  }
  return { ok: true, planId, alreadyDone: false };
}

type ReceiptFacts = { planId: PlanId; paymentType: PaymentType; number: number; count: number; amount: number; paymentRef: string; nextDueAt: Date | null };

/** Every plan payment taken is receipted by email (issue 24 §9), queued in the transaction that records it. */
async function queueReceipt(db: Db, member: { id: string; email: string; firstName: string }, facts: ReceiptFacts) {
  await queueMail(db, {
    to: member.email,
    kind: "plan-receipt",
    data: { userId: member.id, firstName: member.firstName, ...facts, nextDueAt: facts.nextDueAt?.toISOString() ?? null, paidAt: new Date().toISOString() },
  });
}

// ───────────────────────────── Stripe Checkout (without JavaScript) ─────────────────────────────

export type PlanCheckoutResult =
  | { ok: true; url: string }
  /** The card form's payment had gone through after all: the plan was granted from it, no page was opened. */
  | { ok: true; paid: CompletePlanResult }
  | { ok: false; reason: "not-found" | "refused" | "provider"; message: string };

/**
 * The payment screen's Pay on Stripe's secure page (it works without JavaScript): a Stripe Checkout page for
 * the plan payment recorded, coming back to /subscription?success=true&session_id=…, where
 * completePlanSession grants the plan. In full: Checkout in payment mode for the amount recorded. Monthly:
 * Checkout in subscription mode at the first instalment's price, which completePlanSession then puts on the
 * same schedule as the card form's subscription.
 * One plan payment is paid one way: the card form's payment (monthly, its incomplete subscription) is
 * cancelled before the page is opened and the session is remembered; if that payment went through a moment
 * ago, the plan is granted from it and no page is opened.
 */
export async function startPlanCheckout(user: Member, paymentId: string, site: string, options: { provider?: PaymentProvider } = {}): Promise<PlanCheckoutResult> {
  const pending = await getPendingPlanPayment(user, paymentId);
  if (!pending) return { ok: false, reason: "not-found", message: SUBSCRIPTION_MESSAGES.paymentNotFound };
  if (pending.overtaken) return { ok: false, reason: "refused", message: pending.overtaken };
  const provider = options.provider ?? getPaymentProvider();
  if (pending.provider !== "stripe" || provider.name !== "stripe") return { ok: false, reason: "not-found", message: SUBSCRIPTION_MESSAGES.paymentNotFound };
  const row = await prisma().planPayment.findUniqueOrThrow({ where: { paymentId }, include: { purchase: true } });
  const monthly = pending.paymentType === "monthly";
  const plan = PLANS[pending.planId];
  const fail = (error: unknown): PlanCheckoutResult => {
    if (!(error instanceof PaymentProviderError)) throw error;
    console.error(error.message);
    return { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.createFailed };
  };

  if (!row.replacedPaymentId) {
    let state: ProviderPayment | null;
    let ended = false;
    try {
      if (monthly) {
        // An invoice's PaymentIntent cannot be cancelled by itself: the incomplete subscription is ended (its
        // first invoice is voided with it), unless its card payment has gone through.
        state = await provider.getPayment(paymentId);
        if (state && state.status !== "succeeded" && state.status !== "processing" && row.purchase.stripeSubscriptionId) {
          if (!provider.endInstalmentPlanNow) throw new PaymentProviderError("Stripe is not configured to end a Stripe subscription");
          await provider.endInstalmentPlanNow(row.purchase.stripeSubscriptionId, { idempotencyKey: `plan-replace:${row.id}` });
          ended = true;
          state = await provider.getPayment(paymentId);
        }
      } else {
        if (!provider.cancelPayment) throw new PaymentProviderError("Stripe is not configured to cancel a payment");
        state = await provider.cancelPayment(paymentId, { idempotencyKey: `plan-replace:${row.id}` });
      }
    } catch (error) {
      return fail(error);
    }
    if (state?.status === "succeeded" && !ended) return { ok: true, paid: await completePlanPayment(paymentId, { userId: user.id, provider }) };
    if (state?.status === "processing") return { ok: false, reason: "refused", message: SUBSCRIPTION_MESSAGES.cardPaymentProcessing };
    await prisma().$transaction([
      prisma().planPayment.updateMany({ where: { id: row.id, replacedPaymentId: null }, data: { replacedPaymentId: paymentId } }),
      ...(monthly && row.purchase.stripeSubscriptionId
        ? [prisma().planPurchase.updateMany({ where: { id: row.purchaseId, stripeSubscriptionId: row.purchase.stripeSubscriptionId }, data: { replacedSubscriptionId: row.purchase.stripeSubscriptionId, stripeSubscriptionId: null } })]
        : []),
    ]);
    // Paid in the card form as its subscription was being ended: that subscription is gone, so the payment
    // is given back (completeOtherPayment refunds a replaced payment) and the member pays on the page.
    if (state?.status === "succeeded") await completePlanPayment(paymentId, { userId: user.id, provider });
  }

  const common = {
    amount: row.amount,
    currency: row.currency,
    idempotencyKey: `plan-session:${row.id}`,
    description: `Everlight ${plan.name}${monthly ? `, ${describeInstalments(plan)}` : ""}`,
    metadata: { kind: "plan", userId: user.id, planId: pending.planId, paymentType: pending.paymentType, purchaseId: row.purchaseId, planPaymentId: row.id },
    customerEmail: user.email,
    successUrl: `${site}/subscription?success=true&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${site}/subscription/pay/${encodeURIComponent(paymentId)}`,
  };
  let session: { id: string; url: string };
  try {
    if (monthly) {
      if (!provider.createInstalmentCheckout) throw new PaymentProviderError("Stripe is not configured for monthly payments");
      session = await provider.createInstalmentCheckout({ ...common, product: planProduct(pending.planId) });
    } else session = await provider.createHostedCheckout({ ...common, lines: [{ name: `Everlight ${plan.name}`, quantity: 1, unitAmount: row.amount }] });
  } catch (error) {
    return fail(error);
  }
  // The newest page opened (the same one while Stripe's idempotency key lives; a new one after it expired).
  await prisma().planPayment.update({ where: { id: row.id }, data: { checkoutSessionId: session.id } });
  return { ok: true, url: session.url };
}

const planProduct = (planId: PlanId) => ({ id: `everlight_plan_${planId}`, name: `Everlight ${PLANS[planId].name}` });

/**
 * Back from Stripe Checkout (the success address), or its signed checkout.session.completed webhook: the
 * session is asked of Stripe; it must be complete and paid, for the plan payment it was opened for (its
 * metadata), by this member, at the amount and currency recorded. Monthly, the subscription Checkout made
 * must be that plan payment's, its first invoice paid for the first instalment; it is then put on the
 * instalments' schedule (as the card form's is) before the plan is granted. Once only; a session paid after
 * the plan was paid another way is refunded (and its subscription ended).
 */
export async function completePlanSession(sessionId: string, options: { userId?: string; now?: Date; provider?: PaymentProvider } = {}): Promise<CompletePlanResult> {
  const now = options.now ?? new Date();
  if (!/^cs_[A-Za-z0-9_]{1,250}$/.test(sessionId)) return NOT_FOUND;
  const provider = options.provider ?? getPaymentProvider();
  if (provider.name !== "stripe") return NOT_FOUND;
  const providerFailed = (error: unknown): CompletePlanResult => {
    if (!(error instanceof PaymentProviderError)) throw error;
    console.error(error.message);
    return { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.upgradeFailed };
  };
  let session;
  try {
    session = await provider.getHostedCheckout(sessionId);
  } catch (error) {
    return providerFailed(error);
  }
  if (!session || session.metadata.kind !== "plan" || !session.metadata.planPaymentId) return NOT_FOUND;
  const row = await prisma().planPayment.findUnique({ where: { id: session.metadata.planPaymentId.slice(0, 255) }, include: { purchase: true } });
  if (!row || !row.purchase.userId || (options.userId !== undefined && row.purchase.userId !== options.userId) || row.purchase.provider !== "stripe") return NOT_FOUND;
  const planId = planIdOf(row.purchase.planId);
  const monthly = row.purchase.paymentType === "monthly";
  if (row.number !== 1 || session.mode !== (monthly ? "subscription" : "payment")) return { ok: false, reason: "used", message: SUBSCRIPTION_MESSAGES.alreadyUsed };
  if (!session.complete || !session.paid) {
    // Nothing taken on this page: a plan paid another way is simply paid.
    if (row.status === "succeeded") return { ok: true, planId, alreadyDone: true };
    return { ok: false, reason: "unpaid", message: SUBSCRIPTION_MESSAGES.unpaid };
  }

  // What the page took: one payment, or a subscription whose first invoice was paid.
  let taken: TakenPayment & { currency: string };
  if (monthly) {
    if (!session.subscriptionId || !session.invoiceId || !provider.getInvoice) return { ok: false, reason: "unpaid", message: SUBSCRIPTION_MESSAGES.unpaid };
    let invoice;
    try {
      invoice = await provider.getInvoice(session.invoiceId);
    } catch (error) {
      return providerFailed(error);
    }
    if (!invoice || !invoice.paid || !invoice.paymentId) return { ok: false, reason: "unpaid", message: SUBSCRIPTION_MESSAGES.unpaid };
    if (invoice.subscriptionId !== session.subscriptionId || invoice.billingReason !== "subscription_create" || invoice.metadata.planPaymentId !== row.id) {
      console.error(`Checkout session ${sessionId}'s invoice ${invoice.id} is not the first invoice of a subscription for plan payment ${row.id}: nothing granted`);
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
    if (meanwhile) return meanwhile.ok && meanwhile.alreadyDone && !(await isRecordedPayment(row.id, taken.paymentId)) ? afterLostRace(row.id, taken, provider, meanwhile) : meanwhile;
    return { ok: false, reason: "used", message: SUBSCRIPTION_MESSAGES.alreadyUsed };
  }
  if (taken.amount !== row.amount || taken.currency.toLowerCase() !== row.currency) {
    console.error(`Checkout session ${sessionId} took ${taken.amount} ${taken.currency}, expected ${row.amount} ${row.currency}: nothing granted`);
    return { ok: false, reason: "mismatch", message: SUBSCRIPTION_MESSAGES.wrongAmount };
  }
  if (monthly) {
    // The same schedule as the card form's subscription: the plans module's instalments, then it ends.
    try {
      if (!provider.scheduleInstalmentPlan) throw new PaymentProviderError("Stripe is not configured for monthly payments");
      await provider.scheduleInstalmentPlan(taken.subscriptionId!, {
        currency: row.currency,
        idempotencyKey: `plan-subscription:${row.purchaseId}:${taken.subscriptionId}`,
        product: planProduct(planId),
        phases: instalmentPhases(instalments(PLANS[planId])),
        metadata: { kind: "plan", userId: row.purchase.userId, planId, paymentType: "monthly", purchaseId: row.purchaseId, planPaymentId: row.id },
      });
    } catch (error) {
      return providerFailed(error);
    }
  }
  const result = await grant(row, row.purchase, taken, now, provider, { paidWith: taken.paymentId, subscriptionId: taken.subscriptionId });
  return result.ok && result.alreadyDone ? afterLostRace(row.id, taken, provider, result) : result;
}

/** The built-in provider's Complete Payment: its test payment succeeds (no card, no money), then the plan is granted. */
export async function payTestPlanPayment(user: Member, paymentId: string, testCard: TestCard | undefined, now = new Date()): Promise<CompletePlanResult | null> {
  const pending = await getPendingPlanPayment(user, paymentId);
  const provider = getPaymentProvider();
  if (!pending) {
    // Paid already (a second press, a reload): say what happened rather than "not found".
    const row = paymentId.length <= 255 ? await prisma().planPayment.findUnique({ where: { paymentId }, include: { purchase: true } }) : null;
    if (!row || row.purchase.userId !== user.id) return null;
    return completePlanPayment(paymentId, { userId: user.id, now });
  }
  if (pending.provider !== "test" || provider.name !== "test") return null;
  if (testCard) await prisma().planPurchase.updateMany({ where: { status: "awaiting_payment", payments: { some: { paymentId } } }, data: { testCard } });
  await provider.payTestPayment!(paymentId);
  return completePlanPayment(paymentId, { userId: user.id, now });
}

// ───────────────────────────── instalments ─────────────────────────────

export type InstalmentReport = { charged: number; failed: number; completed: number; lapsed: number };

/**
 * The worker's round (server/instalment-worker.ts; tests pass the clock): every active monthly purchase
 * of the built-in provider whose instalment is due is charged on its saved test card. Stripe's
 * instalments are charged by Stripe and reported by its webhooks.
 */
export async function chargeDueInstalments(now = new Date(), options: { provider?: PaymentProvider; batch?: number } = {}): Promise<InstalmentReport> {
  const provider = options.provider ?? getPaymentProvider();
  const report: InstalmentReport = { charged: 0, failed: 0, completed: 0, lapsed: 0 };
  if (provider.name !== "test") return report;
  const due = await prisma().planPurchase.findMany({
    where: { status: "active", provider: "test", nextDueAt: { lte: now }, OR: [{ retryAt: null }, { retryAt: { lte: now } }] },
    orderBy: { nextDueAt: "asc" },
    take: options.batch ?? 50,
    include: { user: { select: { id: true, email: true, firstName: true } } },
  });
  for (const purchase of due) {
    const outcome = await chargeInstalment(purchase, provider, now);
    report[outcome]++;
  }
  return report;
}

type DuePurchase = Prisma.PlanPurchaseGetPayload<{ include: { user: { select: { id: true; email: true; firstName: true } } } }>;

async function chargeInstalment(purchase: DuePurchase, provider: PaymentProvider, now: Date): Promise<keyof InstalmentReport> {
  const number = purchase.instalmentsPaid + 1;
  const amount = purchaseAmounts(purchase)[number - 1];
  const dueAt = purchase.nextDueAt!;
  if (now.getTime() >= graceAfter(dueAt).getTime()) {
    // The grace period is over: no more tries. The plan's expiry has passed already; nothing is deleted.
    const lapsed = await prisma().planPurchase.updateMany({ where: { id: purchase.id, status: "active", instalmentsPaid: purchase.instalmentsPaid }, data: { status: "lapsed", retryAt: null } });
    if (lapsed.count && purchase.user) {
      await queueMail(prisma(), { to: purchase.user.email, kind: "plan-lapsed", data: { userId: purchase.user.id, firstName: purchase.user.firstName, planId: purchase.planId } });
    }
    return "lapsed";
  }
  const row = await prisma().planPayment.upsert({
    where: { purchaseId_number: { purchaseId: purchase.id, number } },
    create: { purchaseId: purchase.id, number, amount, dueAt },
    update: {},
  });
  const attempt = row.attempts + 1;
  // The saved test card: "ok" always pays; "declines_later" pays the first instalment only (as Stripe's
  // 4000 0000 0000 0341 does), so a missed instalment can be tried by anyone.
  const declined = purchase.testCard === "declines_later";
  const payment = await provider.createPayment({
    amount,
    currency: row.currency,
    idempotencyKey: `plan-payment:${row.id}:${attempt}`,
    description: `Everlight ${PLANS[planIdOf(purchase.planId)].name}, instalment ${number} of ${purchase.instalmentCount}`,
    metadata: { kind: "plan", userId: purchase.userId ?? "", planId: purchase.planId, purchaseId: purchase.id, planPaymentId: row.id },
  });
  if (!declined) await provider.payTestPayment!(payment.id);
  const settled = declined ? null : await provider.getPayment(payment.id);
  if (settled?.status === "succeeded" && settled.amount === amount) {
    const finished = number === purchase.instalmentCount;
    const nextDueAt = finished ? null : addMonths(dueAt, 1);
    const ok = await prisma().$transaction(async (tx) => {
      const moved = await tx.planPurchase.updateMany({
        where: { id: purchase.id, status: "active", instalmentsPaid: purchase.instalmentsPaid },
        data: { instalmentsPaid: number, nextDueAt, retryAt: null, status: finished ? "completed" : "active" },
      });
      if (!moved.count) return false;
      await tx.planPayment.update({ where: { id: row.id }, data: { status: "succeeded", paidAt: now, paymentId: payment.id, attempts: attempt, lastError: null } });
      if (purchase.userId) await tx.user.update({ where: { id: purchase.userId }, data: { subscriptionExpiryDate: finished ? null : graceAfter(nextDueAt!) } });
      if (purchase.user) {
        const facts = { planId: planIdOf(purchase.planId), paymentType: "monthly" as const, number, count: purchase.instalmentCount, amount, paymentRef: payment.id, nextDueAt };
        await queueReceipt(tx, purchase.user, facts);
      }
      return true;
    });
    if (!ok) return "charged";
    return finished ? "completed" : "charged";
  }
  const message = "Your card was declined.";
  await prisma().planPayment.update({ where: { id: row.id }, data: { status: "failed", attempts: attempt, lastError: message } });
  // Tried again in a few days, and at the latest when the grace period ends (then it lapses).
  await prisma().planPurchase.updateMany({ where: { id: purchase.id, status: "active" }, data: { retryAt: new Date(Math.min(now.getTime() + INSTALMENT_RETRY_DAYS * DAY_MS, graceAfter(dueAt).getTime())) } });
  if (attempt === 1 && purchase.user) {
    await queueMail(prisma(), {
      to: purchase.user.email,
      kind: "instalment-missed",
      data: { userId: purchase.user.id, firstName: purchase.user.firstName, planId: purchase.planId, amount, number, count: purchase.instalmentCount, accessUntil: graceAfter(dueAt).toISOString() },
    });
  }
  return "failed";
}

// ───────────────────────────── Stripe's webhooks ─────────────────────────────

export type PlanWebhookOutcome = { handled: string } | { retry: string };

/**
 * A signed Stripe event about a plan (app/models/stripe-webhook.server.ts verified it and records its id
 * once); null when the event is not about a plan. A full payment or the first instalment is granted by the
 * same use case as the return address; later invoices advance the instalments; a failed one emails once.
 */
export async function handlePlanWebhook(subject: NonNullable<WebhookEvent["subject"]>, now = new Date()): Promise<PlanWebhookOutcome | null> {
  switch (subject.kind) {
    case "payment":
    case "session": {
      if (subject.metadata.kind !== "plan") return null;
      const result = subject.kind === "payment" ? await completePlanPayment(subject.id, { now }) : await completePlanSession(subject.id, { now });
      return webhookOutcome(result);
    }
    case "invoice-paid":
      return invoicePaid(subject.invoice, now);
    case "invoice-failed":
      return invoiceFailed(subject.invoice, now);
    case "subscription-ended": {
      const purchase = await prisma().planPurchase.findUnique({ where: { stripeSubscriptionId: subject.subscriptionId } });
      if (!purchase) return null;
      // Stripe stopped trying (or the last period of a cancelled plan ended): no more instalments. Access
      // already ends with the expiry date the last paid instalment set; nothing is deleted.
      const lapsed = await prisma().planPurchase.updateMany({ where: { id: purchase.id, status: "active" }, data: { status: "lapsed", retryAt: null } });
      return { handled: lapsed.count ? "plan lapsed" : "plan unchanged" };
    }
  }
}

async function purchaseOfInvoice(invoice: InvoiceFacts) {
  return prisma().planPurchase.findUnique({
    where: { stripeSubscriptionId: invoice.subscriptionId },
    include: { user: { select: { id: true, email: true, firstName: true } }, payments: { where: { number: 1 } } },
  });
}

async function invoicePaid(invoice: InvoiceFacts, now: Date): Promise<PlanWebhookOutcome | null> {
  const purchase = await purchaseOfInvoice(invoice);
  if (!purchase) return firstInvoiceOfOtherSubscription(invoice, now);
  if (invoice.billingReason === "subscription_create" || purchase.status === "awaiting_payment") {
    // The first instalment: its PaymentIntent is plan payment 1; granted once, whoever gets here first.
    const first = purchase.payments[0];
    if (!first?.paymentId) return { handled: "plan not-found" };
    const result = await completePlanPayment(first.paymentId, { now });
    return webhookOutcome(result);
  }
  // A later instalment. The invoice id is the plan payment's provider id: a replayed or second event for
  // the same invoice finds it taken and changes nothing.
  if (await prisma().planPayment.findUnique({ where: { paymentId: invoice.id }, select: { id: true } })) return { handled: "instalment already recorded" };
  if (purchase.status !== "active" && purchase.status !== "cancelled") return { handled: `instalment ignored (plan ${purchase.status})` };
  const number = purchase.instalmentsPaid + 1;
  const expected = purchaseAmounts(purchase)[number - 1];
  if (expected === undefined || invoice.amountPaid !== expected || invoice.currency.toLowerCase() !== "gbp") {
    console.error(`Stripe invoice ${invoice.id} paid ${invoice.amountPaid} ${invoice.currency} for instalment ${number} of purchase ${purchase.id}, expected ${expected}: not counted`);
    return { handled: "instalment mismatch" };
  }
  const finished = number === purchase.instalmentCount;
  const dueAt = purchase.nextDueAt ?? now;
  const nextDueAt = finished ? null : addMonths(dueAt, 1);
  const moved = await prisma().$transaction(async (tx) => {
    const claimed = await tx.planPurchase.updateMany({
      where: { id: purchase.id, instalmentsPaid: purchase.instalmentsPaid, status: { in: ["active", "cancelled"] } },
      data: { instalmentsPaid: number, nextDueAt, retryAt: null, ...(purchase.status === "active" ? { status: finished ? "completed" : "active" } : {}) },
    });
    if (!claimed.count) return false;
    await tx.planPayment.upsert({
      where: { purchaseId_number: { purchaseId: purchase.id, number } },
      create: { purchaseId: purchase.id, number, amount: expected, dueAt, status: "succeeded", paidAt: now, paymentId: invoice.id, attempts: Math.max(1, invoice.attemptCount) },
      update: { status: "succeeded", paidAt: now, paymentId: invoice.id, attempts: Math.max(1, invoice.attemptCount), lastError: null },
    });
    // As chargeInstalment does for the built-in provider: access to the next due date plus the grace period.
    // A cancelled plan whose invoice Stripe took before it heard of the cancelling: the month paid for, no grace.
    if (purchase.userId) {
      const until = finished ? null : purchase.status === "active" ? graceAfter(nextDueAt!) : nextDueAt;
      await tx.user.update({ where: { id: purchase.userId }, data: { subscriptionExpiryDate: until } });
    }
    if (purchase.user) {
      const facts = { planId: planIdOf(purchase.planId), paymentType: "monthly" as const, number, count: purchase.instalmentCount, amount: expected, paymentRef: invoice.id, nextDueAt: purchase.status === "active" ? nextDueAt : null };
      await queueReceipt(tx, purchase.user, facts);
    }
    return true;
  });
  if (!moved) return { handled: "instalment raced" };
  return { handled: finished ? "plan completed" : "instalment recorded" };
}

/**
 * The first invoice of a subscription no purchase holds (yet): the one a Checkout page made (before its
 * session is completed here), or the card form's, replaced by a Checkout page. Found through the plan payment
 * in its metadata (signed by Stripe); the session, or the replaced payment, decides: granted once, or refunded.
 */
async function firstInvoiceOfOtherSubscription(invoice: InvoiceFacts, now: Date): Promise<PlanWebhookOutcome | null> {
  if (invoice.billingReason !== "subscription_create" || invoice.metadata.kind !== "plan" || !invoice.metadata.planPaymentId) return null;
  const row = await prisma().planPayment.findUnique({ where: { id: invoice.metadata.planPaymentId.slice(0, 255) }, include: { purchase: { select: { replacedSubscriptionId: true } } } });
  if (!row) return null;
  let result: CompletePlanResult;
  if (row.purchase.replacedSubscriptionId === invoice.subscriptionId && row.replacedPaymentId) result = await completePlanPayment(row.replacedPaymentId, { now });
  else if (row.checkoutSessionId) result = await completePlanSession(row.checkoutSessionId, { now });
  else return { handled: "plan not-found" };
  return webhookOutcome(result);
}

function webhookOutcome(result: CompletePlanResult): PlanWebhookOutcome {
  if (!result.ok && result.reason === "provider") return { retry: result.message };
  if (!result.ok && result.reason === "refunded") return result.message === SUBSCRIPTION_MESSAGES.replacedPaymentRefunded ? { handled: "replaced payment refunded" } : { retry: result.message };
  if (result.ok && result.secondPayment) return result.secondPayment.refunded ? { handled: "second payment refunded" } : { retry: result.secondPayment.message };
  return { handled: result.ok ? (result.alreadyDone ? "plan already granted" : "plan granted") : `plan ${result.reason}` };
}

async function invoiceFailed(invoice: InvoiceFacts, now: Date): Promise<PlanWebhookOutcome | null> {
  const purchase = await purchaseOfInvoice(invoice);
  if (!purchase) return null;
  // The first invoice is paid on the payment screen, which shows the card's error there and then.
  if (invoice.billingReason === "subscription_create" || purchase.status !== "active") return { handled: "instalment failure ignored" };
  const number = purchase.instalmentsPaid + 1;
  const amount = purchaseAmounts(purchase)[number - 1] ?? invoice.amountDue;
  const dueAt = purchase.nextDueAt ?? now;
  const message = "Your card was declined.";
  // Stripe retries a failed invoice and sends this event each time: the member is emailed for the first only
  // (the row is created once; the unique purchase/number pair decides a race). The grace period runs from
  // the due date: the expiry the last paid instalment set is left as it is.
  const created = await prisma().planPayment.createMany({ data: [{ purchaseId: purchase.id, number, amount, dueAt, status: "failed", attempts: 1, lastError: message }], skipDuplicates: true });
  if (!created.count) {
    await prisma().planPayment.updateMany({ where: { purchaseId: purchase.id, number, status: { not: "succeeded" } }, data: { status: "failed", attempts: { increment: 1 }, lastError: message } });
    return { handled: "instalment failed again" };
  }
  if (purchase.user) {
    await queueMail(prisma(), {
      to: purchase.user.email,
      kind: "instalment-missed",
      data: { userId: purchase.user.id, firstName: purchase.user.firstName, planId: purchase.planId, amount, number, count: purchase.instalmentCount, accessUntil: graceAfter(dueAt).toISOString() },
    });
  }
  return { handled: "instalment failed" };
}

// ───────────────────────────── cancelling ─────────────────────────────

export type CancelResult = { ok: true; accessUntil: Date | null; message: string } | { ok: false; reason: "nothing" | "paid-in-full" | "provider"; message: string };

/**
 * Cancel Subscription, for real: future instalments stop; access stays until the end of the month paid
 * for (no grace), then the free plan's rules apply. A plan paid in full has nothing to cancel.
 */
export async function cancelPlan(user: Member, now = new Date(), options: { provider?: PaymentProvider } = {}): Promise<CancelResult> {
  const current = await getSubscription(user, now);
  const purchase = current.purchase;
  if (current.planId === "free" || !purchase) return { ok: false, reason: "nothing", message: SUBSCRIPTION_MESSAGES.nothingToCancel };
  if (purchase.status === "completed") return { ok: false, reason: "paid-in-full", message: SUBSCRIPTION_MESSAGES.paidInFull };
  if (purchase.status === "cancelled") return { ok: true, accessUntil: user.subscriptionExpiryDate, message: cancelledMessage(user.subscriptionExpiryDate) };
  const accessUntil = purchase.nextDueAt && purchase.nextDueAt > now ? purchase.nextDueAt : now;
  const { stripeSubscriptionId } = await prisma().planPurchase.findUniqueOrThrow({ where: { id: purchase.id }, select: { stripeSubscriptionId: true } });
  if (stripeSubscriptionId) {
    // Stripe is told first: if it cannot be reached, nothing changes here and the member may try again.
    const provider = options.provider ?? getPaymentProvider();
    try {
      if (!provider.cancelInstalmentPlan) throw new PaymentProviderError("Stripe is not configured to cancel a Stripe subscription");
      await provider.cancelInstalmentPlan(stripeSubscriptionId, { idempotencyKey: `plan-cancel:${purchase.id}` });
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      console.error(error.message);
      return { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.cancelFailed };
    }
  }
  await prisma().$transaction(async (tx: Db) => {
    const moved = await tx.planPurchase.updateMany({ where: { id: purchase.id, status: "active" }, data: { status: "cancelled", cancelledAt: now, retryAt: null } });
    if (!moved.count) return;
    await tx.user.update({ where: { id: user.id }, data: { subscriptionExpiryDate: accessUntil } });
    await queueMail(tx, { to: user.email, kind: "plan-cancelled", data: { userId: user.id, firstName: user.firstName, planId: purchase.planId, accessUntil: accessUntil.toISOString() } });
  });
  return { ok: true, accessUntil, message: cancelledMessage(accessUntil) };
}

export type ResumeResult = { ok: true; message: string } | { ok: false; reason: "nothing" | "ended" | "provider"; message: string };

/**
 * Resume payments (issue 24 §3): a cancelled monthly plan whose paid month has not run out takes up its
 * instalments again where they stopped, with its grace period back. With Stripe, the subscription stops
 * ending at the period's end and is put back on the schedule of the instalments that are left (the current,
 * paid month first); Stripe is asked first, so if it cannot be reached nothing changes here.
 */
export async function resumePlan(user: Member, now = new Date(), options: { provider?: PaymentProvider } = {}): Promise<ResumeResult> {
  const current = await getSubscription(user, now);
  const view = current.purchase;
  if (!view || view.status !== "cancelled") return { ok: false, reason: "nothing", message: SUBSCRIPTION_MESSAGES.nothingToResume };
  const purchase = await prisma().planPurchase.findUniqueOrThrow({ where: { id: view.id } });
  if (current.planId === "free" || !purchase.nextDueAt || purchase.nextDueAt <= now) return { ok: false, reason: "ended", message: SUBSCRIPTION_MESSAGES.resumeEnded };
  const planId = planIdOf(purchase.planId);
  const amounts = purchaseAmounts(purchase);
  if (purchase.stripeSubscriptionId) {
    const provider = options.provider ?? getPaymentProvider();
    try {
      if (!provider.resumeInstalmentPlan) throw new PaymentProviderError("Stripe is not configured to resume a Stripe subscription");
      await provider.resumeInstalmentPlan(purchase.stripeSubscriptionId, {
        currency: "gbp",
        idempotencyKey: `plan-resume:${purchase.id}:${purchase.cancelledAt?.getTime() ?? 0}`,
        product: planProduct(planId),
        phases: instalmentPhases(amounts.slice(Math.max(0, purchase.instalmentsPaid - 1))),
        metadata: { kind: "plan", userId: user.id, planId, paymentType: "monthly", purchaseId: purchase.id },
      });
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      console.error(error.message);
      return { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.resumeFailed };
    }
  }
  const nextDueAt = purchase.nextDueAt;
  const amount = amounts[purchase.instalmentsPaid] ?? 0;
  await prisma().$transaction(async (tx: Db) => {
    const moved = await tx.planPurchase.updateMany({ where: { id: purchase.id, status: "cancelled" }, data: { status: "active", cancelledAt: null, retryAt: null } });
    if (!moved.count) return;
    await tx.user.update({ where: { id: user.id }, data: { subscriptionExpiryDate: graceAfter(nextDueAt) } });
    await queueMail(tx, {
      to: user.email,
      kind: "plan-resumed",
      data: { userId: user.id, firstName: user.firstName, planId, amount, number: purchase.instalmentsPaid + 1, count: purchase.instalmentCount, nextDueAt: nextDueAt.toISOString() },
    });
  });
  return { ok: true, message: SUBSCRIPTION_MESSAGES.resumed(`${purchase.instalmentsPaid + 1} of ${purchase.instalmentCount}`, formatPence(amount), formatLongDate(nextDueAt)) };
}

function cancelledMessage(until: Date | null) {
  return until ? `No more payments will be taken. Your plan stays active until ${formatLongDate(until)}.` : "No more payments will be taken.";
}

// ───────────────────────────── the endowment fund ─────────────────────────────

/** The fund's figure: 15% of every completed Forever and Forever Plus payment, in pence. */
export async function endowmentFund(): Promise<{ pence: number; payments: number }> {
  // Net of what was given back: a payment refunded whole reads "refunded", not succeeded; the part of a
  // payment above the plan's price by then is an "excess" refund of a succeeded one.
  const [sum, excess] = await Promise.all([
    prisma().planPayment.aggregate({ where: { status: "succeeded" }, _sum: { amount: true }, _count: { _all: true } }),
    prisma().planRefund.aggregate({ where: { reason: "excess" }, _sum: { amount: true } }),
  ]);
  const kept = (sum._sum.amount ?? 0) - (excess._sum.amount ?? 0);
  return { pence: Math.floor((kept * ENDOWMENT_PERCENT) / 100), payments: sum._count._all };
}

/** Whether a provider payment id is one of the plans' (the test provider's Pay call serves the shop too). */
export async function isPlanPayment(paymentId: string) {
  if (!paymentId || paymentId.length > 255) return false;
  return !!(await prisma().planPayment.findUnique({ where: { paymentId }, select: { id: true } }));
}
