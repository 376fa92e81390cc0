import Stripe from "stripe";
import type { PaymentSettings } from "../env.server";
import {
  PaymentProviderError,
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookRejectedError,
  type CreatePaymentInput,
  type HostedCheckoutInput,
  type HostedCheckoutState,
  type InstalmentCheckoutInput,
  type InstalmentPlanInput,
  type InstalmentScheduleInput,
  type InvoiceState,
  type PaymentProvider,
  type PaymentState,
  type ProviderPayment,
  type WebhookEvent,
} from "./provider.server";

// Stripe, when STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set: a PaymentIntent
// for the embedded Payment Element (with JavaScript), a Checkout Session for the page without it, refunds,
// subscriptions that pay a plan in instalments, and signed webhooks. Each call below takes the client
// stripeProvider made; every failure reaches the models as a PaymentProviderError.

function stripeState(status: Stripe.PaymentIntent.Status): PaymentState {
  switch (status) {
    case "succeeded":
      return "succeeded";
    // We capture automatically; a payment waiting for capture is on its way.
    case "processing":
    case "requires_capture":
      return "processing";
    case "canceled":
      return "canceled";
    default:
      return "unpaid";
  }
}

function fromIntent(intent: Stripe.PaymentIntent): ProviderPayment {
  return {
    id: intent.id,
    status: stripeState(intent.status),
    amount: intent.amount_received && intent.status === "succeeded" ? intent.amount_received : intent.amount,
    currency: intent.currency,
    live: intent.livemode,
    clientSecret: intent.client_secret,
    failureMessage: intent.last_payment_error?.message ?? null,
    metadata: intent.metadata ?? {},
  };
}

function isMissing(error: unknown) {
  return error instanceof Stripe.errors.StripeError && (error.code === "resource_missing" || error.statusCode === 404);
}

function providerError(action: string, error: unknown): PaymentProviderError {
  const detail = error instanceof Error ? error.message : String(error);
  return new PaymentProviderError(`Stripe could not ${action}: ${detail}`, { cause: error });
}

/** One request to Stripe: what it answers, or "Stripe could not <action>"; an object Stripe has not got answers `missing()` when given. */
async function calling<T>(action: string, call: () => Promise<T>, missing?: () => T): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (missing && isMissing(error)) return missing();
    throw providerError(action, error);
  }
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));

// ───────────────────────────── payments, pages and refunds ─────────────────────────────

function createPayment(stripe: Stripe, input: CreatePaymentInput): Promise<ProviderPayment> {
  return calling("create the payment", async () => {
    const intent = await stripe.paymentIntents.create(
      {
        amount: input.amount,
        currency: input.currency,
        automatic_payment_methods: { enabled: true },
        description: input.description,
        metadata: input.metadata,
      },
      { idempotencyKey: input.idempotencyKey },
    );
    return fromIntent(intent);
  });
}

function getPayment(stripe: Stripe, id: string): Promise<ProviderPayment | null> {
  return calling(
    "look up the payment",
    async () => fromIntent(await stripe.paymentIntents.retrieve(id)),
    () => null,
  );
}

function createHostedCheckout(stripe: Stripe, input: HostedCheckoutInput): Promise<{ id: string; url: string }> {
  return calling("open its payment page", async () => {
    const session = await stripe.checkout.sessions.create(
      {
        mode: "payment",
        line_items: input.lines.map((line) => ({
          quantity: line.quantity,
          price_data: { currency: input.currency, unit_amount: line.unitAmount, product_data: { name: line.name } },
        })),
        customer_email: input.customerEmail,
        client_reference_id: input.metadata.checkoutId,
        metadata: input.metadata,
        payment_intent_data: { description: input.description, metadata: input.metadata },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      },
      { idempotencyKey: input.idempotencyKey },
    );
    if (!session.url) throw new Error("the session has no address");
    return { id: session.id, url: session.url };
  });
}

function getHostedCheckout(stripe: Stripe, id: string): Promise<HostedCheckoutState | null> {
  return calling(
    "look up the payment page",
    async () => {
      const session = await stripe.checkout.sessions.retrieve(id);
      return {
        id: session.id,
        paid: session.payment_status === "paid",
        paymentId: idOf(session.payment_intent),
        amount: session.amount_total ?? 0,
        currency: session.currency ?? "",
        metadata: session.metadata ?? {},
        mode: session.mode === "subscription" ? "subscription" : "payment",
        complete: session.status === "complete",
        subscriptionId: idOf(session.subscription),
        invoiceId: idOf(session.invoice),
      };
    },
    () => null,
  );
}

function refund(stripe: Stripe, paymentId: string, { idempotencyKey, amount }: { idempotencyKey: string; amount?: number }): Promise<{ id: string }> {
  return calling("refund the payment", async () => {
    const made = await stripe.refunds.create(
      { payment_intent: paymentId, reason: "requested_by_customer", ...(amount === undefined ? {} : { amount }) },
      { idempotencyKey },
    );
    return { id: made.id };
  });
}

async function cancelPayment(stripe: Stripe, id: string, { idempotencyKey }: { idempotencyKey: string }): Promise<ProviderPayment | null> {
  try {
    return fromIntent(await stripe.paymentIntents.cancel(id, { cancellation_reason: "abandoned" }, { idempotencyKey }));
  } catch (error) {
    if (isMissing(error)) return null;
    // Paid (or being paid) a moment ago: Stripe refuses to cancel it; the caller looks at what it is now.
    if (error instanceof Stripe.errors.StripeError && error.code === "payment_intent_unexpected_state") {
      return calling("look up the payment", async () => fromIntent(await stripe.paymentIntents.retrieve(id)));
    }
    throw providerError("cancel the payment", error);
  }
}

// ───────────────────────────── monthly payments (subscriptions) ─────────────────────────────

const monthlyPrice = (currency: string, product: string, amount: number) => ({
  currency,
  product,
  unit_amount: amount,
  recurring: { interval: "month" as const },
});

/** The product a plan's prices hang on (subscription prices need one): one per plan, made once. */
async function ensureProduct(stripe: Stripe, product: { id: string; name: string }) {
  try {
    await stripe.products.retrieve(product.id);
  } catch (error) {
    if (!isMissing(error)) throw error;
    await stripe.products.create({ id: product.id, name: product.name }, { idempotencyKey: `product:${product.id}` });
  }
}

/**
 * A schedule ends the subscription after the last instalment (end_behavior cancel); Forever Plus's last
 * payment is smaller, so it has a second phase of one month. Done once: a subscription already on a
 * schedule that cancels is left as it is (the return address and the webhook may both get here).
 */
async function schedule(stripe: Stripe, subscriptionId: string, input: InstalmentScheduleInput): Promise<{ scheduleId: string }> {
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  const existing = idOf(subscription.schedule);
  if (existing) {
    const current = await stripe.subscriptionSchedules.retrieve(existing);
    if (current.end_behavior === "cancel") return { scheduleId: existing };
  }
  const made = existing
    ? await stripe.subscriptionSchedules.retrieve(existing)
    : await stripe.subscriptionSchedules.create({ from_subscription: subscriptionId }, { idempotencyKey: `${input.idempotencyKey}:schedule` });
  await stripe.subscriptionSchedules.update(
    made.id,
    {
      end_behavior: "cancel",
      proration_behavior: "none",
      metadata: input.metadata,
      phases: input.phases.map((phase, i) => ({
        items: [{ price_data: monthlyPrice(input.currency, input.product.id, phase.amount) }],
        duration: { interval: "month" as const, interval_count: phase.count },
        ...(i === 0 ? { start_date: made.phases[0].start_date } : {}),
        metadata: input.metadata,
      })),
    },
    { idempotencyKey: `${input.idempotencyKey}:phases` },
  );
  return { scheduleId: made.id };
}

function createInstalmentPlan(stripe: Stripe, input: InstalmentPlanInput): Promise<{ subscriptionId: string; payment: ProviderPayment }> {
  return calling("set up the monthly payments", async () => {
    await ensureProduct(stripe, input.product);
    const customer = await stripe.customers.create(
      { email: input.customerEmail, metadata: input.metadata },
      { idempotencyKey: `${input.idempotencyKey}:customer` },
    );
    // The first invoice waits for the card (default_incomplete): the Payment Element pays its PaymentIntent.
    const subscription = await stripe.subscriptions.create(
      {
        customer: customer.id,
        items: [{ price_data: monthlyPrice(input.currency, input.product.id, input.phases[0].amount) }],
        payment_behavior: "default_incomplete",
        payment_settings: { save_default_payment_method: "on_subscription" },
        metadata: input.metadata,
        expand: ["latest_invoice.confirmation_secret"],
      },
      { idempotencyKey: `${input.idempotencyKey}:subscription` },
    );
    await schedule(stripe, subscription.id, input);
    const invoice = subscription.latest_invoice;
    const secret = typeof invoice === "object" ? invoice?.confirmation_secret?.client_secret : null;
    // A PaymentIntent's client secret is "<its id>_secret_<…>".
    const intentId = secret?.split("_secret_")[0];
    if (!intentId?.startsWith("pi_")) throw new Error("the first invoice has no payment to confirm");
    return { subscriptionId: subscription.id, payment: fromIntent(await stripe.paymentIntents.retrieve(intentId)) };
  });
}

function createInstalmentCheckout(stripe: Stripe, input: InstalmentCheckoutInput): Promise<{ id: string; url: string }> {
  return calling("open its payment page", async () => {
    await ensureProduct(stripe, input.product);
    const session = await stripe.checkout.sessions.create(
      {
        mode: "subscription",
        line_items: [{ quantity: 1, price_data: monthlyPrice(input.currency, input.product.id, input.amount) }],
        customer_email: input.customerEmail,
        metadata: input.metadata,
        subscription_data: { description: input.description, metadata: input.metadata },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      },
      { idempotencyKey: input.idempotencyKey },
    );
    if (!session.url) throw new Error("the session has no address");
    return { id: session.id, url: session.url };
  });
}

function getInvoice(stripe: Stripe, id: string): Promise<InvoiceState | null> {
  return calling(
    "look up the invoice",
    async () => {
      const invoice = await stripe.invoices.retrieve(id, { expand: ["payments"] });
      const paid = invoice.payments?.data.find((p) => p.status === "paid") ?? invoice.payments?.data[0];
      const intent = paid?.payment.type === "payment_intent" ? paid.payment.payment_intent : null;
      return {
        id: invoice.id!,
        subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
        paid: invoice.status === "paid",
        amountPaid: invoice.amount_paid,
        currency: invoice.currency,
        billingReason: invoice.billing_reason ?? null,
        paymentId: idOf(intent),
        metadata: invoice.parent?.subscription_details?.metadata ?? {},
      };
    },
    () => null,
  );
}

function endInstalmentPlanNow(stripe: Stripe, subscriptionId: string, { idempotencyKey }: { idempotencyKey: string }): Promise<void> {
  return calling(
    "end the monthly payments",
    async () => {
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      if (subscription.status === "canceled" || subscription.status === "incomplete_expired") return;
      await stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey });
    },
    () => undefined,
  );
}

function cancelInstalmentPlan(stripe: Stripe, subscriptionId: string, { idempotencyKey }: { idempotencyKey: string }): Promise<void> {
  return calling("cancel the monthly payments", async () => {
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    if (subscription.status === "canceled") return;
    // A subscription run by a schedule refuses cancellation settings of its own: release it first.
    const scheduleId = idOf(subscription.schedule);
    if (scheduleId) await stripe.subscriptionSchedules.release(scheduleId, {}, { idempotencyKey: `${idempotencyKey}:release` });
    await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }, { idempotencyKey: `${idempotencyKey}:cancel` });
  });
}

function resumeInstalmentPlan(stripe: Stripe, subscriptionId: string, input: InstalmentScheduleInput): Promise<void> {
  return calling("resume the monthly payments", async () => {
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    if (subscription.status === "canceled") throw new Error(`subscription ${subscriptionId} has ended`);
    if (subscription.cancel_at_period_end)
      await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: false }, { idempotencyKey: `${input.idempotencyKey}:resume` });
    await schedule(stripe, subscriptionId, input);
  });
}

// ───────────────────────────── webhooks ─────────────────────────────

function verifyWebhook(stripe: Stripe, webhookSecret: string, rawBody: string, signature: string | null): WebhookEvent {
  if (!signature) throw new WebhookRejectedError("Missing Stripe-Signature header");
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (error) {
    throw new WebhookRejectedError(error instanceof Error ? error.message : "Invalid signature");
  }
  return { id: event.id, type: event.type, subject: subjectOf(event) };
}

/** What a verified event is about, for the events that can complete an order or a plan; null for the rest. */
function subjectOf(event: Stripe.Event): WebhookEvent["subject"] {
  const object = event.data.object as { id?: unknown; object?: unknown; metadata?: Record<string, string> | null };
  const id = typeof object.id === "string" ? object.id : null;
  const metadata = object.metadata ?? {};
  let subject: WebhookEvent["subject"] = null;
  if (id && event.type === "payment_intent.succeeded") subject = { kind: "payment", id, metadata };
  if (id && (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded"))
    subject = { kind: "session", id, metadata };
  if (event.type === "invoice.paid" || event.type === "invoice.payment_failed") {
    const invoice = event.data.object as Stripe.Invoice;
    const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
    if (invoice.id && subscriptionId) {
      subject = {
        kind: event.type === "invoice.paid" ? "invoice-paid" : "invoice-failed",
        invoice: {
          id: invoice.id,
          subscriptionId,
          amountPaid: invoice.amount_paid,
          amountDue: invoice.amount_due,
          currency: invoice.currency,
          billingReason: invoice.billing_reason ?? null,
          attemptCount: invoice.attempt_count ?? 0,
          metadata: invoice.parent?.subscription_details?.metadata ?? {},
        },
      };
    }
  }
  if (id && event.type === "customer.subscription.deleted") subject = { kind: "subscription-ended", subscriptionId: id };
  return subject;
}

// ───────────────────────────── the provider ─────────────────────────────

export function stripeProvider(settings: Extract<PaymentSettings, { provider: "stripe" }>): PaymentProvider {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : null;
  const stripe = new Stripe(settings.secretKey, {
    ...(api ? { host: api.hostname, port: api.port || (api.protocol === "http:" ? 80 : 443), protocol: api.protocol === "http:" ? "http" : "https" } : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: "Everlight" },
  });
  return {
    name: "stripe",
    isTest: settings.secretKey.includes("_test_"),
    publishableKey: settings.publishableKey,
    createPayment: (input) => createPayment(stripe, input),
    getPayment: (id) => getPayment(stripe, id),
    createHostedCheckout: (input) => createHostedCheckout(stripe, input),
    getHostedCheckout: (id) => getHostedCheckout(stripe, id),
    refund: (paymentId, options) => refund(stripe, paymentId, options),
    cancelPayment: (id, options) => cancelPayment(stripe, id, options),
    createInstalmentPlan: (input) => createInstalmentPlan(stripe, input),
    scheduleInstalmentPlan: (subscriptionId, input) => calling("schedule the monthly payments", () => schedule(stripe, subscriptionId, input)),
    createInstalmentCheckout: (input) => createInstalmentCheckout(stripe, input),
    getInvoice: (id) => getInvoice(stripe, id),
    endInstalmentPlanNow: (subscriptionId, options) => endInstalmentPlanNow(stripe, subscriptionId, options),
    cancelInstalmentPlan: (subscriptionId, options) => cancelInstalmentPlan(stripe, subscriptionId, options),
    resumeInstalmentPlan: (subscriptionId, input) => resumeInstalmentPlan(stripe, subscriptionId, input),
    verifyWebhook: (rawBody, signature) => verifyWebhook(stripe, settings.webhookSecret, rawBody, signature),
  };
}
