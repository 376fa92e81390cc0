// The payments adapter's one interface (docs/decisions/016-money-by-lifecycle.md).
// Two providers answer it: Stripe (./stripe-provider.server.ts) when STRIPE_SECRET_KEY and
// STRIPE_PUBLISHABLE_KEY are set, the built-in test provider (./test-provider.server.ts) otherwise;
// app/services/payments.server.ts chooses one.
// The provider knows nothing of baskets, users or orders (app/models/commerce/ holds those rules):
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

export type ProviderResult<T> = { ok: true; value: T } | { ok: false; error: PaymentProviderError };

/**
 * Asks a provider something: its answer, or the PaymentProviderError it gave (logged, with `context` in
 * front when given), for the caller to say "Payment Error" and keep nothing. Any other error is a bug and
 * is thrown as it is.
 */
export async function askProvider<T>(ask: () => Promise<T>, context?: string): Promise<ProviderResult<T>> {
  try {
    return { ok: true, value: await ask() };
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    console.error(context ? `${context}: ${error.message}` : error.message);
    return { ok: false, error };
  }
}
