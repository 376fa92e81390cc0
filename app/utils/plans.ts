import { formatPence } from "./money";

// The plans, their prices and limits, in one place: the subscription screen, the memorial limit, Help
// and the Terms all read
// them from here. Prices are integer pence.

export type PlanId = "free" | "forever" | "forever_plus";

export type Plan = {
  id: PlanId;
  name: string;
  /** The whole price in pence (0 for Free). */
  pricePence: number;
  /** Memorials a member on this plan may hold; null for unlimited. */
  memorialLimit: number | null;
  /** Whether the plan opens the encrypted vault: Forever Plus only (README). */
  vault: boolean;
  /** Paying in monthly instalments instead of at once (see instalments()). */
  monthlyPayments: number | null;
  badge: string | null;
  popular: boolean;
  description: string;
};

/** The free plan holds at most 25 memorials. */
export const FREE_MEMORIAL_LIMIT = 25;

/** 15% of each Forever and Forever Plus purchase goes to the endowment fund. */
export const ENDOWMENT_PERCENT = 15;

export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: "free",
    name: "Free",
    pricePence: 0,
    memorialLimit: FREE_MEMORIAL_LIMIT,
    vault: false,
    monthlyPayments: null,
    badge: null,
    popular: false,
    description: "Everything you need to create and share memorials.",
  },
  forever: {
    id: "forever",
    name: "Forever",
    pricePence: 27_900,
    memorialLimit: null,
    vault: false,
    monthlyPayments: 36,
    badge: "Best Value",
    popular: false,
    description: "Unlimited memorials, kept for the long term by the endowment fund.",
  },
  forever_plus: {
    id: "forever_plus",
    name: "Forever Plus (with Vault)",
    pricePence: 42_900,
    memorialLimit: null,
    vault: true,
    monthlyPayments: 36,
    badge: "Most Complete",
    popular: true,
    description: "For a family's documents as well as its memories.",
  },
};

export const PLAN_ORDER: PlanId[] = ["free", "forever", "forever_plus"];

/**
 * The monthly instalments of a plan, in pence, adding up to exactly its price: each is the price divided
 * by the number of payments rounded up to the penny, and the last is what is left. Forever is 36 × £7.75
 * = £279.00. Forever Plus would be 36 × £11.92 = £429.12, so it is 35 × £11.92 and a last payment of £11.80.
 */
export function instalments(plan: Plan): number[] {
  if (!plan.monthlyPayments || plan.pricePence === 0) return [];
  const count = plan.monthlyPayments;
  const regular = Math.ceil(plan.pricePence / count);
  return [...Array.from({ length: count - 1 }, () => regular), plan.pricePence - regular * (count - 1)];
}

/** "36 monthly payments of £7.75", or "36 monthly payments of £11.92 (the last £11.80)". */
export function describeInstalments(plan: Plan): string {
  const amounts = instalments(plan);
  if (amounts.length === 0) return "";
  const [regular] = amounts;
  const last = amounts[amounts.length - 1];
  const base = `${amounts.length} monthly payments of ${formatPence(regular)}`;
  return last === regular ? base : `${base} (the last ${formatPence(last)})`;
}

/** The plan's price in words: "Free", or "£279.00 one-time, or 36 monthly payments of £7.75". */
export function describePrice(plan: Plan): string {
  if (plan.pricePence === 0) return "Free";
  const monthly = describeInstalments(plan);
  return `${formatPence(plan.pricePence)} one-time${monthly ? `, or ${monthly}` : ""}`;
}

/** What a member holds when a payment completes: the plan in force and the purchase behind it. */
export type PlanHolding = { planId: PlanId; purchase: { planId: PlanId; paymentType: PaymentType; paidPence: number } | null };

/**
 * What moving to a plan is worth from what the member holds: Forever paid for (in full or in part) counts
 * towards Forever Plus. Only the plan in force counts: an ended plan is no credit.
 */
export function planCredit(holding: PlanHolding): number {
  return holding.planId === "forever" && holding.purchase?.planId === "forever" ? holding.purchase.paidPence : 0;
}

const rank = (planId: PlanId) => PLAN_ORDER.indexOf(planId);

/** Why a payment that completed grants nothing (it is refunded whole). */
export type OvertakenReason = "downgrade" | "same-plan" | "monthly-after-paid" | "price-changed";

export type PaymentVerdict = { grant: true; excessPence: number } | { grant: false; reason: OvertakenReason };

/**
 * The one rule for a plan payment that has just succeeded: it is honoured only if it still
 * improves what the member holds at that moment. Never a downgrade, never the same plan twice, never
 * monthly instalments on top of a paid plan; a full payment above what the plan now costs this member
 * (Forever paid in another tab meanwhile) grants the plan and the difference is given back.
 */
export function judgePlanPayment(holding: PlanHolding, payment: { planId: PlanId; paymentType: PaymentType; amountPence: number }): PaymentVerdict {
  if (rank(payment.planId) < rank(holding.planId)) return { grant: false, reason: "downgrade" };
  if (payment.planId === holding.planId) return { grant: false, reason: "same-plan" };
  if (payment.paymentType === "monthly") return holding.planId === "free" ? { grant: true, excessPence: 0 } : { grant: false, reason: "monthly-after-paid" };
  const price = PLANS[payment.planId].pricePence - planCredit(holding);
  if (payment.amountPence < price) return { grant: false, reason: "price-changed" };
  return { grant: true, excessPence: payment.amountPence - price };
}

export const MEMORIAL_LIMIT_TITLE = "Memorial limit reached";
export const MEMORIAL_LIMIT_MESSAGE = `You've reached the ${FREE_MEMORIAL_LIMIT} memorial limit for free users. Please subscribe to create unlimited memorials.`;
/** The redirect to the plans waits 2000 ms (with JavaScript), long enough to read why. */
export const LIMIT_REDIRECT_DELAY_MS = 2000;

/** Where "See plans" leads. */
export const PLANS_HREF = "/subscription";

export function isPaidPlan(plan: string | null | undefined, expiry?: Date | null, now = new Date()) {
  if (!plan || plan === "free") return false;
  return !expiry || expiry.getTime() > now.getTime();
}

/** Whether this member may not create another memorial: a free plan already holding the limit. */
export function atFreeMemorialLimit(owner: { subscriptionPlan: string | null; subscriptionExpiryDate: Date | null }, owned: number, now = new Date()) {
  return !isPaidPlan(owner.subscriptionPlan, owner.subscriptionExpiryDate, now) && owned >= FREE_MEMORIAL_LIMIT;
}

export type PaymentType = "full" | "monthly";

/**
 * The built-in provider's saved test cards (README): one that always pays, and one that pays the first
 * instalment and declines the later ones, as Stripe's test card 4000 0000 0000 0341 does.
 */
export type TestCard = "ok" | "declines_later";
export const TEST_CARDS: { id: TestCard; label: string }[] = [
  { id: "ok", label: "Test card that always pays" },
  { id: "declines_later", label: "Test card that declines later instalments" },
];

/** Ours (README): after a missed instalment the plan stays in force this many days, then lapses. */
export const INSTALMENT_GRACE_DAYS = 7;
/** A declined instalment is tried again this often while the grace period lasts. */
export const INSTALMENT_RETRY_DAYS = 2;

/** Why a payment the member's plan had overtaken changed nothing (said on the return screen and in the refund email). */
export const OVERTAKEN_WHY: Record<OvertakenReason, (held: string) => string> = {
  downgrade: (held) => `You already have the ${held} plan, which includes this one, so this payment changed nothing.`,
  "same-plan": (held) => `You already have the ${held} plan, so this payment changed nothing.`,
  "monthly-after-paid": (held) => `You already have the ${held} plan, so no monthly payments were started.`,
  "price-changed": () => "Your plan changed while you were paying, so this payment no longer matched its price: nothing was changed.",
};

/** The subscription screens' texts. */
export const SUBSCRIPTION_MESSAGES = {
  upgradedTitle: "Subscription Upgraded!",
  upgraded: (plan: string) => `You now have access to the ${plan} plan.`,
  paymentSuccessfulTitle: "Payment Successful!",
  paymentSuccessful: "Your subscription has been upgraded successfully.",
  downgradeTitle: "Downgrade to Free",
  downgrade: "Contact support to downgrade to free plan.",
  createFailed: "Failed to create payment. Please try again.",
  upgradeFailed: "Failed to complete subscription upgrade",
  upgradeFailedAfterPayment: "Payment succeeded but subscription upgrade failed. Please contact support.",
  cancelFailed: "Failed to cancel subscription. Please try again.",
  cancelledTitle: "Subscription cancelled",
  alreadyOnPlan: "You are already on this plan.",
  monthlyNotOffered: "Monthly payments are offered when moving from the free plan. Please pay the rest in full.",
  paymentNotFound: "No payment information found.",
  unpaid: "The payment has not been completed.",
  wrongAmount: "The payment's amount does not match the plan. Nothing was charged to your plan; please contact support.",
  wrongPlan: "This payment was made for another plan.",
  alreadyUsed: "This payment has already been used.",
  nothingToCancel: "You are on the free plan: there is nothing to cancel.",
  paidInFull: "Your plan is paid in full: there are no payments to stop, and it stays yours. If you want to give it up or ask for a refund, please contact us.",
  choosePaymentType: "Please choose how you would like to pay.",
  cardPaymentProcessing: "Your card payment is still being processed. Please wait a moment and reload this page before paying another way.",
  checkoutOpened: "You chose to pay on Stripe's secure page, so the card form here was closed: one payment, never two. Continue on Stripe's page.",
  alreadyPaidTitle: "Already paid",
  secondPaymentRefunded: "This plan was already paid; your second payment has been refunded.",
  secondPaymentRefundPending:
    "This plan was already paid; your second payment will be refunded (we could not reach the payment provider just now and will try again).",
  replacedPaymentRefunded: "This card payment came after you chose Stripe's secure page, so it has been refunded. Please finish paying there.",
  overtakenTitle: "Payment refunded",
  overtaken: (why: string, paid: string, refunded: boolean) =>
    `${why} ${refunded ? `Your payment of ${paid} has been refunded.` : `Your payment of ${paid} will be refunded (we could not reach the payment provider just now and will try again).`}`,
  excessRefunded: (plan: string, credit: string, refunded: boolean) =>
    `You now have the ${plan} plan. You had already paid ${credit} towards it, so ${credit} of this payment ${refunded ? "has been refunded" : "will be refunded (we could not reach the payment provider just now and will try again)"}.`,
  priceMovedOn: "Your plan has changed since this payment was set up, so it no longer matches what the new plan costs you. Please choose the plan again.",
  overtakenPayTitle: "This payment is no longer needed",
  cancelConfirmTitle: "Cancel your monthly payments?",
  keepPlan: "Keep my plan",
  confirmCancel: "Yes, cancel payments",
  resumeTitle: "Payments resumed",
  resumed: (next: string, amount: string, date: string) => `Your monthly payments continue: payment ${next} (${amount}) is due on ${date}.`,
  resumeFailed: "Failed to resume your payments. Please try again.",
  nothingToResume: "There are no cancelled payments to resume.",
  resumeEnded: "Your plan has already ended, so it cannot be resumed. You can choose a plan again below.",
  replacedPaymentRefundPending:
    "This card payment came after you chose Stripe's secure page, so it will be refunded (we could not reach the payment provider just now and will try again). Please finish paying there.",
} as const;
