import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { prisma } from "./db.server";
import { getEnv, paymentSettings, type Env, type PaymentSettings } from "./env.server";

// The payments adapter (DESIGN.md "payments"; issue 16 §4): one interface, two providers.
// - Stripe (`stripe` on the server) when STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set: a
//   PaymentIntent for the embedded Payment Element (with JavaScript), a Checkout Session for the page
//   without it, refunds, and signed webhooks.
// - A built-in test provider otherwise, so that `npm start` has a working shop: its payments live in the
//   `test_payments` table, are paid by pressing a clearly labelled button, and move no money.
// The provider knows nothing of baskets, users or orders (app/models/order.server.ts holds those rules):
// it is asked for amounts in pence and answers what it knows about payments. Every create carries an
// idempotency key, so a retried request never makes a second payment, session or refund.

export type PaymentState = "succeeded" | "processing" | "unpaid" | "canceled";

export type ProviderPayment = {
  id: string;
  status: PaymentState;
  /** pence */
  amount: number;
  currency: string;
  /** false for Stripe's test mode and for the test provider: no money moved. */
  live: boolean;
  /** For the browser's payment form; never stored by us. */
  clientSecret: string | null;
  /** The provider's words when a payment attempt failed. */
  failureMessage: string | null;
  /** What we attached when we made it (a plan payment's ids); empty for a subscription invoice's payment. */
  metadata: Record<string, string>;
};

export type HostedCheckoutState = {
  id: string;
  /** The payment succeeded (paid), or nothing of it is known yet. */
  paid: boolean;
  /** The payment behind the session, once there is one. */
  paymentId: string | null;
  amount: number;
  currency: string;
  /** What we attached when we opened it (which purchase it pays for). */
  metadata: Record<string, string>;
  /** payment (one payment) or subscription (monthly: a subscription whose first invoice Checkout paid). */
  mode: "payment" | "subscription";
  /** The buyer finished on the page (Stripe's status complete). */
  complete: boolean;
  /** mode subscription: the subscription Checkout made, and its first invoice. */
  subscriptionId: string | null;
  invoiceId: string | null;
};

/** A subscription's invoice as Stripe answers it now (the first one, paid on Checkout's page). */
export type InvoiceState = {
  id: string;
  subscriptionId: string | null;
  paid: boolean;
  amountPaid: number;
  currency: string;
  billingReason: string | null;
  /** The PaymentIntent that paid it. */
  paymentId: string | null;
  /** The subscription's metadata as the invoice carries it (which plan payment it is for). */
  metadata: Record<string, string>;
};

/** A monthly invoice of a Stripe subscription, as its signed webhook reports it. */
export type InvoiceFacts = {
  id: string;
  subscriptionId: string;
  /** pence actually paid (invoice.paid) or due (invoice.payment_failed) */
  amountPaid: number;
  amountDue: number;
  currency: string;
  /** subscription_create for the first invoice (paid in the Payment Element), subscription_cycle after */
  billingReason: string | null;
  attemptCount: number;
  /** The subscription's metadata (which plan payment it was opened for). */
  metadata: Record<string, string>;
};

export type WebhookEvent = {
  id: string;
  type: string;
  /** What the event is about, for the events that can complete an order or a plan; null for the rest. */
  subject:
    | { kind: "payment"; id: string; metadata: Record<string, string> }
    | { kind: "session"; id: string; metadata: Record<string, string> }
    | { kind: "invoice-paid" | "invoice-failed"; invoice: InvoiceFacts }
    | { kind: "subscription-ended"; subscriptionId: string }
    | null;
};

/** A Stripe subscription paying a plan in instalments: `phases` in order, each `count` months of `amount`. */
export type InstalmentPlanInput = {
  currency: string;
  /** Stable per purchase: a retried request makes no second customer or subscription. */
  idempotencyKey: string;
  customerEmail: string;
  product: { id: string; name: string };
  phases: { amount: number; count: number }[];
  metadata: Record<string, string>;
};

export type CreatePaymentInput = {
  amount: number;
  currency: string;
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
};

export type HostedCheckoutInput = CreatePaymentInput & {
  lines: { name: string; quantity: number; unitAmount: number }[];
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
};

/** Stripe Checkout in subscription mode: the first month's price (recurring monthly) on the plan's product. */
export type InstalmentCheckoutInput = Omit<HostedCheckoutInput, "lines"> & { product: { id: string; name: string } };

/** Puts a subscription on a schedule of `phases` that cancels it after the last one. */
export type InstalmentScheduleInput = {
  currency: string;
  idempotencyKey: string;
  product: { id: string; name: string };
  phases: { amount: number; count: number }[];
  metadata: Record<string, string>;
};

export interface PaymentProvider {
  readonly name: "stripe" | "test";
  /** Orders it makes are test orders (the test provider always; Stripe in test mode). */
  readonly isTest: boolean;
  /** For Stripe.js in the browser; null for the test provider. */
  readonly publishableKey: string | null;
  createPayment(input: CreatePaymentInput): Promise<ProviderPayment>;
  /** The payment as the provider knows it now; null when it has no such payment. */
  getPayment(id: string): Promise<ProviderPayment | null>;
  /** A hosted payment page (Stripe Checkout) for browsers without JavaScript. */
  createHostedCheckout(input: HostedCheckoutInput): Promise<{ id: string; url: string }>;
  getHostedCheckout(id: string): Promise<HostedCheckoutState | null>;
  /** Refunds a succeeded payment: in full, or `amount` pence of it. */
  refund(paymentId: string, options: { idempotencyKey: string; amount?: number }): Promise<{ id: string }>;
  /** Checks a webhook's signature and timestamp on its raw body; throws WebhookRejectedError. */
  verifyWebhook(rawBody: string, signature: string | null): WebhookEvent;
  /** The test provider's Pay button: the payment succeeds (no card, no money). */
  payTestPayment?(id: string): Promise<ProviderPayment | null>;
  /**
   * Stripe only: a subscription that charges the phases' amounts monthly and ends after the last one;
   * answers its id and the first invoice's payment, to be paid in the Payment Element.
   */
  createInstalmentPlan?(input: InstalmentPlanInput): Promise<{ subscriptionId: string; payment: ProviderPayment }>;
  /** Stripe only: no further invoices; the subscription ends when the period paid for ends. */
  cancelInstalmentPlan?(subscriptionId: string, options: { idempotencyKey: string }): Promise<void>;
  /** Stripe only: a cancelled subscription whose period has not ended goes on, on a schedule of the instalments left. */
  resumeInstalmentPlan?(subscriptionId: string, input: InstalmentScheduleInput): Promise<void>;
  /**
   * Cancels a payment nobody has paid yet (a Payment Element's, replaced by a Checkout page); answers the
   * payment as it is afterwards: canceled, or succeeded / processing when it could no longer be cancelled.
   */
  cancelPayment?(id: string, options: { idempotencyKey: string }): Promise<ProviderPayment | null>;
  /** Stripe only: Checkout in subscription mode, for paying monthly without JavaScript. */
  createInstalmentCheckout?(input: InstalmentCheckoutInput): Promise<{ id: string; url: string }>;
  /** Stripe only: an invoice, with the PaymentIntent that paid it. */
  getInvoice?(id: string): Promise<InvoiceState | null>;
  /** Stripe only: puts a subscription on the instalments' schedule (end_behavior cancel); idempotent. */
  scheduleInstalmentPlan?(subscriptionId: string, input: InstalmentScheduleInput): Promise<{ scheduleId: string }>;
  /** Stripe only: ends a subscription at once (an unpaid one replaced, or a second one refunded). */
  endInstalmentPlanNow?(subscriptionId: string, options: { idempotencyKey: string }): Promise<void>;
}

/** The provider could not be reached or refused the request: callers say "Payment Error" and keep nothing. */
export class PaymentProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PaymentProviderError";
  }
}

export class WebhookRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookRejectedError";
  }
}

/** How old a webhook's signed timestamp may be (Stripe's default tolerance): older ones are replays. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

// ───────────────────────────── Stripe ─────────────────────────────

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

export function stripeProvider(settings: Extract<PaymentSettings, { provider: "stripe" }>): PaymentProvider {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : null;
  const stripe = new Stripe(settings.secretKey, {
    ...(api ? { host: api.hostname, port: api.port || (api.protocol === "http:" ? 80 : 443), protocol: api.protocol === "http:" ? "http" : "https" } : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: "Everlight" },
  });
  const monthlyPrice = (currency: string, product: string, amount: number) => ({ currency, product, unit_amount: amount, recurring: { interval: "month" as const } });
  /** The product a plan's prices hang on (subscription prices need one): one per plan, made once. */
  async function ensureProduct(product: { id: string; name: string }) {
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
  async function schedule(subscriptionId: string, input: InstalmentScheduleInput): Promise<{ scheduleId: string }> {
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const existing = typeof subscription.schedule === "string" ? subscription.schedule : (subscription.schedule?.id ?? null);
    if (existing) {
      const current = await stripe.subscriptionSchedules.retrieve(existing);
      if (current.end_behavior === "cancel") return { scheduleId: existing };
    }
    const made = existing ? await stripe.subscriptionSchedules.retrieve(existing) : await stripe.subscriptionSchedules.create({ from_subscription: subscriptionId }, { idempotencyKey: `${input.idempotencyKey}:schedule` });
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
  return {
    name: "stripe",
    isTest: settings.secretKey.includes("_test_"),
    publishableKey: settings.publishableKey,

    async createPayment(input) {
      try {
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
      } catch (error) {
        throw providerError("create the payment", error);
      }
    },

    async getPayment(id) {
      try {
        return fromIntent(await stripe.paymentIntents.retrieve(id));
      } catch (error) {
        if (isMissing(error)) return null;
        throw providerError("look up the payment", error);
      }
    },

    async createHostedCheckout(input) {
      try {
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
      } catch (error) {
        throw providerError("open its payment page", error);
      }
    },

    async getHostedCheckout(id) {
      try {
        const session = await stripe.checkout.sessions.retrieve(id);
        const paymentId = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
        const subscriptionId = typeof session.subscription === "string" ? session.subscription : (session.subscription?.id ?? null);
        const invoiceId = typeof session.invoice === "string" ? session.invoice : (session.invoice?.id ?? null);
        return {
          id: session.id,
          paid: session.payment_status === "paid",
          paymentId,
          amount: session.amount_total ?? 0,
          currency: session.currency ?? "",
          metadata: session.metadata ?? {},
          mode: session.mode === "subscription" ? "subscription" : "payment",
          complete: session.status === "complete",
          subscriptionId,
          invoiceId,
        };
      } catch (error) {
        if (isMissing(error)) return null;
        throw providerError("look up the payment page", error);
      }
    },

    async refund(paymentId, { idempotencyKey, amount }) {
      try {
        const refund = await stripe.refunds.create({ payment_intent: paymentId, reason: "requested_by_customer", ...(amount === undefined ? {} : { amount }) }, { idempotencyKey });
        return { id: refund.id };
      } catch (error) {
        throw providerError("refund the payment", error);
      }
    },

    async createInstalmentPlan(input) {
      try {
        await ensureProduct(input.product);
        const customer = await stripe.customers.create({ email: input.customerEmail, metadata: input.metadata }, { idempotencyKey: `${input.idempotencyKey}:customer` });
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
        await schedule(subscription.id, input);
        const invoice = subscription.latest_invoice;
        const secret = typeof invoice === "object" ? invoice?.confirmation_secret?.client_secret : null;
        // A PaymentIntent's client secret is "<its id>_secret_<…>".
        const intentId = secret?.split("_secret_")[0];
        if (!intentId?.startsWith("pi_")) throw new Error("the first invoice has no payment to confirm");
        return { subscriptionId: subscription.id, payment: fromIntent(await stripe.paymentIntents.retrieve(intentId)) };
      } catch (error) {
        throw providerError("set up the monthly payments", error);
      }
    },

    async scheduleInstalmentPlan(subscriptionId, input) {
      try {
        return await schedule(subscriptionId, input);
      } catch (error) {
        throw providerError("schedule the monthly payments", error);
      }
    },

    async createInstalmentCheckout(input) {
      try {
        await ensureProduct(input.product);
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
      } catch (error) {
        throw providerError("open its payment page", error);
      }
    },

    async getInvoice(id) {
      try {
        const invoice = await stripe.invoices.retrieve(id, { expand: ["payments"] });
        const sub = invoice.parent?.subscription_details?.subscription;
        const paid = invoice.payments?.data.find((p) => p.status === "paid") ?? invoice.payments?.data[0];
        const intent = paid?.payment.type === "payment_intent" ? paid.payment.payment_intent : null;
        return {
          id: invoice.id!,
          subscriptionId: typeof sub === "string" ? sub : (sub?.id ?? null),
          paid: invoice.status === "paid",
          amountPaid: invoice.amount_paid,
          currency: invoice.currency,
          billingReason: invoice.billing_reason ?? null,
          paymentId: typeof intent === "string" ? intent : (intent?.id ?? null),
          metadata: invoice.parent?.subscription_details?.metadata ?? {},
        };
      } catch (error) {
        if (isMissing(error)) return null;
        throw providerError("look up the invoice", error);
      }
    },

    async cancelPayment(id, { idempotencyKey }) {
      try {
        return fromIntent(await stripe.paymentIntents.cancel(id, { cancellation_reason: "abandoned" }, { idempotencyKey }));
      } catch (error) {
        if (isMissing(error)) return null;
        // Paid (or being paid) a moment ago: Stripe refuses to cancel it; the caller looks at what it is now.
        if (error instanceof Stripe.errors.StripeError && error.code === "payment_intent_unexpected_state") {
          return fromIntent(await stripe.paymentIntents.retrieve(id).catch((e: unknown) => Promise.reject(providerError("look up the payment", e))));
        }
        throw providerError("cancel the payment", error);
      }
    },

    async endInstalmentPlanNow(subscriptionId, { idempotencyKey }) {
      try {
        const subscription = await stripe.subscriptions.retrieve(subscriptionId);
        if (subscription.status === "canceled" || subscription.status === "incomplete_expired") return;
        await stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey });
      } catch (error) {
        if (isMissing(error)) return;
        throw providerError("end the monthly payments", error);
      }
    },

    async cancelInstalmentPlan(subscriptionId, { idempotencyKey }) {
      try {
        const subscription = await stripe.subscriptions.retrieve(subscriptionId);
        if (subscription.status === "canceled") return;
        // A subscription run by a schedule refuses cancellation settings of its own: release it first.
        const scheduleId = typeof subscription.schedule === "string" ? subscription.schedule : subscription.schedule?.id;
        if (scheduleId) await stripe.subscriptionSchedules.release(scheduleId, {}, { idempotencyKey: `${idempotencyKey}:release` });
        await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }, { idempotencyKey: `${idempotencyKey}:cancel` });
      } catch (error) {
        throw providerError("cancel the monthly payments", error);
      }
    },

    async resumeInstalmentPlan(subscriptionId, input) {
      try {
        const subscription = await stripe.subscriptions.retrieve(subscriptionId);
        if (subscription.status === "canceled") throw new Error(`subscription ${subscriptionId} has ended`);
        if (subscription.cancel_at_period_end) await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: false }, { idempotencyKey: `${input.idempotencyKey}:resume` });
        await schedule(subscriptionId, input);
      } catch (error) {
        throw providerError("resume the monthly payments", error);
      }
    },

    verifyWebhook(rawBody, signature) {
      if (!signature) throw new WebhookRejectedError("Missing Stripe-Signature header");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (error) {
        throw new WebhookRejectedError(error instanceof Error ? error.message : "Invalid signature");
      }
      const object = event.data.object as { id?: unknown; object?: unknown; metadata?: Record<string, string> | null };
      const id = typeof object.id === "string" ? object.id : null;
      const metadata = object.metadata ?? {};
      let subject: WebhookEvent["subject"] = null;
      if (id && event.type === "payment_intent.succeeded") subject = { kind: "payment", id, metadata };
      if (id && (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded")) subject = { kind: "session", id, metadata };
      if (event.type === "invoice.paid" || event.type === "invoice.payment_failed") {
        const invoice = event.data.object as Stripe.Invoice;
        const sub = invoice.parent?.subscription_details?.subscription;
        const subscriptionId = typeof sub === "string" ? sub : (sub?.id ?? null);
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
      return { id: event.id, type: event.type, subject };
    },
  };
}

// ───────────────────────────── the test provider ─────────────────────────────

type TestRow = { id: string; amount: number; currency: string; status: string; metadata?: unknown };

function fromTestRow(row: TestRow): ProviderPayment {
  return {
    id: row.id,
    status: row.status === "succeeded" ? "succeeded" : row.status === "canceled" ? "canceled" : "unpaid",
    amount: row.amount,
    currency: row.currency,
    live: false,
    // Nothing secret: paying a test payment needs the buyer's own session (app/models/order.server.ts).
    clientSecret: `${row.id}_secret_test`,
    failureMessage: null,
    metadata: row.metadata && typeof row.metadata === "object" ? (row.metadata as Record<string, string>) : {},
  };
}

/** A test payment's id: recognisably not Stripe's. */
export const TEST_PAYMENT_PREFIX = "testpay_";

export const testProvider: PaymentProvider = {
  name: "test",
  isTest: true,
  publishableKey: null,

  async createPayment(input) {
    // Made once per idempotency key even when two requests race (INSERT … ON CONFLICT DO NOTHING, then
    // read): an upsert here let the second of two concurrent creates fail on the unique key.
    await prisma().testPayment.createMany({
      data: [
        {
          id: `${TEST_PAYMENT_PREFIX}${randomBytes(12).toString("hex")}`,
          idempotencyKey: input.idempotencyKey,
          amount: input.amount,
          currency: input.currency,
          metadata: input.metadata,
        },
      ],
      skipDuplicates: true,
    });
    const row = await prisma().testPayment.findUniqueOrThrow({ where: { idempotencyKey: input.idempotencyKey } });
    return fromTestRow(row);
  },

  async getPayment(id) {
    if (!id.startsWith(TEST_PAYMENT_PREFIX)) return null;
    const row = await prisma().testPayment.findUnique({ where: { id } });
    return row ? fromTestRow(row) : null;
  },

  async createHostedCheckout() {
    // The test provider's own step works without JavaScript; nothing hosted elsewhere is needed.
    throw new PaymentProviderError("The test provider has no hosted payment page");
  },

  async getHostedCheckout() {
    return null;
  },

  async refund(paymentId, { amount }) {
    // One refund per payment (in full, or the part asked), in one statement, so a repeated refund changes nothing.
    const refunded = await prisma().$executeRaw`UPDATE "test_payments" SET "amountRefunded" = LEAST("amount", COALESCE(${amount ?? null}::int, "amount")), "updatedAt" = now() WHERE "id" = ${paymentId} AND "status" = 'succeeded'`;
    if (!refunded) throw new PaymentProviderError("No such succeeded test payment to refund");
    return { id: `testrefund_${paymentId.slice(TEST_PAYMENT_PREFIX.length)}` };
  },

  verifyWebhook() {
    throw new WebhookRejectedError("Stripe webhooks are not configured (the built-in test provider takes payments)");
  },

  async payTestPayment(id) {
    if (!id.startsWith(TEST_PAYMENT_PREFIX)) return null;
    await prisma().testPayment.updateMany({ where: { id, status: "requires_payment_method" }, data: { status: "succeeded" } });
    const row = await prisma().testPayment.findUnique({ where: { id } });
    return row ? fromTestRow(row) : null;
  },
};

// ───────────────────────────── which one ─────────────────────────────

let cached: { env: Env; provider: PaymentProvider } | undefined;

export function createPaymentProvider(settings: PaymentSettings): PaymentProvider {
  return settings.provider === "stripe" ? stripeProvider(settings) : testProvider;
}

/** The process's payment provider, as configured (checked at start-up by env.server.ts). */
export function getPaymentProvider(): PaymentProvider {
  const env = getEnv();
  if (cached?.env !== env) cached = { env, provider: createPaymentProvider(paymentSettings(env)) };
  return cached.provider;
}
