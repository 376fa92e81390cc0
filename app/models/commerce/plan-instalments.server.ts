import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { getPaymentProvider } from "~/services/payments.server";
import { askProvider, PaymentProviderError, type InvoiceFacts, type PaymentProvider } from "~/services/payments/provider.server";
import { formatLongDate } from "~/utils/dates";
import { formatPence } from "~/utils/money";
import { INSTALMENT_RETRY_DAYS, isPaidPlan, PLANS, SUBSCRIPTION_MESSAGES } from "~/utils/plans";
import { queueMail } from "../mail/outbox.server";
import {
  addMonths,
  DAY_MS,
  getSubscription,
  graceAfter,
  instalmentPhases,
  planIdOf,
  planProduct,
  purchaseAmounts,
  queueReceipt,
  type Db,
  type Member,
} from "./plan-subscription.server";

// Monthly payments. The rules:
// - Monthly means instalments: access runs to the next due date plus a grace period; the worker
//   (an interval in server/app.ts) charges each one when due. A missed one is retried, the member is
//   emailed, and when the grace period ends new memorials and vault uploads are refused (the plan's
//   expiry passes). Nothing already there is deleted or hidden.
// - Cancelling stops future instalments and keeps access to the end of the period paid for.
// Stripe charges its own instalments; what its webhooks report is recorded here too (payment-webhooks.server.ts).

// ───────────────────────────── instalments ─────────────────────────────

type ReceiptedPurchase = { planId: string; instalmentCount: number; user: { id: string; email: string; firstName: string } | null };

/** An instalment taken, receipted to its member (when the plan still has one) in the transaction that records it. */
async function receiptInstalment(tx: Db, purchase: ReceiptedPurchase, paid: { number: number; amount: number; paymentRef: string; nextDueAt: Date | null }) {
  if (!purchase.user) return;
  await queueReceipt(tx, purchase.user, { planId: planIdOf(purchase.planId), paymentType: "monthly", count: purchase.instalmentCount, ...paid });
}

export type InstalmentReport = { charged: number; failed: number; completed: number; lapsed: number };

/**
 * The worker's round (an interval in server/app.ts; tests pass the clock): every active monthly purchase
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
    const lapsed = await prisma().planPurchase.updateMany({
      where: { id: purchase.id, status: "active", instalmentsPaid: purchase.instalmentsPaid },
      data: { status: "lapsed", retryAt: null },
    });
    if (lapsed.count && purchase.user) await queueLapsedMail(prisma(), purchase.user, purchase.planId);
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
      await tx.planPayment.update({
        where: { id: row.id },
        data: { status: "succeeded", paidAt: now, paymentId: payment.id, attempts: attempt, lastError: null },
      });
      if (purchase.userId) await tx.user.update({ where: { id: purchase.userId }, data: { subscriptionExpiryDate: finished ? null : graceAfter(nextDueAt!) } });
      await receiptInstalment(tx, purchase, { number, amount, paymentRef: payment.id, nextDueAt });
      return true;
    });
    if (!ok) return "charged";
    return finished ? "completed" : "charged";
  }
  const message = "Your card was declined.";
  await prisma().planPayment.update({ where: { id: row.id }, data: { status: "failed", attempts: attempt, lastError: message } });
  // Tried again in a few days, and at the latest when the grace period ends (then it lapses).
  await prisma().planPurchase.updateMany({
    where: { id: purchase.id, status: "active" },
    data: { retryAt: new Date(Math.min(now.getTime() + INSTALMENT_RETRY_DAYS * DAY_MS, graceAfter(dueAt).getTime())) },
  });
  if (attempt === 1 && purchase.user) {
    await queueInstalmentMissed(purchase, purchase.user, { amount, number, dueAt });
  }
  return "failed";
}

// ───────────────────────────── what Stripe's webhooks report ─────────────────────────────

/** The purchase a Stripe subscription's invoice belongs to, with its member and first payment. */
export async function purchaseOfInvoice(invoice: InvoiceFacts) {
  return prisma().planPurchase.findUnique({
    where: { stripeSubscriptionId: invoice.subscriptionId },
    include: { user: { select: { id: true, email: true, firstName: true } }, payments: { where: { number: 1 } } },
  });
}

export type InvoicePurchase = NonNullable<Awaited<ReturnType<typeof purchaseOfInvoice>>>;

/** invoice.paid for an instalment after the first, which Stripe took itself: counted once, with its receipt. */
export async function recordPaidInstalment(purchase: InvoicePurchase, invoice: InvoiceFacts, now: Date): Promise<{ handled: string }> {
  // The invoice id is the plan payment's provider id: a replayed or second event for the same invoice
  // finds it taken and changes nothing.
  if (await prisma().planPayment.findUnique({ where: { paymentId: invoice.id }, select: { id: true } })) return { handled: "instalment already recorded" };
  if (purchase.status !== "active" && purchase.status !== "cancelled") return { handled: `instalment ignored (plan ${purchase.status})` };
  const number = purchase.instalmentsPaid + 1;
  const expected = purchaseAmounts(purchase)[number - 1];
  if (expected === undefined || invoice.amountPaid !== expected || invoice.currency.toLowerCase() !== "gbp") {
    console.error(
      `Stripe invoice ${invoice.id} paid ${invoice.amountPaid} ${invoice.currency} for instalment ${number} of purchase ${purchase.id}, expected ${expected}: not counted`,
    );
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
      create: {
        purchaseId: purchase.id,
        number,
        amount: expected,
        dueAt,
        status: "succeeded",
        paidAt: now,
        paymentId: invoice.id,
        attempts: Math.max(1, invoice.attemptCount),
      },
      update: { status: "succeeded", paidAt: now, paymentId: invoice.id, attempts: Math.max(1, invoice.attemptCount), lastError: null },
    });
    // As chargeInstalment does for the built-in provider: access to the next due date plus the grace period.
    // A cancelled plan whose invoice Stripe took before it heard of the cancelling: the month paid for, no grace.
    if (purchase.userId) {
      const until = finished ? null : purchase.status === "active" ? graceAfter(nextDueAt!) : nextDueAt;
      await tx.user.update({ where: { id: purchase.userId }, data: { subscriptionExpiryDate: until } });
    }
    await receiptInstalment(tx, purchase, { number, amount: expected, paymentRef: invoice.id, nextDueAt: purchase.status === "active" ? nextDueAt : null });
    return true;
  });
  if (!moved) return { handled: "instalment raced" };
  return { handled: finished ? "plan completed" : "instalment recorded" };
}

/** customer.subscription.deleted for a plan's subscription. */
export async function lapseEndedSubscription(subscriptionId: string): Promise<{ handled: string } | null> {
  const purchase = await prisma().planPurchase.findUnique({
    where: { stripeSubscriptionId: subscriptionId },
    include: { user: { select: { id: true, email: true, firstName: true } } },
  });
  if (!purchase) return null;
  // Stripe stopped trying (or the last period of a cancelled plan ended): no more instalments. Access
  // already ends with the expiry date the last paid instalment set; nothing is deleted. The member is
  // told once, as with the built-in round (a cancelled plan's end is told by noticeEndedPlans).
  const lapsed = await prisma().$transaction(async (tx: Db) => {
    const moved = await tx.planPurchase.updateMany({ where: { id: purchase.id, status: "active" }, data: { status: "lapsed", retryAt: null } });
    if (moved.count && purchase.user) await queueLapsedMail(tx, purchase.user, purchase.planId);
    return moved.count > 0;
  });
  return { handled: lapsed ? "plan lapsed" : "plan unchanged" };
}

function queueLapsedMail(db: Db, user: { id: string; email: string; firstName: string }, planId: string) {
  return queueMail(db, { to: user.email, kind: "plan-lapsed", data: { userId: user.id, firstName: user.firstName, planId } });
}

/**
 * The round's other half: a cancelled plan whose paid time has run out is told to its
 * member once: nothing was deleted, what now waits for a plan. Claimed by a conditional update, so two
 * instances (or a round that catches up after downtime) send it once.
 */
export async function noticeEndedPlans(now = new Date(), batch = 50): Promise<number> {
  const ended = await prisma().planPurchase.findMany({
    where: { status: "cancelled", endedNoticeAt: null, nextDueAt: { lte: now } },
    orderBy: { nextDueAt: "asc" },
    take: batch,
    include: { user: { select: { id: true, email: true, firstName: true, subscriptionPlan: true, subscriptionExpiryDate: true } } },
  });
  let told = 0;
  for (const purchase of ended) {
    // A member whose access runs on (a newer plan) is not told that this one ended; it is marked all the
    // same, so that it never stands in the way of the ones after it.
    const user = purchase.user;
    const tell = !!user && !isPaidPlan(user.subscriptionPlan, user.subscriptionExpiryDate, now);
    told += await prisma().$transaction(async (tx: Db) => {
      const claimed = await tx.planPurchase.updateMany({ where: { id: purchase.id, status: "cancelled", endedNoticeAt: null }, data: { endedNoticeAt: now } });
      if (!claimed.count || !tell) return 0;
      await queueMail(tx, { to: user.email, kind: "plan-ended", data: { userId: user.id, firstName: user.firstName, planId: purchase.planId } });
      return 1;
    });
  }
  return told;
}

/** invoice.payment_failed: a later instalment Stripe could not take; the member is emailed once. */
export async function recordFailedInstalment(invoice: InvoiceFacts, now: Date): Promise<{ handled: string } | null> {
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
  const created = await prisma().planPayment.createMany({
    data: [{ purchaseId: purchase.id, number, amount, dueAt, status: "failed", attempts: 1, lastError: message }],
    skipDuplicates: true,
  });
  if (!created.count) {
    await prisma().planPayment.updateMany({
      where: { purchaseId: purchase.id, number, status: { not: "succeeded" } },
      data: { status: "failed", attempts: { increment: 1 }, lastError: message },
    });
    return { handled: "instalment failed again" };
  }
  if (purchase.user) {
    await queueInstalmentMissed(purchase, purchase.user, { amount, number, dueAt });
  }
  return { handled: "instalment failed" };
}

// ───────────────────────────── cancelling ─────────────────────────────

export type CancelResult =
  { ok: true; accessUntil: Date | null; message: string } | { ok: false; reason: "nothing" | "paid-in-full" | "provider"; message: string };

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
  const row = await prisma().planPurchase.findUniqueOrThrow({ where: { id: purchase.id } });
  const { stripeSubscriptionId } = row;
  if (stripeSubscriptionId) {
    // Stripe is told first: if it cannot be reached, nothing changes here and the member may try again.
    const provider = options.provider ?? getPaymentProvider();
    const told = await askProvider(async () => {
      if (!provider.cancelInstalmentPlan) throw new PaymentProviderError("Stripe is not configured to cancel a Stripe subscription");
      await provider.cancelInstalmentPlan(stripeSubscriptionId, { idempotencyKey: `plan-cancel:${purchase.id}` });
    });
    if (!told.ok) return { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.cancelFailed };
  }
  await prisma().$transaction(async (tx: Db) => {
    const moved = await tx.planPurchase.updateMany({
      where: { id: purchase.id, status: "active" },
      data: { status: "cancelled", cancelledAt: now, retryAt: null },
    });
    if (!moved.count) return;
    await tx.user.update({ where: { id: user.id }, data: { subscriptionExpiryDate: accessUntil } });
    await queueMail(tx, {
      to: user.email,
      kind: "plan-cancelled",
      data: {
        userId: user.id,
        firstName: user.firstName,
        planId: purchase.planId,
        accessUntil: accessUntil.toISOString(),
        purchaseRef: purchase.id,
        ...paidSoFar(row),
      },
    });
  });
  return { ok: true, accessUntil, message: cancelledMessage(accessUntil) };
}

export type ResumeResult = { ok: true; message: string } | { ok: false; reason: "nothing" | "ended" | "provider"; message: string };

/**
 * Resume payments: a cancelled monthly plan whose paid month has not run out takes up its
 * instalments again where they stopped, with its grace period back. With Stripe, the subscription stops
 * ending at the period's end and is put back on the schedule of the instalments that are left (the current,
 * paid month first); Stripe is asked first, so if it cannot be reached nothing changes here.
 */
export async function resumePlan(user: Member, now = new Date(), options: { provider?: PaymentProvider } = {}): Promise<ResumeResult> {
  const current = await getSubscription(user, now);
  const view = current.purchase;
  if (!view || view.status !== "cancelled") return { ok: false, reason: "nothing", message: SUBSCRIPTION_MESSAGES.nothingToResume };
  const purchase = await prisma().planPurchase.findUniqueOrThrow({ where: { id: view.id } });
  if (current.planId === "free" || !purchase.nextDueAt || purchase.nextDueAt <= now)
    return { ok: false, reason: "ended", message: SUBSCRIPTION_MESSAGES.resumeEnded };
  const planId = planIdOf(purchase.planId);
  const amounts = purchaseAmounts(purchase);
  if (purchase.stripeSubscriptionId) {
    const provider = options.provider ?? getPaymentProvider();
    const subscriptionId = purchase.stripeSubscriptionId;
    const told = await askProvider(async () => {
      if (!provider.resumeInstalmentPlan) throw new PaymentProviderError("Stripe is not configured to resume a Stripe subscription");
      await provider.resumeInstalmentPlan(subscriptionId, {
        currency: "gbp",
        idempotencyKey: `plan-resume:${purchase.id}:${purchase.cancelledAt?.getTime() ?? 0}`,
        product: planProduct(planId),
        phases: instalmentPhases(amounts.slice(Math.max(0, purchase.instalmentsPaid - 1))),
        metadata: { kind: "plan", userId: user.id, planId, paymentType: "monthly", purchaseId: purchase.id },
      });
    });
    if (!told.ok) return { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.resumeFailed };
  }
  const nextDueAt = purchase.nextDueAt;
  const amount = amounts[purchase.instalmentsPaid] ?? 0;
  await prisma().$transaction(async (tx: Db) => {
    const moved = await tx.planPurchase.updateMany({
      where: { id: purchase.id, status: "cancelled" },
      data: { status: "active", cancelledAt: null, retryAt: null },
    });
    if (!moved.count) return;
    await tx.user.update({ where: { id: user.id }, data: { subscriptionExpiryDate: graceAfter(nextDueAt) } });
    await queueMail(tx, {
      to: user.email,
      kind: "plan-resumed",
      data: {
        userId: user.id,
        firstName: user.firstName,
        planId,
        amount,
        number: purchase.instalmentsPaid + 1,
        count: purchase.instalmentCount,
        nextDueAt: nextDueAt.toISOString(),
        purchaseRef: purchase.id,
        ...paidSoFar(purchase),
      },
    });
  });
  return {
    ok: true,
    message: SUBSCRIPTION_MESSAGES.resumed(`${purchase.instalmentsPaid + 1} of ${purchase.instalmentCount}`, formatPence(amount), formatLongDate(nextDueAt)),
  };
}

function cancelledMessage(until: Date | null) {
  return until ? `No more payments will be taken. Your plan stays active until ${formatLongDate(until)}.` : "No more payments will be taken.";
}

/** "An instalment was missed": the member is told once, with the date their access runs to. */
function queueInstalmentMissed(
  purchase: { planId: string; instalmentCount: number },
  user: { id: string; email: string; firstName: string },
  { amount, number, dueAt }: { amount: number; number: number; dueAt: Date },
) {
  return queueMail(prisma(), {
    to: user.email,
    kind: "instalment-missed",
    data: {
      userId: user.id,
      firstName: user.firstName,
      planId: purchase.planId,
      amount,
      number,
      count: purchase.instalmentCount,
      accessUntil: graceAfter(dueAt).toISOString(),
    },
  });
}

/** What a monthly plan has taken so far and what is left of its price, for the cancel and resume emails. */
function paidSoFar(purchase: { planId: string; paymentType: string; instalmentCount: number; instalmentsPaid: number }) {
  const amounts = purchaseAmounts(purchase);
  const paid = amounts.slice(0, purchase.instalmentsPaid).reduce((sum, amount) => sum + amount, 0);
  const total = amounts.reduce((sum, amount) => sum + amount, 0);
  return { paid, left: total - paid, paidCount: purchase.instalmentsPaid };
}
