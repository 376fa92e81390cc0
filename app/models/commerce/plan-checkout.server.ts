import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { getPaymentProvider } from "~/services/payments.server";
import { askProvider, PaymentProviderError, type PaymentProvider, type ProviderPayment } from "~/services/payments/provider.server";
import {
  describeInstalments,
  instalments,
  judgePlanPayment,
  OVERTAKEN_WHY,
  PLANS,
  SUBSCRIPTION_MESSAGES,
  type PaymentType,
  type PlanId,
  type TestCard,
} from "~/utils/plans";
import { completePlanPayment, type CompletePlanResult } from "./plan-completion.server";
import { getSubscription, holdingOf, instalmentPhases, planIdOf, planOffer, planProduct, type Member } from "./plan-subscription.server";

// Starting a plan's payment. The rule: what a plan costs is decided here,
// from app/utils/plans.ts and what the member already paid: a purchase and its first payment are recorded
// (plan, way to pay, amount) before the provider is asked for a payment, and the plan is granted from that
// record (plan-completion.server.ts), never from what a client sends.

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
export async function startPlanPurchase(
  user: Member,
  planId: PlanId,
  paymentType: PaymentType,
  options: { testCard?: TestCard; now?: Date; provider?: PaymentProvider } = {},
): Promise<StartPlanResult> {
  const now = options.now ?? new Date();
  const provider = options.provider ?? getPaymentProvider();
  const offer = await planOffer(user, planId, now);
  if ("refused" in offer) return { ok: false, reason: "refused", message: offer.refused };
  if (paymentType === "monthly" && !offer.monthly) return { ok: false, reason: "refused", message: SUBSCRIPTION_MESSAGES.monthlyNotOffered };
  const monthly = paymentType === "monthly";
  const amount = monthly ? instalments(PLANS[planId])[0] : offer.pricePence;

  const purchase = await openPurchase(user, { planId, paymentType, amount, now, provider, testCard: options.testCard });
  const row = purchase.payments[0];
  const failed = { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.createFailed } as const;
  // Asked already (a second press, another tab): the same payment, as the provider knows it now.
  const asked = async (paymentId: string): Promise<StartPlanResult> => {
    const known = await askProvider(() => provider.getPayment(paymentId));
    if (!known.ok) return failed;
    return { ok: true, purchaseId: purchase.id, paymentId, clientSecret: known.value?.clientSecret ?? null, amountPence: amount };
  };
  if (row.paymentId) return asked(row.paymentId);

  const made = await askProvider(async (): Promise<ProviderPayment> => {
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
      return plan.payment;
    }
    return provider.createPayment({
      amount,
      currency: row.currency,
      idempotencyKey: `plan-payment:${row.id}`,
      description: `Everlight ${PLANS[planId].name}${monthly ? ", instalment 1" : ""}`,
      metadata: { kind: "plan", userId: user.id, planId, paymentType, purchaseId: purchase.id, planPaymentId: row.id },
    });
  });
  if (!made.ok) {
    // A parallel request for the same purchase may have been answered (Stripe refuses a key in use).
    const meanwhile = await prisma().planPayment.findUnique({ where: { id: row.id }, select: { paymentId: true } });
    if (meanwhile?.paymentId) return asked(meanwhile.paymentId);
    return failed;
  }
  const payment = made.value;
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
        if (choice.testCard && open.testCard !== choice.testCard)
          await prisma().planPurchase.update({ where: { id: open.id }, data: { testCard: choice.testCard } });
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
  const paymentId = first.paymentId;
  await askProvider(async () => {
    if (purchase.stripeSubscriptionId && provider.endInstalmentPlanNow)
      await provider.endInstalmentPlanNow(purchase.stripeSubscriptionId, { idempotencyKey: `plan-abandon:${purchase.id}` });
    else if (provider.cancelPayment) await provider.cancelPayment(paymentId, { idempotencyKey: `plan-abandon:${purchase.id}` });
  }, `Abandoned plan purchase ${purchase.id}`);
}

/** The payment screen's facts: the caller's own payment, still to be paid; null for anything else. */
export async function getPendingPlanPayment(user: Member, paymentId: string) {
  if (!paymentId || paymentId.length > 255) return null;
  const row = await prisma().planPayment.findUnique({ where: { paymentId }, include: { purchase: true } });
  if (!row || row.purchase.userId !== user.id || row.status !== "pending" || row.purchase.status !== "awaiting_payment") return null;
  // A tab left open: the member's plan may have moved on since this payment was set up.
  const holding = holdingOf(await getSubscription(user));
  const verdict = judgePlanPayment(holding, {
    planId: planIdOf(row.purchase.planId),
    paymentType: row.purchase.paymentType as PaymentType,
    amountPence: row.amount,
  });
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
export async function startPlanCheckout(
  user: Member,
  paymentId: string,
  site: string,
  options: { provider?: PaymentProvider } = {},
): Promise<PlanCheckoutResult> {
  const pending = await getPendingPlanPayment(user, paymentId);
  if (!pending) return { ok: false, reason: "not-found", message: SUBSCRIPTION_MESSAGES.paymentNotFound };
  if (pending.overtaken) return { ok: false, reason: "refused", message: pending.overtaken };
  const provider = options.provider ?? getPaymentProvider();
  if (pending.provider !== "stripe" || provider.name !== "stripe") return { ok: false, reason: "not-found", message: SUBSCRIPTION_MESSAGES.paymentNotFound };
  const row = await prisma().planPayment.findUniqueOrThrow({ where: { paymentId }, include: { purchase: true } });
  const monthly = pending.paymentType === "monthly";
  const plan = PLANS[pending.planId];
  const failed = { ok: false, reason: "provider", message: SUBSCRIPTION_MESSAGES.createFailed } as const;

  if (!row.replacedPaymentId) {
    const replaced = await askProvider(async (): Promise<{ state: ProviderPayment | null; ended: boolean }> => {
      if (monthly) {
        // An invoice's PaymentIntent cannot be cancelled by itself: the incomplete subscription is ended (its
        // first invoice is voided with it), unless its card payment has gone through.
        const state = await provider.getPayment(paymentId);
        if (state && state.status !== "succeeded" && state.status !== "processing" && row.purchase.stripeSubscriptionId) {
          if (!provider.endInstalmentPlanNow) throw new PaymentProviderError("Stripe is not configured to end a Stripe subscription");
          await provider.endInstalmentPlanNow(row.purchase.stripeSubscriptionId, { idempotencyKey: `plan-replace:${row.id}` });
          return { state: await provider.getPayment(paymentId), ended: true };
        }
        return { state, ended: false };
      }
      if (!provider.cancelPayment) throw new PaymentProviderError("Stripe is not configured to cancel a payment");
      return { state: await provider.cancelPayment(paymentId, { idempotencyKey: `plan-replace:${row.id}` }), ended: false };
    });
    if (!replaced.ok) return failed;
    const { state, ended } = replaced.value;
    if (state?.status === "succeeded" && !ended) return { ok: true, paid: await completePlanPayment(paymentId, { userId: user.id, provider }) };
    if (state?.status === "processing") return { ok: false, reason: "refused", message: SUBSCRIPTION_MESSAGES.cardPaymentProcessing };
    await prisma().$transaction([
      prisma().planPayment.updateMany({ where: { id: row.id, replacedPaymentId: null }, data: { replacedPaymentId: paymentId } }),
      ...(monthly && row.purchase.stripeSubscriptionId
        ? [
            prisma().planPurchase.updateMany({
              where: { id: row.purchaseId, stripeSubscriptionId: row.purchase.stripeSubscriptionId },
              data: { replacedSubscriptionId: row.purchase.stripeSubscriptionId, stripeSubscriptionId: null },
            }),
          ]
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
  const opened = await askProvider(async () => {
    if (!monthly) return provider.createHostedCheckout({ ...common, lines: [{ name: `Everlight ${plan.name}`, quantity: 1, unitAmount: row.amount }] });
    if (!provider.createInstalmentCheckout) throw new PaymentProviderError("Stripe is not configured for monthly payments");
    return provider.createInstalmentCheckout({ ...common, product: planProduct(pending.planId) });
  });
  if (!opened.ok) return failed;
  const session = opened.value;
  // The newest page opened (the same one while Stripe's idempotency key lives; a new one after it expired).
  await prisma().planPayment.update({ where: { id: row.id }, data: { checkoutSessionId: session.id } });
  return { ok: true, url: session.url };
}

/** The built-in provider's Complete Payment: its test payment succeeds (no card, no money), then the plan is granted. */
export async function payTestPlanPayment(
  user: Member,
  paymentId: string,
  testCard: TestCard | undefined,
  now = new Date(),
): Promise<CompletePlanResult | null> {
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
