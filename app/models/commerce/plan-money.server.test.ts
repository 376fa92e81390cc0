import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { startStripeServer, STRIPE_TEST_KEYS } from "../../../test/stripe-server";
import { createPaymentProvider } from "~/services/payments.server";
import { testProvider } from "~/services/payments/test-provider.server";
import { INSTALMENT_GRACE_DAYS, instalments, judgePlanPayment, PLANS, SUBSCRIPTION_MESSAGES } from "~/utils/plans";
import { addMonths, getSubscription } from "./plan-subscription.server";
import { cancelPlan, chargeDueInstalments, resumePlan } from "./plan-instalments.server";
import { completePlanPayment } from "./plan-completion.server";
import { getPendingPlanPayment, payTestPlanPayment, startPlanPurchase } from "./plan-checkout.server";
import { retryPlanRefunds } from "./plan-refunds.server";
import { useTempDataDir } from "../../../test/data-dir";

// Money you can trust, for plans, on PGlite and PostgreSQL: a payment that completes
// after the member's plan moved on (a tab left open) never downgrades, never turns a plan paid in full into
// instalments and is never kept twice: it grants nothing and is refunded once, or, at a price above what
// the plan now costs, grants it and gives the difference back. Continue to Payment pressed ten times at
// once makes one payment; ten completions at once grant once. Every payment, refund, cancel and resume is
// emailed with its amount.

useTempDataDir("plan-money");
process.env.SESSION_SECRET ??= "plan-money-test-secret-that-is-long-enough-0123456789";

const DAY = 86_400_000;

/** The official stripe package, pointed at the local Stripe server. */
const stripeProvider = (apiUrl: string) =>
  createPaymentProvider({
    provider: "stripe",
    secretKey: STRIPE_TEST_KEYS.STRIPE_SECRET_KEY,
    publishableKey: STRIPE_TEST_KEYS.STRIPE_PUBLISHABLE_KEY,
    webhookSecret: STRIPE_TEST_KEYS.STRIPE_WEBHOOK_SECRET,
    apiUrl,
  });
const JAN = new Date("2026-01-15T10:00:00Z");

describe("judgePlanPayment, the one rule for a payment that completes", () => {
  const free = { planId: "free" as const, purchase: null };
  const foreverFull = { planId: "forever" as const, purchase: { planId: "forever" as const, paymentType: "full" as const, paidPence: 27_900 } };
  const plus = { planId: "forever_plus" as const, purchase: { planId: "forever_plus" as const, paymentType: "full" as const, paidPence: 42_900 } };
  it("honours an upgrade at its price, and gives back what was paid already", () => {
    expect(judgePlanPayment(free, { planId: "forever", paymentType: "full", amountPence: 27_900 })).toEqual({ grant: true, excessPence: 0 });
    expect(judgePlanPayment(free, { planId: "forever_plus", paymentType: "monthly", amountPence: 1192 })).toEqual({ grant: true, excessPence: 0 });
    expect(judgePlanPayment(foreverFull, { planId: "forever_plus", paymentType: "full", amountPence: 15_000 })).toEqual({ grant: true, excessPence: 0 });
    expect(judgePlanPayment(foreverFull, { planId: "forever_plus", paymentType: "full", amountPence: 42_900 })).toEqual({ grant: true, excessPence: 27_900 });
  });
  it("refuses a downgrade, the same plan twice, instalments on a paid plan and a price that no longer holds", () => {
    expect(judgePlanPayment(plus, { planId: "forever", paymentType: "full", amountPence: 27_900 })).toEqual({ grant: false, reason: "downgrade" });
    expect(judgePlanPayment(foreverFull, { planId: "forever", paymentType: "monthly", amountPence: 775 })).toEqual({ grant: false, reason: "same-plan" });
    expect(judgePlanPayment(foreverFull, { planId: "forever_plus", paymentType: "monthly", amountPence: 1192 })).toEqual({
      grant: false,
      reason: "monthly-after-paid",
    });
    const monthlyForever = { planId: "forever" as const, purchase: { planId: "forever" as const, paymentType: "monthly" as const, paidPence: 775 } };
    expect(judgePlanPayment(monthlyForever, { planId: "forever_plus", paymentType: "full", amountPence: 42_900 - 27_900 })).toEqual({
      grant: false,
      reason: "price-changed",
    });
  });
});

describe.each(databaseKinds)("plan money on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);

  let n = 0;
  async function member() {
    return app.db.prisma.user.create({
      data: { email: `money-${Date.now().toString(36)}-${n++}@example.test`, firstName: "Robin", lastName: "Paid", password: "x" },
    });
  }
  const reload = (id: string) => app.db.prisma.user.findUniqueOrThrow({ where: { id } });
  const outbox = (to: string) => app.db.prisma.mailOutbox.findMany({ where: { to }, orderBy: { createdAt: "asc" } });
  const mailsOf = async (to: string, kind: string) => (await outbox(to)).filter((m) => m.kind === kind).map((m) => m.data as Record<string, unknown>);

  /** Two tabs: both choices started while the member was on the free plan (each tab's Continue to Payment). */
  async function twoTabs(first: ["forever" | "forever_plus", "full" | "monthly"], second: ["forever" | "forever_plus", "full" | "monthly"]) {
    const user = await member();
    const a = await startPlanPurchase(user, first[0], first[1], { now: JAN });
    const b = await startPlanPurchase(user, second[0], second[1], { now: JAN });
    if (!a.ok || !b.ok) throw new Error("could not start");
    return { user, a, b };
  }

  it.skipIf(skip)(
    "Forever Plus paid, then an older tab's Forever payment: nothing changes, the Forever payment is refunded once and the member told",
    async () => {
      const { user, a, b } = await twoTabs(["forever_plus", "full"], ["forever", "full"]);
      expect(await payTestPlanPayment(user, a.paymentId, undefined, JAN)).toMatchObject({ ok: true, planId: "forever_plus" });
      // The older tab's page now says paying would change nothing.
      expect((await getPendingPlanPayment(await reload(user.id), b.paymentId))?.overtaken).toMatch(/already have the Forever Plus/);

      const stale = await payTestPlanPayment(user, b.paymentId, undefined, JAN);
      expect(stale).toMatchObject({ ok: false, reason: "superseded", refunded: true });
      expect(stale && !stale.ok && stale.message).toBe(
        "You already have the Forever Plus (with Vault) plan, which includes this one, so this payment changed nothing. Your payment of £279.00 has been refunded.",
      );
      expect(await reload(user.id)).toMatchObject({ subscriptionPlan: "forever_plus", subscriptionExpiryDate: null });
      expect(await app.db.prisma.testPayment.findUnique({ where: { id: b.paymentId } })).toMatchObject({ status: "succeeded", amountRefunded: 27_900 });
      expect(await app.db.prisma.planPurchase.findFirst({ where: { userId: user.id, planId: "forever" } })).toMatchObject({ status: "refunded" });

      // Asked again (a reload, the webhook): the same answer, no second refund or email.
      expect(await completePlanPayment(b.paymentId, { userId: user.id })).toMatchObject({ ok: false, reason: "superseded", refunded: true });
      expect(await app.db.prisma.planRefund.count({ where: { paymentId: b.paymentId } })).toBe(1);
      expect(await mailsOf(user.email, "plan-refund")).toEqual([expect.objectContaining({ amount: 27_900, paymentRef: b.paymentId, reason: "superseded" })]);
      expect(await mailsOf(user.email, "plan-receipt")).toEqual([expect.objectContaining({ amount: 42_900, planId: "forever_plus", paymentType: "full" })]);
      expect((await getSubscription(await reload(user.id))).purchase).toMatchObject({ planId: "forever_plus", status: "completed", paidPence: 42_900 });
    },
  );

  it.skipIf(skip)("Forever paid in full, then an older tab's first monthly instalment: the plan stays paid in full, nothing is charged later", async () => {
    const { user, a, b } = await twoTabs(["forever", "full"], ["forever", "monthly"]);
    expect(await payTestPlanPayment(user, a.paymentId, undefined, JAN)).toMatchObject({ ok: true, planId: "forever" });
    expect(await payTestPlanPayment(user, b.paymentId, undefined, JAN)).toMatchObject({ ok: false, reason: "superseded", refunded: true });
    const seen = await reload(user.id);
    expect(seen).toMatchObject({ subscriptionPlan: "forever", subscriptionExpiryDate: null });
    expect((await getSubscription(seen)).purchase).toMatchObject({ paymentType: "full", status: "completed" });
    // No instalments ever follow: the monthly purchase was refunded, not started.
    expect(await chargeDueInstalments(addMonths(JAN, 2))).toMatchObject({ charged: 0, failed: 0 });
    expect(await app.db.prisma.testPayment.findUnique({ where: { id: b.paymentId } })).toMatchObject({ amountRefunded: 775 });
    expect(await mailsOf(user.email, "plan-refund")).toEqual([expect.objectContaining({ amount: 775 })]);
  });

  it.skipIf(skip)("Forever paid, then an older tab's Forever Plus at the full price: Forever Plus, and the £279 already paid given back", async () => {
    const { user, a, b } = await twoTabs(["forever_plus", "full"], ["forever", "full"]);
    expect(await payTestPlanPayment(user, b.paymentId, undefined, JAN)).toMatchObject({ ok: true, planId: "forever" });
    const upgraded = await payTestPlanPayment(user, a.paymentId, undefined, JAN);
    expect(upgraded).toMatchObject({ ok: true, planId: "forever_plus", alreadyDone: false, excessRefund: { pence: 27_900, refunded: true } });
    expect(upgraded?.ok && upgraded.excessRefund?.message).toBe(
      "You now have the Forever Plus (with Vault) plan. You had already paid £279.00 towards it, so £279.00 of this payment has been refunded.",
    );
    expect(await reload(user.id)).toMatchObject({ subscriptionPlan: "forever_plus", subscriptionExpiryDate: null });
    expect(await app.db.prisma.testPayment.findUnique({ where: { id: a.paymentId } })).toMatchObject({ amountRefunded: 27_900 });
    // £279 + £429 − £279: the member paid exactly Forever Plus's price.
    expect(await mailsOf(user.email, "plan-receipt")).toEqual([expect.objectContaining({ amount: 27_900 }), expect.objectContaining({ amount: 42_900 })]);
    expect(await mailsOf(user.email, "plan-refund")).toEqual([expect.objectContaining({ amount: 27_900, reason: "excess" })]);
  });

  it.skipIf(skip)("ten Continue to Payment at once make one payment; ten completions at once grant once, with one receipt", async () => {
    const user = await member();
    const starts = await Promise.all(Array.from({ length: 10 }, () => startPlanPurchase(user, "forever_plus", "monthly", { now: JAN })));
    expect(starts.every((s) => s.ok)).toBe(true);
    const ids = new Set(starts.map((s) => (s.ok ? s.paymentId : "")));
    expect(ids.size).toBe(1);
    const [paymentId] = [...ids];
    expect(await app.db.prisma.planPurchase.count({ where: { userId: user.id, status: "awaiting_payment" } })).toBe(1);

    await testProvider.payTestPayment!(paymentId);
    const done = await Promise.all(Array.from({ length: 10 }, () => completePlanPayment(paymentId, { userId: user.id, now: JAN })));
    expect(done.every((r) => r.ok)).toBe(true);
    expect(done.filter((r) => r.ok && !r.alreadyDone)).toHaveLength(1);
    expect(await mailsOf(user.email, "plan-receipt")).toEqual([expect.objectContaining({ amount: 1192, number: 1, count: 36 })]);
    expect((await reload(user.id)).subscriptionPlan).toBe("forever_plus");
  });

  it.skipIf(skip)("an open payment whose price no longer holds is abandoned for a new one at the new price", async () => {
    const user = await member();
    const early = await startPlanPurchase(user, "forever_plus", "full", { now: JAN });
    const forever = await startPlanPurchase(user, "forever", "full", { now: JAN });
    if (!early.ok || !forever.ok) throw new Error("could not start");
    await payTestPlanPayment(user, forever.paymentId, undefined, JAN);
    const again = await startPlanPurchase(await reload(user.id), "forever_plus", "full", { now: JAN });
    expect(again).toMatchObject({ ok: true, amountPence: 15_000 });
    expect(again.ok && again.paymentId).not.toBe(early.paymentId);
    expect(await app.db.prisma.planPurchase.findFirst({ where: { payments: { some: { paymentId: early.paymentId } } } })).toMatchObject({
      status: "abandoned",
    });
    // The abandoned one's page is gone; paid all the same in a tab left open, it is judged (here: the difference given back).
    expect(await getPendingPlanPayment(user, early.paymentId)).toBeNull();
  });

  it.skipIf(skip)(
    "cancel, then resume before the month ends: payments go on where they stopped, each step emailed; after it ends, resume is refused",
    async () => {
      const user = await member();
      const started = await startPlanPurchase(user, "forever", "monthly", { now: JAN });
      if (!started.ok) throw new Error(started.message);
      await payTestPlanPayment(user, started.paymentId, undefined, JAN);
      const mid = new Date(JAN.getTime() + 10 * DAY);
      expect(await cancelPlan(await reload(user.id), mid)).toMatchObject({ ok: true, accessUntil: addMonths(JAN, 1) });
      expect(await mailsOf(user.email, "plan-cancelled")).toEqual([
        expect.objectContaining({ accessUntil: addMonths(JAN, 1).toISOString(), paid: 775, left: 35 * 775, paidCount: 1, purchaseRef: started.purchaseId }),
      ]);

      const resumed = await resumePlan(await reload(user.id), mid);
      expect(resumed).toEqual({ ok: true, message: "Your monthly payments continue: payment 2 of 36 (£7.75) is due on February 15, 2026." });
      expect((await reload(user.id)).subscriptionExpiryDate).toEqual(new Date(addMonths(JAN, 1).getTime() + INSTALMENT_GRACE_DAYS * DAY));
      expect(await mailsOf(user.email, "plan-resumed")).toEqual([
        expect.objectContaining({ amount: 775, number: 2, paid: 775, left: 35 * 775, purchaseRef: started.purchaseId }),
      ]);
      expect(await resumePlan(await reload(user.id), mid)).toMatchObject({ ok: false, reason: "nothing" });
      // The next instalment is charged when due, with its receipt.
      await chargeDueInstalments(addMonths(JAN, 1));
      expect((await mailsOf(user.email, "plan-receipt")).map((m) => [m.number, m.amount])).toEqual([
        [1, 775],
        [2, 775],
      ]);

      // Cancelled again and left to run out: too late to resume.
      await cancelPlan(await reload(user.id), addMonths(JAN, 1));
      const late = new Date(addMonths(JAN, 2).getTime() + DAY);
      expect(await resumePlan(await reload(user.id), late)).toEqual({ ok: false, reason: "ended", message: SUBSCRIPTION_MESSAGES.resumeEnded });
    },
  );

  it.skipIf(skip)(
    "with Stripe: resuming a cancelled monthly plan tells Stripe first (nothing changes while it is down), then puts the instalments left back on a schedule",
    async () => {
      const stripe = await startStripeServer();
      try {
        const provider = stripeProvider(stripe.url);
        const user = await member();
        const started = await startPlanPurchase(user, "forever_plus", "monthly", { now: JAN, provider });
        if (!started.ok) throw new Error(started.message);
        stripe.succeed(started.paymentId);
        expect(await completePlanPayment(started.paymentId, { userId: user.id, provider, now: JAN })).toMatchObject({ ok: true, planId: "forever_plus" });
        const purchase = await app.db.prisma.planPurchase.findFirstOrThrow({ where: { userId: user.id, status: "active" } });
        const mid = new Date(JAN.getTime() + 5 * DAY);
        expect(await cancelPlan(await reload(user.id), mid, { provider })).toMatchObject({ ok: true });
        const subscription = stripe.subscriptions.get(purchase.stripeSubscriptionId!)!;
        expect(subscription.cancel_at_period_end).toBe(true);

        stripe.unreachable = true;
        expect(await resumePlan(await reload(user.id), mid, { provider })).toEqual({
          ok: false,
          reason: "provider",
          message: SUBSCRIPTION_MESSAGES.resumeFailed,
        });
        expect(await app.db.prisma.planPurchase.findUniqueOrThrow({ where: { id: purchase.id } })).toMatchObject({ status: "cancelled" });
        stripe.unreachable = false;

        expect(await resumePlan(await reload(user.id), mid, { provider })).toMatchObject({ ok: true });
        expect(subscription.cancel_at_period_end).toBe(false);
        const schedule = stripe.schedules.get(subscription.schedule as string)!;
        expect(schedule).toMatchObject({ end_behavior: "cancel" });
        // The current (paid) month and the 35 left: 35 × £11.92 then £11.80, 36 months in all.
        expect(schedule.phases.map((p) => (p as { duration: { interval_count: string | number } }).duration.interval_count).map(Number)).toEqual([35, 1]);
        expect(await app.db.prisma.planPurchase.findUniqueOrThrow({ where: { id: purchase.id } })).toMatchObject({ status: "active", cancelledAt: null });
      } finally {
        await stripe.stop();
      }
    },
  );

  it.skipIf(skip)(
    "with Stripe: a stale tab's payment is refunded once even when Stripe is down at first, and a partial refund takes only the difference",
    async () => {
      const stripe = await startStripeServer();
      try {
        const provider = stripeProvider(stripe.url);
        const user = await member();
        const plus = await startPlanPurchase(user, "forever_plus", "full", { now: JAN, provider });
        const forever = await startPlanPurchase(user, "forever", "full", { now: JAN, provider });
        const monthly = await startPlanPurchase(user, "forever", "monthly", { now: JAN, provider });
        if (!plus.ok || !forever.ok || !monthly.ok) throw new Error("could not start");
        stripe.succeed(forever.paymentId);
        expect(await completePlanPayment(forever.paymentId, { userId: user.id, provider, now: JAN })).toMatchObject({ ok: true, planId: "forever" });

        // The Plus tab pays the full price: granted, £279 of it refunded by Stripe.
        stripe.succeed(plus.paymentId);
        expect(await completePlanPayment(plus.paymentId, { userId: user.id, provider, now: JAN })).toMatchObject({
          ok: true,
          planId: "forever_plus",
          excessRefund: { pence: 27_900, refunded: true },
        });
        expect(stripe.refunds.filter((r) => r.payment_intent === plus.paymentId).map((r) => r.amount)).toEqual([27_900]);

        // The monthly tab pays its first instalment while Stripe refuses refunds: nothing granted, refunded later, once.
        stripe.refundsDown = true;
        stripe.succeed(monthly.paymentId);
        expect(await completePlanPayment(monthly.paymentId, { userId: user.id, provider, now: JAN })).toMatchObject({
          ok: false,
          reason: "superseded",
          refunded: false,
        });
        expect(await mailsOf(user.email, "plan-refund")).toHaveLength(1);
        stripe.refundsDown = false;
        expect(await retryPlanRefunds({ provider })).toBe(1);
        expect(await retryPlanRefunds({ provider })).toBe(0);
        expect(stripe.refunds.filter((r) => r.payment_intent === monthly.paymentId).map((r) => r.amount)).toEqual([instalments(PLANS.forever)[0]]);
        expect(await completePlanPayment(monthly.paymentId, { userId: user.id, provider, now: JAN })).toMatchObject({
          ok: false,
          reason: "superseded",
          refunded: true,
        });
        expect((await mailsOf(user.email, "plan-refund")).map((m) => m.amount)).toEqual([27_900, 775]);
        expect((await reload(user.id)).subscriptionPlan).toBe("forever_plus");
      } finally {
        await stripe.stop();
      }
    },
  );
});
