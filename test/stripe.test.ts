import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPence } from "~/utils/money";
import { SHOP_MESSAGES } from "~/utils/shop";
import { client, registerMember, startServer, type Client, type TestServer } from "./http";
import { addToBasket, formPost, insertProducts, SHIPPING, shopProducts, withTax } from "./shop";
import { startStripeServer, STRIPE_TEST_KEYS, type StripeTestServer } from "./stripe-server";

// Payments through Stripe: the built server
// with Stripe's keys runs the official `stripe` package against a local server that speaks the parts of
// Stripe's API we call. The test plays the buyer's card and Stripe's webhooks (signed with the official
// helper): a PaymentIntent for the server's amount in gbp with an idempotency key; Stripe Checkout and its
// 303 for a browser without JavaScript; an order for a succeeded payment only, made once whoever asks
// (the confirmation page, the /api, the webhook, at the same moment or again); webhooks with a wrong
// secret, an altered body or an old timestamp refused; a payment for the wrong amount or for an item that
// sold out refunded, and a refund Stripe could not take at first retried until it goes through.

const SITE = "https://shop.everlight.test";
const products = shopProducts({
  lamp: { price: 4500, stock: 50 },
  vase: { price: 1999, stock: 50, category: "Garden" },
  lastOne: { price: 3000, stock: 1 },
});

let stripe: StripeTestServer;
let server: TestServer;
beforeAll(async () => {
  stripe = await startStripeServer();
  server = await startServer({ ...STRIPE_TEST_KEYS, STRIPE_API_URL: stripe.url, PUBLIC_URL: SITE }, { prepare: insertProducts(products) });
});
afterAll(async () => {
  await server?.stop();
  await stripe?.stop();
});

const member = async () => (await registerMember(server.url)).api;
const ordersOf = async (api: Client) => (await api.get("/api/orders")).json as { id: string; paymentIntentId: string; totalAmount: number; isTest: boolean }[];

/** A member with a lamp and two vases in the basket, and the PaymentIntent the server asked Stripe for. */
async function buyerWithIntent(lamps = 1) {
  const api = await member();
  await addToBasket(api, products.lamp, lamps);
  await addToBasket(api, products.vase, 2);
  const res = await api.post("/api/create-payment-intent", { amount: 1, shipping: SHIPPING, items: [{ id: "product-x", name: "x", quantity: 1, price: 1 }] });
  expect(res.status, res.text).toBe(200);
  return { api, intentId: res.json.paymentIntentId as string, answer: res.json };
}

/** Posts a webhook event as Stripe does: the raw body and its Stripe-Signature header. */
function postWebhook(payload: string, signature: string) {
  return client(server.url).request("POST", "/api/stripe/webhook", {
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
  });
}

describe("Stripe with JavaScript: a PaymentIntent and the Payment Element", () => {
  it("asks Stripe for the server's amount in gbp, with an idempotency key, whatever the client said the amount was", async () => {
    const { intentId, answer } = await buyerWithIntent();
    const request = stripe.requests.find(
      (r) => r.method === "POST" && r.path === "/v1/payment_intents" && stripe.intents.get(intentId)?.metadata.checkoutId === r.body.metadata?.checkoutId,
    )!;
    const total = withTax(4500 + 2 * 1999);
    expect(request.body).toMatchObject({ amount: String(total), currency: "gbp", automatic_payment_methods: { enabled: "true" } });
    expect(request.idempotencyKey).toMatch(/^checkout-[0-9a-f-]+-payment$/);
    expect(request.authorization).toBe(`Bearer ${STRIPE_TEST_KEYS.STRIPE_SECRET_KEY}`);
    expect(answer).toMatchObject({
      provider: "stripe",
      clientSecret: stripe.intents.get(intentId)!.client_secret,
      publishableKey: STRIPE_TEST_KEYS.STRIPE_PUBLISHABLE_KEY,
    });
    expect(stripe.intents.get(intentId)!.amount).toBe(total);
  });

  it("makes no order for a payment that has not succeeded, and says why", async () => {
    const { api, intentId } = await buyerWithIntent();
    const page = await api.get(`/order-confirmation?payment_intent=${intentId}`);
    expect(page.status).toBe(402);
    expect(page.text).toContain("Payment Failed");
    stripe.decline(intentId, "Your card was declined.");
    const declined = await api.post("/api/orders/create-from-payment", { paymentIntentId: intentId });
    expect(declined.status).toBe(402);
    expect(declined.json.message).toBe(`${SHOP_MESSAGES.unpaid} Your card was declined.`);
    expect(await ordersOf(api)).toEqual([]);
    expect((await api.get("/api/cart")).json).toHaveLength(2);
  });

  it("makes the order when the confirmation page finds the payment succeeded, once however often it is opened", async () => {
    const { api, intentId } = await buyerWithIntent();
    stripe.succeed(intentId);
    const page = await api.get(`/order-confirmation?payment_intent=${intentId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Order Placed Successfully");
    expect(page.text).toContain(intentId);
    expect((await api.get(`/order-confirmation?payment_intent=${intentId}`)).status).toBe(200);
    const orders = await ordersOf(api);
    expect(orders).toHaveLength(1);
    // Stripe's test mode moves no money: a test order.
    expect(orders[0]).toMatchObject({ paymentIntentId: intentId, totalAmount: withTax(4500 + 2 * 1999), isTest: true });
    expect((await api.get("/api/cart")).json).toEqual([]);
    // The test provider's button is not there when Stripe takes payments.
    expect((await api.post("/api/test-payments/pay", { paymentIntentId: intentId })).status).toBe(404);
  });
});

describe("Stripe without JavaScript: a Checkout Session", () => {
  it("answers the shipping form with a 303 to Stripe Checkout for the server's lines and tax, and comes back to an order", async () => {
    const api = await member();
    await addToBasket(api, products.lamp, 2);
    const res = await formPost(api, "/checkout", { intent: "shipping", ...SHIPPING });
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const sessionId = location.split("/").pop()!;
    const session = stripe.sessions.get(sessionId)!;
    expect(session.line_items_sent).toEqual([
      { name: products.lamp.name, quantity: 2, unit_amount: 4500 },
      { name: "Tax (8%)", quantity: 1, unit_amount: 720 },
    ]);
    expect(session).toMatchObject({
      currency: "gbp",
      amount_total: withTax(9000),
      customer_email: SHIPPING.email,
      success_url: `${SITE}/order-confirmation?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${SITE}/checkout?cancelled=1`,
    });
    const created = stripe.requests.find((r) => r.path === "/v1/checkout/sessions" && r.body.metadata?.checkoutId === session.metadata.checkoutId)!;
    expect(created.idempotencyKey).toMatch(/^checkout-[0-9a-f-]+-session$/);

    // Back before paying (or a forged return): nothing.
    const early = await api.get(`/order-confirmation?session_id=${sessionId}`);
    expect(early.status).toBe(402);
    expect(await ordersOf(api)).toEqual([]);

    stripe.completeSession(sessionId);
    const back = await api.get(`/order-confirmation?session_id=${sessionId}`);
    expect(back.status).toBe(200);
    expect(back.text).toContain("Order Placed Successfully");
    const orders = await ordersOf(api);
    expect(orders).toEqual([expect.objectContaining({ paymentIntentId: session.payment_intent, totalAmount: withTax(9000) })]);

    // Stripe's webhook for the same session afterwards changes nothing.
    const payload = stripe.event("checkout.session.completed", stripe.sessions.get(sessionId)!);
    const hook = await postWebhook(payload, stripe.sign(payload));
    expect(hook.json).toMatchObject({ received: true, handled: "order exists" });
    expect(await ordersOf(api)).toHaveLength(1);
    // Someone else returning with that session id sees nothing of the order.
    const stranger = await member();
    const theirs = await stranger.get(`/order-confirmation?session_id=${sessionId}`);
    expect(theirs.status).toBe(404);
    expect(theirs.text).not.toContain(SHIPPING.address);
  });

  it("offers Stripe's page from step 2 when the card form cannot run", async () => {
    const api = await member();
    await addToBasket(api, products.vase);
    // The shipping form sent with JavaScript: step 2 on our page, where the Payment Element would load.
    const started = await formPost(api, "/checkout", { intent: "shipping", js: "1", ...SHIPPING });
    expect(started.headers.get("location")).toMatch(/^\/checkout\?payment=/);
    const checkoutId = started.headers.get("location")!.split("payment=")[1];
    const step2 = await api.get(`/checkout?payment=${checkoutId}`);
    expect(step2.text).toContain("Pay on Stripe&#x27;s secure page");
    const hosted = await formPost(api, "/checkout", { intent: "hosted", checkoutId });
    expect(hosted.status).toBe(303);
    expect(hosted.headers.get("location")).toMatch(/^https:\/\/checkout\.stripe\.com\//);
  });
});

describe("Stripe's webhook", () => {
  it("makes the order from a signed payment_intent.succeeded, even when the buyer never comes back", async () => {
    const { api, intentId } = await buyerWithIntent();
    const payload = stripe.event("payment_intent.succeeded", stripe.succeed(intentId));
    const res = await postWebhook(payload, stripe.sign(payload));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ received: true, duplicate: false, handled: "order created" });
    expect((await ordersOf(api)).map((o) => o.paymentIntentId)).toEqual([intentId]);
  });

  it("refuses a wrong secret, an altered body, an old timestamp and no signature with 400, and makes no order", async () => {
    const { api, intentId } = await buyerWithIntent();
    const payload = stripe.event("payment_intent.succeeded", stripe.succeed(intentId));
    const old = Math.floor(Date.now() / 1000) - 301;
    const attempts = [
      await postWebhook(payload, stripe.sign(payload, { secret: "whsec_someoneelse" })),
      await postWebhook(payload.replace(`"amount": `, `"amount": 1`), stripe.sign(payload)),
      await postWebhook(payload, stripe.sign(payload, { timestamp: old })),
      await client(server.url).request("POST", "/api/stripe/webhook", { body: payload, headers: { "Content-Type": "application/json" } }),
    ];
    expect(attempts.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    for (const r of attempts) expect(r.json.message).toEqual(expect.any(String));
    expect(attempts[2].json.message).toMatch(/tolerance/i);
    expect(await ordersOf(api)).toEqual([]);
    // The same event, signed properly, still counts: the refused ones were not recorded.
    expect((await postWebhook(payload, stripe.sign(payload))).json.handled).toBe("order created");
  });

  it("handles the same event sent twice once", async () => {
    const { api, intentId } = await buyerWithIntent();
    const payload = stripe.event("payment_intent.succeeded", stripe.succeed(intentId));
    const [a, b] = await Promise.all([postWebhook(payload, stripe.sign(payload)), postWebhook(payload, stripe.sign(payload))]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const again = await postWebhook(payload, stripe.sign(payload));
    expect(again.json).toMatchObject({ received: true, duplicate: true });
    expect(await ordersOf(api)).toHaveLength(1);
  });

  it("racing the confirmation page and the /api: one order", async () => {
    const { api, intentId } = await buyerWithIntent(3);
    const payload = stripe.event("payment_intent.succeeded", stripe.succeed(intentId));
    const other = stripe.event("payment_intent.succeeded", stripe.intents.get(intentId)!);
    const before = (await client(server.url).get("/api/products")).json.find((p: { id: string }) => p.id === products.lamp.id).stockQuantity;
    const results = await Promise.all([
      postWebhook(payload, stripe.sign(payload)),
      postWebhook(other, stripe.sign(other)),
      api.get(`/order-confirmation?payment_intent=${intentId}`),
      api.get(`/order-confirmation?payment_intent=${intentId}`),
      api.post("/api/orders/create-from-payment", { paymentIntentId: intentId }),
      api.post("/api/orders/create-from-payment", { paymentIntentId: intentId }),
    ]);
    expect(results.map((r) => r.status).every((s) => s === 200 || s === 201)).toBe(true);
    const orders = await ordersOf(api);
    expect(orders).toHaveLength(1);
    const after = (await client(server.url).get("/api/products")).json.find((p: { id: string }) => p.id === products.lamp.id).stockQuantity;
    expect(before - after).toBe(3);
  });
});

describe("refunds", () => {
  it("refunds a payment for the wrong amount instead of selling for it", async () => {
    const { api, intentId } = await buyerWithIntent();
    stripe.intents.get(intentId)!.amount = 100;
    stripe.succeed(intentId);
    const page = await api.get(`/order-confirmation?payment_intent=${intentId}`);
    expect(page.status).toBe(409);
    expect(page.text).toContain("has been refunded in full");
    expect(stripe.refunds.filter((r) => r.payment_intent === intentId)).toHaveLength(1);
    expect(await ordersOf(api)).toEqual([]);
  });

  it("retries a refund Stripe could not take, until it goes through, and never refunds twice", async () => {
    const [first, second] = [await member(), await member()];
    await addToBasket(first, products.lastOne);
    await addToBasket(second, products.lastOne);
    const a = (await first.post("/api/create-payment-intent", { shipping: SHIPPING })).json.paymentIntentId as string;
    const b = (await second.post("/api/create-payment-intent", { shipping: SHIPPING })).json.paymentIntentId as string;
    stripe.succeed(a);
    expect((await first.post("/api/orders/create-from-payment", { paymentIntentId: a })).status).toBe(201);

    stripe.refundsDown = true;
    const payload = stripe.event("payment_intent.succeeded", stripe.succeed(b));
    const hook = await postWebhook(payload, stripe.sign(payload));
    // Stripe is asked to send the event again: the refund has not gone through.
    expect(hook.status).toBe(503);
    const page = await second.get(`/order-confirmation?payment_intent=${b}`);
    expect(page.status).toBe(409);
    expect(page.text).toContain("sold out while you were paying");
    expect(stripe.refunds.filter((r) => r.payment_intent === b)).toEqual([]);

    stripe.refundsDown = false;
    const redelivered = await postWebhook(payload, stripe.sign(payload));
    expect(redelivered.status).toBe(200);
    expect(redelivered.json).toMatchObject({ handled: "refunded" });
    expect(stripe.refunds.filter((r) => r.payment_intent === b)).toHaveLength(1);
    const refundRequests = stripe.requests.filter((r) => r.path === "/v1/refunds" && r.body.payment_intent === b);
    expect(new Set(refundRequests.map((r) => r.idempotencyKey)).size).toBe(1);
    // Opened again: the same answer, no second refund.
    expect((await second.post("/api/orders/create-from-payment", { paymentIntentId: b })).json).toMatchObject({ refunded: true });
    expect(stripe.refunds.filter((r) => r.payment_intent === b)).toHaveLength(1);
    expect(await ordersOf(second)).toEqual([]);
  });
});

describe("one basket, one payment, one order", () => {
  it("reuses the PaymentIntent for a second checkout of an unchanged basket; paid again on Stripe's page, the second payment is refunded once and makes no order", async () => {
    const api = await member();
    await addToBasket(api, products.vase, 3);
    const first = await api.post("/api/create-payment-intent", { shipping: SHIPPING });
    const again = await Promise.all([1, 2, 3].map(() => api.post("/api/create-payment-intent", { shipping: SHIPPING })));
    const intentId = first.json.paymentIntentId as string;
    expect(again.map((a) => a.json.paymentIntentId)).toEqual([intentId, intentId, intentId]);
    const checkoutId = stripe.intents.get(intentId)!.metadata.checkoutId;
    const made = new Set(
      stripe.requests
        .filter((r) => r.path === "/v1/payment_intents" && r.method === "POST" && r.body.metadata?.checkoutId === checkoutId)
        .map((r) => r.idempotencyKey),
    );
    expect(made).toEqual(new Set([`checkout-${checkoutId}-payment`]));

    // The same basket paid a second way (an older tab without JavaScript, on Stripe's page) as well.
    const hosted = await formPost(api, "/checkout", { intent: "shipping", ...SHIPPING });
    expect(hosted.status).toBe(303);
    const sessionId = hosted.headers.get("location")!.split("/").pop()!;
    stripe.succeed(intentId);
    const secondIntent = stripe.completeSession(sessionId).payment_intent as string;

    const page = await api.get(`/order-confirmation?payment_intent=${intentId}`);
    expect(page.status).toBe(200);
    const back = await api.get(`/order-confirmation?session_id=${sessionId}`);
    expect(back.status).toBe(409);
    expect(back.text).toContain("This basket had already been ordered");
    // Stripe's webhook for it, twice: acknowledged, nothing more.
    const payload = stripe.event("checkout.session.completed", stripe.sessions.get(sessionId)!);
    for (const _ of [1, 2]) expect((await postWebhook(payload, stripe.sign(payload))).status).toBe(200);
    expect(stripe.refunds.filter((r) => r.payment_intent === secondIntent)).toHaveLength(1);
    expect(stripe.refunds.filter((r) => r.payment_intent === intentId)).toEqual([]);
    const orders = await ordersOf(api);
    expect(orders).toEqual([expect.objectContaining({ paymentIntentId: intentId, totalAmount: withTax(3 * 1999) })]);

    // The buyer is emailed the refund once, with the amount, the items, the payment and a link from PUBLIC_URL.
    const refundMails = await waitForMail((m) => m.subject.includes("has been refunded") && m.text.includes(secondIntent));
    expect(refundMails).toHaveLength(1);
    expect(refundMails[0].text).toContain(formatPence(withTax(3 * 1999)));
    expect(refundMails[0].text).toContain(`3 × ${products.vase.name}`);
    expect(refundMails[0].text).toContain(`${SITE}/orders`);
  });
});

/** The emails the server wrote (no SMTP: .eml files in DATA_DIR/outbox) that match, waiting a while for one. */
async function waitForMail(match: (mail: { subject: string; text: string }) => boolean) {
  const dir = path.join(server.dataDir, "outbox");
  const deadline = Date.now() + 30_000;
  for (;;) {
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".eml")) : [];
    const mails = await Promise.all(files.map(async (f) => simpleParser(readFileSync(path.join(dir, f)))));
    const found = mails.map((m) => ({ subject: m.subject ?? "", text: m.text ?? "" })).filter(match);
    if (found.length || Date.now() > deadline) {
      // A moment more, so that a second (wrong) email would be seen too.
      await new Promise((r) => setTimeout(r, 1000));
      return (
        await Promise.all(
          readdirSync(dir)
            .filter((f) => f.endsWith(".eml"))
            .map(async (f) => simpleParser(readFileSync(path.join(dir, f)))),
        )
      )
        .map((m) => ({ subject: m.subject ?? "", text: m.text ?? "" }))
        .filter(match);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("start-up", () => {
  it("stops with a clear message when PAYMENT_PROVIDER=stripe has no keys", async () => {
    await expect(startServer({ PAYMENT_PROVIDER: "stripe" }, { database: "pglite" })).rejects.toThrow(
      /PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY/,
    );
  });
});
