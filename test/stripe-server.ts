import { randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { readBody } from "./read-body";

// A local stand-in for the parts of Stripe's API that Everlight calls (TESTING.md "Outside services,
// offline"): the real `stripe` package talks to it through STRIPE_API_URL (host, port and protocol).
// PaymentIntents (create, retrieve), Checkout Sessions (create, retrieve) and Refunds (create), with
// Stripe's idempotency keys (the same key answers the same object; a key reused with other parameters is
// refused) and its error shape. It records every request, and the test plays the buyer: `succeed(pi)` is a
// card payment going through, `completeSession(cs)` paying on the Checkout page. `event(…)` builds a
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
  customer_email: string | null;
  client_reference_id: string | null;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
  line_items_sent: { name: string; quantity: number; unit_amount: number }[];
  livemode: boolean;
};
type Refund = { id: string; object: "refund"; amount: number; payment_intent: string; status: "succeeded"; reason: string | null };

export type StripeTestServer = {
  /** For STRIPE_API_URL. */
  url: string;
  requests: RecordedStripeRequest[];
  intents: Map<string, Intent>;
  sessions: Map<string, Session>;
  refunds: Refund[];
  /** The buyer's card goes through: the payment succeeds (as Stripe.js confirming it would). */
  succeed: (intentId: string) => Intent;
  /** The card was declined: the payment needs another method. */
  decline: (intentId: string, message?: string) => Intent;
  /** While true, Stripe cannot be reached for refunds (503, as an outage answers): they must be retried. */
  refundsDown: boolean;
  /** The buyer pays on the Checkout page: a succeeded PaymentIntent is made for the session. */
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
  const idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const state = { refundsDown: false };

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
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const lines = ((body.line_items ?? []) as any[]).map((l) => ({ name: l.price_data.product_data.name, quantity: Number(l.quantity), unit_amount: Number(l.price_data.unit_amount) }));
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
    if (method === "POST" && path === "/v1/refunds") {
      if (state.refundsDown) return [503, error("Stripe is temporarily unavailable.", "api_unavailable", "api_error")];
      const intent = intents.get(body.payment_intent);
      if (!intent) return [404, missing("payment_intent", body.payment_intent)];
      if (intent.status !== "succeeded") return [400, error("This PaymentIntent has no successful charge to refund.", "charge_not_refundable")];
      if (refunds.some((r) => r.payment_intent === intent.id)) return [400, error(`Charge for ${intent.id} has already been refunded.`, "charge_already_refunded")];
      const refund: Refund = { id: id("re"), object: "refund", amount: intent.amount_received, payment_intent: intent.id, status: "succeeded", reason: body.reason ?? null };
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
    if (req.method === "POST" && idempotencyKey) {
      const fingerprint = `${path} ${raw}`;
      const seen = idempotent.get(idempotencyKey);
      if (seen) {
        if (seen.fingerprint !== fingerprint) return send(res, 400, error("Keys for idempotent requests can only be used with the same parameters they were first used with.", "idempotency_key_in_use", "idempotency_error"));
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
      const intent = makeIntent(session.amount_total, session.currency, session.metadata, null);
      intent.status = "succeeded";
      intent.amount_received = intent.amount;
      session.payment_intent = intent.id;
      session.payment_status = "paid";
      session.status = "complete";
      return session;
    },
    event(type, object, eventId = id("evt")) {
      return JSON.stringify({ id: eventId, object: "event", api_version: "2026-10-28.endive", created: Math.floor(Date.now() / 1000), livemode: false, type, data: { object } }, null, 2);
    },
    sign(payload, options = {}) {
      return signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? STRIPE_TEST_KEYS.STRIPE_WEBHOOK_SECRET, timestamp: options.timestamp });
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
