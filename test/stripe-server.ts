import { randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { readBody } from "./read-body";

// A local stand-in for the parts of Stripe's API that Everlight calls, so tests run offline: the real
// `stripe` package talks to it through STRIPE_API_URL (host, port and protocol).
// PaymentIntents (create, retrieve, cancel), Checkout Sessions (create in payment or subscription mode,
// retrieve), Refunds (create), and for the plans' monthly payments Customers, Products, Subscriptions (create
// incomplete with a first invoice, retrieve, update, cancel), Invoices (retrieve, with their payments) and
// Subscription Schedules (from a subscription, retrieve, update phases, release), with
// Stripe's idempotency keys (the same key answers the same object; a key reused with other parameters is
// refused) and its error shape. It records every request, and the test plays the buyer: `succeed(pi)` is a
// card payment going through, `completeSession(cs)` paying on the Checkout page (in subscription mode: a
// customer and an active subscription whose first invoice is paid, as Checkout makes them). `event(…)` builds a
// webhook event and `sign(…)` signs it with the official stripe.webhooks.generateTestHeaderString.

export type RecordedStripeRequest = { method: string; path: string; idempotencyKey: string | null; authorization: string | null; body: Record<string, any> };

type Intent = {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  description: string | null;
  metadata: Record<string, string>;
  livemode: boolean;
  last_payment_error: { message: string } | null;
  created: number;
};
type Session = {
  id: string;
  object: "checkout.session";
  mode: string;
  url: string;
  amount_total: number;
  currency: string;
  payment_status: "unpaid" | "paid";
  status: "open" | "complete";
  payment_intent: string | null;
  /** mode subscription: made when the buyer pays */
  subscription: string | null;
  invoice: string | null;
  subscription_data: { metadata: Record<string, string>; description: string | null } | null;
  customer_email: string | null;
  client_reference_id: string | null;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
  line_items_sent: { name: string; quantity: number; unit_amount: number }[];
  livemode: boolean;
};
type Refund = { id: string; object: "refund"; amount: number; payment_intent: string; status: "succeeded"; reason: string | null };
export type Invoice = {
  id: string;
  object: "invoice";
  customer: string;
  parent: { type: "subscription_details"; subscription_details: { subscription: string; metadata: Record<string, string> } };
  amount_due: number;
  amount_paid: number;
  currency: string;
  status: "open" | "paid" | "void";
  billing_reason: "subscription_create" | "subscription_cycle";
  attempt_count: number;
  payments: {
    object: "list";
    data: { object: "invoice_payment"; status: "open" | "paid" | "canceled"; payment: { type: "payment_intent"; payment_intent: string } }[];
  };
  confirmation_secret: { type: "payment_intent"; client_secret: string } | null;
  livemode: boolean;
};
export type Subscription = {
  id: string;
  object: "subscription";
  customer: string;
  status: "incomplete" | "active" | "past_due" | "canceled";
  canceled_at: number | null;
  items: { object: "list"; data: { price: { unit_amount: number; currency: string; product: string; recurring: { interval: string } } }[] };
  metadata: Record<string, string>;
  schedule: string | null;
  cancel_at_period_end: boolean;
  latest_invoice: string | Invoice;
  start_date: number;
  livemode: boolean;
};
export type Schedule = {
  id: string;
  object: "subscription_schedule";
  subscription: string;
  status: "active" | "released" | "canceled";
  end_behavior: string;
  phases: {
    start_date: number;
    end_date: number | null;
    items: { price_data?: { unit_amount: string | number }; price?: string }[];
    duration?: { interval: string; interval_count: string | number };
  }[];
  metadata: Record<string, string>;
};

export type StripeTestServer = {
  /** For STRIPE_API_URL. */
  url: string;
  requests: RecordedStripeRequest[];
  intents: Map<string, Intent>;
  sessions: Map<string, Session>;
  refunds: Refund[];
  customers: Map<string, { id: string; object: "customer"; email: string | null; metadata: Record<string, string> }>;
  products: Map<string, { id: string; object: "product"; name: string }>;
  subscriptions: Map<string, Subscription>;
  schedules: Map<string, Schedule>;
  invoices: Map<string, Invoice>;
  /** The PaymentIntent of a subscription's first invoice (the one the Payment Element pays). */
  firstIntentOf: (subscriptionId: string) => Intent;
  /**
   * Stripe bills the next month of a subscription, at the amount its schedule says for that month, and the
   * saved card pays (or, with `fail`, is declined): the invoice, for an invoice.paid / invoice.payment_failed event.
   */
  billNextMonth: (subscriptionId: string, options?: { fail?: boolean }) => Invoice;
  /** The buyer's card goes through: the payment succeeds (as Stripe.js confirming it would). */
  succeed: (intentId: string) => Intent;
  /** The card was declined: the payment needs another method. */
  decline: (intentId: string, message?: string) => Intent;
  /** While true, Stripe cannot be reached for refunds (503, as an outage answers): they must be retried. */
  refundsDown: boolean;
  /** While true, every request is answered 503 (an outage): nothing changes on Stripe's side. */
  unreachable: boolean;
  /**
   * The buyer pays on the Checkout page: a succeeded PaymentIntent is made for the session (mode payment),
   * or a customer and an active subscription whose first invoice that PaymentIntent paid (mode subscription).
   */
  completeSession: (sessionId: string) => Session;
  /** A webhook event about this object, as Stripe sends it. */
  event: (type: string, object: object, id?: string) => string;
  /** The Stripe-Signature header for a payload (the official helper), at a given time if asked. */
  sign: (payload: string, options?: { secret?: string; timestamp?: number }) => string;
  stop: () => Promise<void>;
};

export const STRIPE_TEST_KEYS = {
  STRIPE_SECRET_KEY: "sk_test_everlightlocal",
  STRIPE_PUBLISHABLE_KEY: "pk_test_everlightlocal",
  STRIPE_WEBHOOK_SECRET: "whsec_everlightlocal",
} as const;

const signer = new Stripe("sk_test_signer");
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

/** Stripe's form encoding (`a[b][0][c]=x`) back into objects and arrays. */
export function parseStripeForm(text: string): Record<string, any> {
  const root: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, "").split("[");
    let node: any = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      if (last) node[part] = value;
      else node = node[part] ??= /^\d+$/.test(parts[i + 1]) ? [] : {};
    });
  }
  return root;
}

export async function startStripeServer(): Promise<StripeTestServer> {
  const requests: RecordedStripeRequest[] = [];
  const intents = new Map<string, Intent>();
  const sessions = new Map<string, Session>();
  const refunds: Refund[] = [];
  const customers: StripeTestServer["customers"] = new Map();
  const products: StripeTestServer["products"] = new Map();
  const subscriptions = new Map<string, Subscription>();
  const schedules = new Map<string, Schedule>();
  const invoices = new Map<string, Invoice>();
  const invoiceOfIntent = new Map<string, string>();
  const idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const state = { refundsDown: false, unreachable: false };

  const makeIntent = (amount: number, currency: string, metadata: Record<string, string>, description: string | null): Intent => {
    const intentId = id("pi");
    const intent: Intent = {
      id: intentId,
      object: "payment_intent",
      amount,
      amount_received: 0,
      currency,
      status: "requires_payment_method",
      client_secret: `${intentId}_secret_${randomBytes(8).toString("hex")}`,
      description,
      metadata,
      livemode: false,
      last_payment_error: null,
      created: Math.floor(Date.now() / 1000),
    };
    intents.set(intentId, intent);
    return intent;
  };

  const route = (method: string, path: string, body: Record<string, any>): [number, unknown] => {
    let match: RegExpExecArray | null;
    if (method === "POST" && path === "/v1/payment_intents") {
      const amount = Number(body.amount);
      if (!Number.isInteger(amount) || amount < 30) return [400, error("amount must be at least 30 pence", "parameter_invalid_integer")];
      return [200, makeIntent(amount, body.currency, body.metadata ?? {}, body.description ?? null)];
    }
    if (method === "GET" && (match = /^\/v1\/payment_intents\/([^/?]+)$/.exec(path))) {
      const intent = intents.get(match[1]);
      return intent ? [200, intent] : [404, missing("payment_intent", match[1])];
    }
    if (method === "POST" && (match = /^\/v1\/payment_intents\/([^/?]+)\/cancel$/.exec(path))) {
      const intent = intents.get(match[1]);
      if (!intent) return [404, missing("payment_intent", match[1])];
      if (invoiceOfIntent.has(intent.id))
        return [400, error("You cannot cancel this PaymentIntent because it was created by an invoice.", "payment_intent_invoice_cancel")];
      if (intent.status === "succeeded" || intent.status === "processing" || intent.status === "canceled") {
        return [400, error(`You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`, "payment_intent_unexpected_state")];
      }
      intent.status = "canceled";
      return [200, intent];
    }
    if (method === "GET" && (match = /^\/v1\/invoices\/([^/?]+)$/.exec(path))) {
      const invoice = invoices.get(match[1]);
      return invoice ? [200, invoice] : [404, missing("invoice", match[1])];
    }
    if (method === "POST" && path === "/v1/checkout/sessions" && body.mode === "subscription") {
      const line = body.line_items?.[0];
      const price = line?.price_data;
      if (!price?.recurring)
        return [400, error("You must provide at least one recurring price in `subscription` mode when using prices.", "parameter_invalid")];
      if (!products.has(price.product)) return [400, error("line_items[0][price_data][product] must be an existing product", "resource_missing")];
      if (body.payment_intent_data) return [400, error("You can not pass `payment_intent_data` in `subscription` mode.", "parameter_unknown")];
      const sessionId = id("cs_test");
      const session: Session = {
        id: sessionId,
        object: "checkout.session",
        mode: "subscription",
        url: `https://checkout.stripe.com/c/pay/${sessionId}`,
        amount_total: Number(price.unit_amount) * Number(line.quantity ?? 1),
        currency: price.currency,
        payment_status: "unpaid",
        status: "open",
        payment_intent: null,
        subscription: null,
        invoice: null,
        subscription_data: { metadata: body.subscription_data?.metadata ?? {}, description: body.subscription_data?.description ?? null },
        customer_email: body.customer_email ?? null,
        client_reference_id: body.client_reference_id ?? null,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        metadata: body.metadata ?? {},
        line_items_sent: [{ name: products.get(price.product)!.name, quantity: Number(line.quantity ?? 1), unit_amount: Number(price.unit_amount) }],
        livemode: false,
      };
      sessions.set(sessionId, session);
      return [200, session];
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const lines = ((body.line_items ?? []) as any[]).map((l) => ({
        name: l.price_data.product_data.name,
        quantity: Number(l.quantity),
        unit_amount: Number(l.price_data.unit_amount),
      }));
      const sessionId = id("cs_test");
      const session: Session = {
        id: sessionId,
        object: "checkout.session",
        mode: body.mode,
        url: `https://checkout.stripe.com/c/pay/${sessionId}`,
        amount_total: lines.reduce((sum, l) => sum + l.quantity * l.unit_amount, 0),
        currency: lines.length ? (body.line_items[0].price_data.currency as string) : "gbp",
        payment_status: "unpaid",
        status: "open",
        payment_intent: null,
        subscription: null,
        invoice: null,
        subscription_data: null,
        customer_email: body.customer_email ?? null,
        client_reference_id: body.client_reference_id ?? null,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        metadata: body.metadata ?? {},
        line_items_sent: lines,
        livemode: false,
      };
      sessions.set(sessionId, session);
      return [200, session];
    }
    if (method === "GET" && (match = /^\/v1\/checkout\/sessions\/([^/?]+)$/.exec(path))) {
      const session = sessions.get(match[1]);
      return session ? [200, session] : [404, missing("checkout.session", match[1])];
    }
    if (method === "POST" && path === "/v1/customers") {
      const customer = { id: id("cus"), object: "customer" as const, email: body.email ?? null, metadata: body.metadata ?? {} };
      customers.set(customer.id, customer);
      return [200, customer];
    }
    if (method === "GET" && (match = /^\/v1\/products\/([^/?]+)$/.exec(path))) {
      const product = products.get(match[1]);
      return product ? [200, product] : [404, missing("product", match[1])];
    }
    if (method === "POST" && path === "/v1/products") {
      const productId = body.id ?? id("prod");
      if (products.has(productId)) return [400, error(`Product already exists.`, "resource_already_exists")];
      const product = { id: productId, object: "product" as const, name: body.name };
      products.set(productId, product);
      return [200, product];
    }
    if (method === "POST" && path === "/v1/subscriptions") {
      if (!customers.has(body.customer)) return [404, missing("customer", body.customer)];
      const item = body.items?.[0]?.price_data;
      if (!item || !products.has(item.product)) return [400, error("items[0][price_data][product] must be an existing product", "resource_missing")];
      if (body.payment_behavior !== "default_incomplete")
        return [400, error("This customer has no attached payment source or default payment method.", "resource_missing")];
      const amount = Number(item.unit_amount);
      const subId = id("sub");
      const intent = makeIntent(amount, item.currency, {}, "Subscription creation");
      const invoice: Invoice = {
        id: id("in"),
        object: "invoice",
        customer: body.customer,
        parent: { type: "subscription_details", subscription_details: { subscription: subId, metadata: body.metadata ?? {} } },
        amount_due: amount,
        amount_paid: 0,
        currency: item.currency,
        status: "open",
        billing_reason: "subscription_create",
        attempt_count: 0,
        payments: { object: "list", data: [{ object: "invoice_payment", status: "open", payment: { type: "payment_intent", payment_intent: intent.id } }] },
        confirmation_secret: { type: "payment_intent", client_secret: intent.client_secret },
        livemode: false,
      };
      invoices.set(invoice.id, invoice);
      invoiceOfIntent.set(intent.id, invoice.id);
      const subscription: Subscription = {
        id: subId,
        object: "subscription",
        customer: body.customer,
        status: "incomplete",
        canceled_at: null,
        items: {
          object: "list",
          data: [{ price: { unit_amount: amount, currency: item.currency, product: item.product, recurring: { interval: item.recurring?.interval } } }],
        },
        metadata: body.metadata ?? {},
        schedule: null,
        cancel_at_period_end: false,
        latest_invoice: invoice.id,
        start_date: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      subscriptions.set(subId, subscription);
      const expanded = ((body.expand ?? []) as string[]).some((e) => e.startsWith("latest_invoice"));
      return [200, { ...subscription, latest_invoice: expanded ? invoice : invoice.id }];
    }
    if (method === "GET" && (match = /^\/v1\/subscriptions\/([^/?]+)$/.exec(path))) {
      const subscription = subscriptions.get(match[1]);
      return subscription ? [200, subscription] : [404, missing("subscription", match[1])];
    }
    if (method === "DELETE" && (match = /^\/v1\/subscriptions\/([^/?]+)$/.exec(path))) {
      // Cancelled at once: its open invoices are voided (their payments cancelled), its schedule with it.
      const subscription = subscriptions.get(match[1]);
      if (!subscription) return [404, missing("subscription", match[1])];
      if (subscription.status === "canceled")
        return [400, error(`A canceled subscription can only update its cancellation_details and metadata.`, "resource_missing")];
      subscription.status = "canceled";
      subscription.canceled_at = Math.floor(Date.now() / 1000);
      for (const invoice of invoices.values()) {
        if (invoice.parent.subscription_details.subscription !== subscription.id || invoice.status !== "open") continue;
        invoice.status = "void";
        for (const p of invoice.payments.data) {
          const intent = intents.get(p.payment.payment_intent);
          if (intent && intent.status !== "succeeded") {
            intent.status = "canceled";
            p.status = "canceled";
          }
        }
      }
      if (subscription.schedule) schedules.get(subscription.schedule)!.status = "canceled";
      return [200, subscription];
    }
    if (method === "GET" && (match = /^\/v1\/subscription_schedules\/([^/?]+)$/.exec(path))) {
      const schedule = schedules.get(match[1]);
      return schedule ? [200, schedule] : [404, missing("subscription_schedule", match[1])];
    }
    if (method === "POST" && (match = /^\/v1\/subscriptions\/([^/?]+)$/.exec(path))) {
      const subscription = subscriptions.get(match[1]);
      if (!subscription) return [404, missing("subscription", match[1])];
      if (subscription.schedule && body.cancel_at_period_end !== undefined) {
        return [
          400,
          error(
            `The subscription is managed by the subscription schedule \`${subscription.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
            "parameter_invalid",
          ),
        ];
      }
      if (body.cancel_at_period_end !== undefined) subscription.cancel_at_period_end = body.cancel_at_period_end === "true";
      return [200, subscription];
    }
    if (method === "POST" && path === "/v1/subscription_schedules") {
      const subscription = subscriptions.get(body.from_subscription);
      if (!subscription) return [404, missing("subscription", body.from_subscription)];
      if (subscription.schedule) return [400, error("You cannot migrate a subscription that is already attached to a schedule.", "parameter_invalid")];
      const price = subscription.items.data[0].price;
      const schedule: Schedule = {
        id: id("sub_sched"),
        object: "subscription_schedule",
        subscription: subscription.id,
        status: "active",
        end_behavior: "release",
        phases: [{ start_date: subscription.start_date, end_date: null, items: [{ price_data: { unit_amount: price.unit_amount } }] }],
        metadata: {},
      };
      schedules.set(schedule.id, schedule);
      subscription.schedule = schedule.id;
      return [200, schedule];
    }
    if (method === "POST" && (match = /^\/v1\/subscription_schedules\/([^/?]+)\/release$/.exec(path))) {
      const schedule = schedules.get(match[1]);
      if (!schedule) return [404, missing("subscription_schedule", match[1])];
      if (schedule.status !== "active")
        return [400, error(`You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status.`, "parameter_invalid")];
      schedule.status = "released";
      subscriptions.get(schedule.subscription)!.schedule = null;
      return [200, schedule];
    }
    if (method === "POST" && (match = /^\/v1\/subscription_schedules\/([^/?]+)$/.exec(path))) {
      const schedule = schedules.get(match[1]);
      if (!schedule) return [404, missing("subscription_schedule", match[1])];
      const phases = (body.phases ?? []) as Schedule["phases"];
      if (phases.length && Number(phases[0].start_date) !== schedule.phases[0].start_date)
        return [400, error("You can not modify the start date of the current phase.", "parameter_invalid")];
      for (const phase of phases) {
        if (!phase.duration || phase.end_date) return [400, error("Each phase needs a duration (or an end_date).", "parameter_missing")];
        const product = (phase.items[0].price_data as { product?: string } | undefined)?.product;
        if (!product || !products.has(product)) return [400, error("phases[][items][][price_data][product] must be an existing product", "resource_missing")];
      }
      if (body.end_behavior) schedule.end_behavior = body.end_behavior;
      if (phases.length) schedule.phases = phases.map((p) => ({ ...p, start_date: Number(p.start_date ?? 0), end_date: null }));
      if (body.metadata) schedule.metadata = body.metadata;
      return [200, schedule];
    }
    if (method === "POST" && path === "/v1/refunds") {
      if (state.refundsDown) return [503, error("Stripe is temporarily unavailable.", "api_unavailable", "api_error")];
      const intent = intents.get(body.payment_intent);
      if (!intent) return [404, missing("payment_intent", body.payment_intent)];
      if (intent.status !== "succeeded") return [400, error("This PaymentIntent has no successful charge to refund.", "charge_not_refundable")];
      if (refunds.some((r) => r.payment_intent === intent.id))
        return [400, error(`Charge for ${intent.id} has already been refunded.`, "charge_already_refunded")];
      const asked = body.amount === undefined ? intent.amount_received : Number(body.amount);
      if (!Number.isInteger(asked) || asked < 1 || asked > intent.amount_received)
        return [400, error(`Refund amount (£${asked / 100}) is greater than charge amount (£${intent.amount_received / 100})`, "amount_too_large")];
      const refund: Refund = { id: id("re"), object: "refund", amount: asked, payment_intent: intent.id, status: "succeeded", reason: body.reason ?? null };
      refunds.push(refund);
      return [200, refund];
    }
    return [404, error(`Unrecognized request URL (${method}: ${path}).`, "resource_missing")];
  };

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const [path, query = ""] = (req.url ?? "").split("?");
    const body = parseStripeForm(req.method === "GET" ? query : raw);
    const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? null;
    requests.push({ method: req.method ?? "", path, idempotencyKey, authorization: (req.headers.authorization as string | undefined) ?? null, body });
    if (!/^Bearer sk_test_\w+$/.test(String(req.headers.authorization ?? ""))) {
      return send(res, 401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
    }
    if (state.unreachable) return send(res, 503, error("Stripe is temporarily unavailable.", "api_unavailable", "api_error"));
    if (req.method === "POST" && idempotencyKey) {
      const fingerprint = `${path} ${raw}`;
      const seen = idempotent.get(idempotencyKey);
      if (seen) {
        if (seen.fingerprint !== fingerprint)
          return send(
            res,
            400,
            error(
              "Keys for idempotent requests can only be used with the same parameters they were first used with.",
              "idempotency_key_in_use",
              "idempotency_error",
            ),
          );
        return send(res, seen.status, seen.body, { "Idempotent-Replayed": "true" });
      }
      const [status, answer] = route(req.method, path, body);
      // Stripe keeps the outcome of a key, except for a failure on its side, which may be retried.
      if (status < 500) idempotent.set(idempotencyKey, { fingerprint, status, body: answer });
      return send(res, status, answer);
    }
    const [status, answer] = route(req.method ?? "", path, body);
    send(res, status, answer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    intents,
    sessions,
    refunds,
    customers,
    products,
    subscriptions,
    schedules,
    invoices,
    firstIntentOf(subscriptionId) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) throw new Error(`No subscription ${subscriptionId}`);
      const first = [...invoices.values()].find(
        (i) => i.parent.subscription_details.subscription === subscriptionId && i.billing_reason === "subscription_create",
      )!;
      return intents.get(first.confirmation_secret!.client_secret.split("_secret_")[0])!;
    },
    billNextMonth(subscriptionId, options = {}) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription || subscription.status === "canceled") throw new Error(`No live subscription ${subscriptionId}`);
      const schedule = [...schedules.values()].find((s) => s.subscription === subscriptionId && s.status === "active");
      const billed = [...invoices.values()].filter((i) => i.parent.subscription_details.subscription === subscriptionId && i.status === "paid").length;
      // The month being billed (0-based), and its amount from the schedule's phases (or the subscription's price).
      let amount = subscription.items.data[0].price.unit_amount;
      if (schedule) {
        let month = 0;
        let found: number | null = null;
        for (const phase of schedule.phases) {
          const count = Number(phase.duration?.interval_count ?? 1);
          if (billed < month + count) {
            found = Number(phase.items[0].price_data!.unit_amount);
            break;
          }
          month += count;
        }
        if (found === null) throw new Error(`The schedule of ${subscriptionId} has ended (end_behavior ${schedule.end_behavior}): no month ${billed + 1}`);
        amount = found;
      }
      const existing = [...invoices.values()].find(
        (i) => i.parent.subscription_details.subscription === subscriptionId && i.status === "open" && i.billing_reason === "subscription_cycle",
      );
      const invoice: Invoice = existing ?? {
        id: id("in"),
        object: "invoice",
        customer: subscription.customer,
        parent: { type: "subscription_details", subscription_details: { subscription: subscriptionId, metadata: subscription.metadata } },
        amount_due: amount,
        amount_paid: 0,
        currency: subscription.items.data[0].price.currency,
        status: "open",
        billing_reason: "subscription_cycle",
        attempt_count: 0,
        payments: { object: "list", data: [] },
        confirmation_secret: null,
        livemode: false,
      };
      invoices.set(invoice.id, invoice);
      invoice.attempt_count++;
      if (!options.fail) {
        const intent = makeIntent(invoice.amount_due, invoice.currency, {}, "Subscription update");
        intent.status = "succeeded";
        intent.amount_received = intent.amount;
        invoiceOfIntent.set(intent.id, invoice.id);
        invoice.payments.data.push({ object: "invoice_payment", status: "paid", payment: { type: "payment_intent", payment_intent: intent.id } });
        invoice.status = "paid";
        invoice.amount_paid = invoice.amount_due;
        subscription.status = "active";
      } else subscription.status = "past_due";
      return { ...invoice };
    },
    get unreachable() {
      return state.unreachable;
    },
    set unreachable(value: boolean) {
      state.unreachable = value;
    },
    get refundsDown() {
      return state.refundsDown;
    },
    set refundsDown(value: boolean) {
      state.refundsDown = value;
    },
    succeed(intentId) {
      const intent = intents.get(intentId);
      if (!intent) throw new Error(`No PaymentIntent ${intentId}`);
      intent.status = "succeeded";
      intent.amount_received = intent.amount;
      // A subscription's first invoice is paid with its PaymentIntent, and the subscription starts.
      const invoice = invoices.get(invoiceOfIntent.get(intentId) ?? "");
      if (invoice) {
        for (const p of invoice.payments.data) if (p.payment.payment_intent === intentId) p.status = "paid";
        invoice.status = "paid";
        invoice.amount_paid = invoice.amount_due;
        invoice.attempt_count = 1;
        subscriptions.get(invoice.parent.subscription_details.subscription)!.status = "active";
      }
      return intent;
    },
    decline(intentId, message = "Your card was declined.") {
      const intent = intents.get(intentId);
      if (!intent) throw new Error(`No PaymentIntent ${intentId}`);
      intent.status = "requires_payment_method";
      intent.last_payment_error = { message };
      return intent;
    },
    completeSession(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`No Checkout Session ${sessionId}`);
      if (session.mode === "subscription") {
        // Checkout makes the customer and the subscription, and the card pays its first invoice there and then.
        const customer = { id: id("cus"), object: "customer" as const, email: session.customer_email, metadata: {} };
        customers.set(customer.id, customer);
        const line = session.line_items_sent[0];
        const product = [...products.values()].find((p) => p.name === line.name)!;
        const subId = id("sub");
        const intent = makeIntent(session.amount_total, session.currency, {}, "Subscription creation");
        intent.status = "succeeded";
        intent.amount_received = intent.amount;
        const metadata = session.subscription_data?.metadata ?? {};
        const invoice: Invoice = {
          id: id("in"),
          object: "invoice",
          customer: customer.id,
          parent: { type: "subscription_details", subscription_details: { subscription: subId, metadata } },
          amount_due: session.amount_total,
          amount_paid: session.amount_total,
          currency: session.currency,
          status: "paid",
          billing_reason: "subscription_create",
          attempt_count: 1,
          payments: { object: "list", data: [{ object: "invoice_payment", status: "paid", payment: { type: "payment_intent", payment_intent: intent.id } }] },
          confirmation_secret: null,
          livemode: false,
        };
        invoices.set(invoice.id, invoice);
        invoiceOfIntent.set(intent.id, invoice.id);
        subscriptions.set(subId, {
          id: subId,
          object: "subscription",
          customer: customer.id,
          status: "active",
          canceled_at: null,
          items: {
            object: "list",
            data: [{ price: { unit_amount: line.unit_amount, currency: session.currency, product: product.id, recurring: { interval: "month" } } }],
          },
          metadata,
          schedule: null,
          cancel_at_period_end: false,
          latest_invoice: invoice.id,
          start_date: Math.floor(Date.now() / 1000),
          livemode: false,
        });
        session.subscription = subId;
        session.invoice = invoice.id;
        session.payment_status = "paid";
        session.status = "complete";
        return session;
      }
      const intent = makeIntent(session.amount_total, session.currency, session.metadata, null);
      intent.status = "succeeded";
      intent.amount_received = intent.amount;
      session.payment_intent = intent.id;
      session.payment_status = "paid";
      session.status = "complete";
      return session;
    },
    event(type, object, eventId = id("evt")) {
      return JSON.stringify(
        { id: eventId, object: "event", api_version: "2026-10-28.endive", created: Math.floor(Date.now() / 1000), livemode: false, type, data: { object } },
        null,
        2,
      );
    },
    sign(payload, options = {}) {
      return signer.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? STRIPE_TEST_KEYS.STRIPE_WEBHOOK_SECRET,
        timestamp: options.timestamp,
      });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function error(message: string, code: string, type = "invalid_request_error") {
  return { error: { type, code, message } };
}

function missing(kind: string, what: string) {
  return error(`No such ${kind}: '${what}'`, "resource_missing");
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "application/json", "Request-Id": id("req"), ...headers });
  res.end(JSON.stringify(body));
}
