import { prisma } from "~/services/db.server";
import { getPaymentProvider } from "~/services/payments.server";
import { WebhookRejectedError, type InvoiceFacts, type WebhookEvent } from "~/services/payments/provider.server";
import { SUBSCRIPTION_MESSAGES } from "~/utils/plans";
import { completePayment } from "./order-completion.server";
import { completePlanPayment, completePlanSession, type CompletePlanResult } from "./plan-completion.server";
import { lapseEndedSubscription, purchaseOfInvoice, recordFailedInstalment, recordPaidInstalment } from "./plan-instalments.server";

// Stripe's signed webhooks, dispatched (docs/decisions/016-money-by-lifecycle.md). Money flows one way:
// a webhook reaches an order or a plan, which asks the provider; so this module imports the orders' and
// the plans' stages, and none of them imports it (or each other across orders and plans).

// ───────────────────────────── the Stripe webhook ─────────────────────────────

export type WebhookResult = { ok: true; duplicate: boolean; handled: string } | { ok: false; reason: "rejected" | "retry"; message: string };

/**
 * POST /api/stripe/webhook: the raw body's signature and timestamp checked by the provider, the event id
 * recorded once handled (a redelivery is acknowledged and not handled again). Anything that needs another
 * try (the provider unreachable, a refund not through yet) answers so, and Stripe sends the event again.
 */
export async function handleStripeWebhook(rawBody: string, signature: string | null): Promise<WebhookResult> {
  const provider = getPaymentProvider();
  let event;
  try {
    event = provider.verifyWebhook(rawBody, signature);
  } catch (error) {
    if (error instanceof WebhookRejectedError) return { ok: false, reason: "rejected", message: error.message };
    throw error;
  }
  if (await prisma().stripeEvent.findUnique({ where: { id: event.id }, select: { id: true } }))
    return { ok: true, duplicate: true, handled: "already handled" };
  let handled = "ignored";
  // Plans: their payments carry metadata kind=plan; invoices belong to plan subscriptions.
  const plan = event.subject ? await handlePlanWebhook(event.subject) : null;
  if (plan) {
    if ("retry" in plan) return { ok: false, reason: "retry", message: plan.retry };
    handled = plan.handled;
  } else if (event.subject && (event.subject.kind === "payment" || event.subject.kind === "session")) {
    const result = await completePayment(event.subject.kind === "payment" ? { paymentId: event.subject.id } : { sessionId: event.subject.id });
    if (!result.ok && (result.reason === "provider" || (result.reason === "refunded" && result.refundPending))) {
      return { ok: false, reason: "retry", message: result.message };
    }
    handled = result.ok ? (result.created ? "order created" : "order exists") : result.reason;
  }
  await prisma().stripeEvent.createMany({ data: [{ id: event.id, type: event.type }], skipDuplicates: true });
  return { ok: true, duplicate: false, handled };
}

// ───────────────────────────── plans ─────────────────────────────

export type PlanWebhookOutcome = { handled: string } | { retry: string };

/**
 * A signed Stripe event about a plan (handleStripeWebhook verified it and records its id
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
      return recordFailedInstalment(subject.invoice, now);
    case "subscription-ended":
      return lapseEndedSubscription(subject.subscriptionId);
  }
}

/** invoice.paid: the first instalment is granted as the card form's payment is; a later one is counted. */
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
  return recordPaidInstalment(purchase, invoice, now);
}

/**
 * The first invoice of a subscription no purchase holds (yet): the one a Checkout page made (before its
 * session is completed here), or the card form's, replaced by a Checkout page. Found through the plan payment
 * in its metadata (signed by Stripe); the session, or the replaced payment, decides: granted once, or refunded.
 */
async function firstInvoiceOfOtherSubscription(invoice: InvoiceFacts, now: Date): Promise<PlanWebhookOutcome | null> {
  if (invoice.billingReason !== "subscription_create" || invoice.metadata.kind !== "plan" || !invoice.metadata.planPaymentId) return null;
  const row = await prisma().planPayment.findUnique({
    where: { id: invoice.metadata.planPaymentId.slice(0, 255) },
    include: { purchase: { select: { replacedSubscriptionId: true } } },
  });
  if (!row) return null;
  let result: CompletePlanResult;
  if (row.purchase.replacedSubscriptionId === invoice.subscriptionId && row.replacedPaymentId)
    result = await completePlanPayment(row.replacedPaymentId, { now });
  else if (row.checkoutSessionId) result = await completePlanSession(row.checkoutSessionId, { now });
  else return { handled: "plan not-found" };
  return webhookOutcome(result);
}

function webhookOutcome(result: CompletePlanResult): PlanWebhookOutcome {
  if (!result.ok && result.reason === "provider") return { retry: result.message };
  if (!result.ok && result.reason === "refunded")
    return result.message === SUBSCRIPTION_MESSAGES.replacedPaymentRefunded ? { handled: "replaced payment refunded" } : { retry: result.message };
  if (result.ok && result.secondPayment)
    return result.secondPayment.refunded ? { handled: "second payment refunded" } : { retry: result.secondPayment.message };
  return { handled: result.ok ? (result.alreadyDone ? "plan already granted" : "plan granted") : `plan ${result.reason}` };
}
