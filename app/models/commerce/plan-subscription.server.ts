import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { queryRows, sqlQuery } from "~/services/sql-statements.server";
import {
  ENDOWMENT_PERCENT,
  INSTALMENT_GRACE_DAYS,
  instalments,
  isPaidPlan,
  planCredit,
  PLAN_ORDER,
  PLANS,
  type PaymentType,
  type PlanHolding,
  type PlanId,
  SUBSCRIPTION_MESSAGES,
} from "~/utils/plans";
import { queueMail } from "../mail/outbox.server";

// Permanence plans paid for real: what a member holds and what moving to a plan costs them. The stages of a plan's
// money each have their own file beside this one: plan-checkout (starting a payment), plan-completion
// (granting the plan), plan-refunds, plan-instalments (monthly payments, cancelling, resuming), and
// payment-webhooks (Stripe's signed events, dispatched to the others).

export type Member = { id: string; email: string; firstName: string; subscriptionPlan: string; subscriptionExpiryDate: Date | null };
export type Db = Prisma.TransactionClient | ReturnType<typeof prisma>;

export const DAY_MS = 86_400_000;

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

export const graceAfter = (due: Date) => new Date(due.getTime() + INSTALMENT_GRACE_DAYS * DAY_MS);

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

export function planIdOf(value: string | null | undefined): PlanId {
  return value === "forever" || value === "forever_plus" ? value : "free";
}

/** The member's plan now, and the purchase behind it (the newest that granted anything). */
export async function getSubscription(user: Member, now = new Date()): Promise<SubscriptionView> {
  return subscriptionOf(prisma(), user, now);
}

export async function subscriptionOf(db: Db, user: Pick<Member, "id" | "subscriptionPlan" | "subscriptionExpiryDate">, now: Date): Promise<SubscriptionView> {
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
export function purchaseAmounts(purchase: {
  planId: string;
  paymentType: string;
  instalmentCount: number;
  payments?: { number: number; amount: number }[];
}): number[] {
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

export function holdingOf(subscription: SubscriptionView): PlanHolding {
  const { purchase } = subscription;
  return {
    planId: subscription.planId,
    purchase: purchase && subscription.planId !== "free" ? { planId: purchase.planId, paymentType: purchase.paymentType, paidPence: purchase.paidPence } : null,
  };
}

function offerFrom(holding: PlanHolding, planId: PlanId): PlanOffer | { refused: string } {
  if (planId === "free") return { refused: SUBSCRIPTION_MESSAGES.downgrade };
  if (holding.planId === planId) return { refused: SUBSCRIPTION_MESSAGES.alreadyOnPlan };
  if (holding.planId === "forever_plus") return { refused: SUBSCRIPTION_MESSAGES.downgrade };
  const credit = planCredit(holding);
  const pricePence = PLANS[planId].pricePence - credit;
  return { planId, pricePence, credit, monthly: holding.planId === "free" && !!PLANS[planId].monthlyPayments };
}

export const planProduct = (planId: PlanId) => ({ id: `everlight_plan_${planId}`, name: `Everlight ${PLANS[planId].name}` });

type ReceiptFacts = { planId: PlanId; paymentType: PaymentType; number: number; count: number; amount: number; paymentRef: string; nextDueAt: Date | null };

/** Every plan payment taken is receipted by email, queued in the transaction that records it. */
export async function queueReceipt(db: Db, member: { id: string; email: string; firstName: string }, facts: ReceiptFacts) {
  await queueMail(db, {
    to: member.email,
    kind: "plan-receipt",
    data: { userId: member.id, firstName: member.firstName, ...facts, nextDueAt: facts.nextDueAt?.toISOString() ?? null, paidAt: new Date().toISOString() },
  });
}

// ───────────────────────────── the endowment fund ─────────────────────────────

export type EndowmentYear = { year: number; payments: number; takenPence: number; givenBackPence: number; fundPence: number };
export type EndowmentReport = { years: EndowmentYear[]; pence: number; payments: number; takenPence: number; givenBackPence: number };

const takenByYear = sqlQuery({
  name: "plans.takenByYear",
  columns: { year: "int4", payments: "int4", pence: "int8" },
  sql: () => Prisma.sql`
      SELECT extract(year FROM coalesce("paidAt", "updatedAt"))::int AS "year", count(*)::int AS "payments", sum("amount")::bigint AS "pence"
        FROM "plan_payments" WHERE "status" = 'succeeded' GROUP BY 1`,
});

const givenBackByYear = sqlQuery({
  name: "plans.givenBackByYear",
  columns: { year: "int4", pence: "int8" },
  sql: () => Prisma.sql`
      SELECT extract(year FROM "createdAt")::int AS "year", sum("amount")::bigint AS "pence"
        FROM "plan_refunds" WHERE "reason" = 'excess' GROUP BY 1`,
});

/**
 * The endowment fund's public report, from the plan payments themselves: per calendar year
 * (UTC) of payment, what the plans took and gave back, and the fund's share of the rest; the total is the
 * sum of the years. Net of what was given back: a payment refunded whole reads "refunded", not succeeded;
 * the part of a payment above the plan's price by then is an "excess" refund of a succeeded one, counted in
 * the year it was given back. One grouped query each, whatever the number of payments.
 */
export async function endowmentReport(): Promise<EndowmentReport> {
  const [taken, givenBack] = await Promise.all([queryRows(prisma(), takenByYear()), queryRows(prisma(), givenBackByYear())]);
  const byYear = new Map<number, EndowmentYear>();
  const yearOf = (year: number) => byYear.get(year) ?? byYear.set(year, { year, payments: 0, takenPence: 0, givenBackPence: 0, fundPence: 0 }).get(year)!;
  for (const row of taken) Object.assign(yearOf(row.year), { payments: row.payments, takenPence: Number(row.pence) });
  for (const row of givenBack) yearOf(row.year).givenBackPence = Number(row.pence);
  const years = [...byYear.values()].sort((a, b) => b.year - a.year);
  for (const year of years) year.fundPence = Math.floor(((year.takenPence - year.givenBackPence) * ENDOWMENT_PERCENT) / 100);
  const sum = (pick: (y: EndowmentYear) => number) => years.reduce((total, year) => total + pick(year), 0);
  return {
    years,
    pence: sum((y) => y.fundPence),
    payments: sum((y) => y.payments),
    takenPence: sum((y) => y.takenPence),
    givenBackPence: sum((y) => y.givenBackPence),
  };
}

/** The fund today, as the policy on the plan page states it. */
export async function endowmentFund(): Promise<{ pence: number; payments: number }> {
  const { pence, payments } = await endowmentReport();
  return { pence, payments };
}

/** Whether a provider payment id is one of the plans' (the test provider's Pay call serves the shop too). */
export async function isPlanPayment(paymentId: string) {
  if (!paymentId || paymentId.length > 255) return false;
  return !!(await prisma().planPayment.findUnique({ where: { paymentId }, select: { id: true } }));
}
