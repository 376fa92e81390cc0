import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUBSCRIPTION_MESSAGES } from "~/utils/plans";
import { client, registerMember, startServer, type Client, type TestServer } from "./http";
import { formPost } from "./shop";
import { startSmtp, type TestSmtp } from "./smtp-server";
import { startStripeServer, STRIPE_TEST_KEYS, type StripeTestServer } from "./stripe-server";

// Plans paid through Stripe (issue 17 §1–3; TESTING.md "Outside services, offline"): the built server with
// Stripe's keys runs the official `stripe` package against the local Stripe server; the test plays the
// member's card and Stripe's signed webhooks. In full: a PaymentIntent for the recorded amount, granted only
// once it succeeded, once whoever gets there first (the return address, the /api, the webhook), never for
// the wrong amount; Stripe Checkout without JavaScript. Monthly: a subscription ended by a two-phase
// schedule, its first invoice paid in the Payment Element, later invoices advancing the instalments, a
// failed one emailing once, cancelling telling Stripe. Bad signatures are refused.

const SITE = "https://plans.everlight.test";
let stripe: StripeTestServer;
let smtp: TestSmtp;
let server: TestServer;
beforeAll(async () => {
  stripe = await startStripeServer();
  smtp = await startSmtp();
  server = await startServer({ ...STRIPE_TEST_KEYS, STRIPE_API_URL: stripe.url, PUBLIC_URL: SITE, SMTP_URL: smtp.url });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  await stripe?.stop();
});

function postWebhook(payload: string, signature: string) {
  return client(server.url).request("POST", "/api/stripe/webhook", { body: payload, headers: { "Content-Type": "application/json", "Stripe-Signature": signature } });
}
async function sendEvent(type: string, object: object, eventId?: string) {
  const payload = stripe.event(type, object, eventId);
  const res = await postWebhook(payload, stripe.sign(payload));
  expect(res.status, res.text).toBe(200);
  return res.json as { received: true; duplicate: boolean; handled: string };
}
const me = async (api: Client) => (await api.get("/api/auth/user")).json as { email: string; subscriptionPlan: string; subscriptionExpiryDate: string | null };
/** The page Stripe's return lands on after its 303, with the toast the redirect set. */
async function returnTo(api: Client, path: string) {
  const back = await api.get(path);
  expect(back.status).toBe(303);
  expect(back.headers.get("location")).toBe("/subscription");
  return (await api.get("/subscription")).text;
}
async function start(api: Client, planId: "forever" | "forever_plus", paymentType: "full" | "monthly") {
  const res = await api.post("/api/create-subscription-payment", { planId, paymentType });
  expect(res.status, res.text).toBe(200);
  return res.json as { clientSecret: string; paymentIntentId: string; amount: number; provider: string; publishableKey: string };
}

describe("paying in full with Stripe", () => {
  it("makes a PaymentIntent for the plan's price and shows the Payment Element's screen", async () => {
    const { api } = await registerMember(server.url);
    const created = await start(api, "forever_plus", "full");
    const intent = stripe.intents.get(created.paymentIntentId)!;
    expect(intent).toMatchObject({ amount: 42_900, currency: "gbp", metadata: { kind: "plan", planId: "forever_plus", paymentType: "full" } });
    expect(created).toMatchObject({ provider: "stripe", amount: 42_900, clientSecret: intent.client_secret, publishableKey: STRIPE_TEST_KEYS.STRIPE_PUBLISHABLE_KEY });
    const request = stripe.requests.find((r) => r.path === "/v1/payment_intents" && r.body.metadata?.purchaseId === intent.metadata.purchaseId)!;
    expect(request.idempotencyKey).toMatch(/^plan-payment:/);
    const page = await api.get(`/subscription/pay/${created.paymentIntentId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Complete Your Payment");
    expect(page.text).toContain("Pay on Stripe&#x27;s secure page");
    expect(page.text).not.toContain("not available yet");
  });

  it("grants nothing before the payment succeeded, then once while the return address, the /api and the webhook race", async () => {
    const { api } = await registerMember(server.url);
    const { paymentIntentId } = await start(api, "forever", "full");
    const early = await returnTo(api, `/subscription?success=true&payment_intent=${paymentIntentId}`);
    expect(early).toContain("Payment Failed");
    expect(await api.post("/api/complete-subscription-upgrade", { paymentIntentId })).toMatchObject({ status: 402 });
    expect((await me(api)).subscriptionPlan).toBe("free");

    const succeeded = stripe.succeed(paymentIntentId);
    const payload = stripe.event("payment_intent.succeeded", succeeded);
    const other = stripe.event("payment_intent.succeeded", succeeded);
    const [hookA, hookB, page, apiA, apiB] = await Promise.all([
      postWebhook(payload, stripe.sign(payload)),
      postWebhook(other, stripe.sign(other)),
      api.get(`/subscription?success=true&payment_intent=${paymentIntentId}`),
      api.post("/api/complete-subscription-upgrade", { paymentIntentId }),
      api.post("/api/complete-subscription-upgrade", { paymentIntentId }),
    ]);
    expect([hookA.status, hookB.status, page.status, apiA.status, apiB.status]).toEqual([200, 200, 303, 200, 200]);
    const granted = [hookA.json.handled === "plan granted", hookB.json.handled === "plan granted", apiA.json.alreadyDone === false, apiB.json.alreadyDone === false].filter(Boolean);
    expect(granted.length).toBeLessThanOrEqual(1);
    expect(await me(api)).toMatchObject({ subscriptionPlan: "forever", subscriptionExpiryDate: null });
    // The spec's toast on the page the address resets to.
    expect(await returnTo(api, `/subscription?success=true&payment_intent=${paymentIntentId}`)).toContain(SUBSCRIPTION_MESSAGES.paymentSuccessful);
    // Someone else returning with it, or forging a completion with it, gets nothing.
    const { api: stranger } = await registerMember(server.url);
    expect((await stranger.post("/api/complete-subscription-upgrade", { paymentIntentId })).status).toBe(404);
    expect((await me(stranger)).subscriptionPlan).toBe("free");
  });

  it("refuses a payment Stripe took for another amount", async () => {
    const { api } = await registerMember(server.url);
    const { paymentIntentId } = await start(api, "forever_plus", "full");
    stripe.intents.get(paymentIntentId)!.amount = 100;
    const payload = stripe.event("payment_intent.succeeded", stripe.succeed(paymentIntentId));
    expect((await postWebhook(payload, stripe.sign(payload))).json.handled).toBe("plan mismatch");
    expect(await api.post("/api/complete-subscription-upgrade", { paymentIntentId })).toMatchObject({ status: 409, json: { message: SUBSCRIPTION_MESSAGES.wrongAmount } });
    expect((await me(api)).subscriptionPlan).toBe("free");
  });

  it("without JavaScript: Stripe Checkout for the recorded amount, back to /subscription?success=true, granted once", async () => {
    const { api } = await registerMember(server.url);
    const chosen = await formPost(api, "/subscription", { intent: "start", planId: "forever", paymentType: "full" });
    expect(chosen.status).toBe(303);
    const payPath = chosen.headers.get("location")!;
    expect(payPath).toMatch(/^\/subscription\/pay\/pi_/);
    const hosted = await formPost(api, payPath, { intent: "hosted" });
    expect(hosted.status).toBe(303);
    const sessionId = hosted.headers.get("location")!.split("/").pop()!;
    const session = stripe.sessions.get(sessionId)!;
    expect(session).toMatchObject({
      mode: "payment",
      amount_total: 27_900,
      currency: "gbp",
      success_url: `${SITE}/subscription?success=true&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${SITE}${payPath}`,
      metadata: { kind: "plan", planId: "forever", paymentType: "full" },
    });

    // Back before paying (or a forged return): nothing.
    expect(await returnTo(api, `/subscription?success=true&session_id=${sessionId}`)).toContain("Payment Failed");
    expect((await me(api)).subscriptionPlan).toBe("free");

    stripe.completeSession(sessionId);
    expect(await returnTo(api, `/subscription?success=true&session_id=${sessionId}`)).toContain(SUBSCRIPTION_MESSAGES.paymentSuccessful);
    expect((await me(api)).subscriptionPlan).toBe("forever");
    expect(await sendEvent("checkout.session.completed", stripe.sessions.get(sessionId)!)).toMatchObject({ handled: "plan already granted" });
    // Another member with the same session id: nothing.
    const { api: stranger } = await registerMember(server.url);
    expect(await returnTo(stranger, `/subscription?success=true&session_id=${sessionId}`)).toContain(SUBSCRIPTION_MESSAGES.paymentNotFound);
    expect((await me(stranger)).subscriptionPlan).toBe("free");
  });
});

describe("monthly with Stripe", () => {
  /** A member who chose monthly and paid the first invoice in the Payment Element. */
  async function monthlyMember(planId: "forever" | "forever_plus") {
    const { api } = await registerMember(server.url);
    const created = await start(api, planId, "monthly");
    const subscription = [...stripe.subscriptions.values()].find((s) => stripe.firstIntentOf(s.id).id === created.paymentIntentId)!;
    return { api, created, subscription };
  }

  it("is a subscription whose schedule charges 35 × £11.92 and £11.80 for Forever Plus, then ends", async () => {
    const { api, created, subscription } = await monthlyMember("forever_plus");
    expect(created).toMatchObject({ amount: 1192, clientSecret: stripe.firstIntentOf(subscription.id).client_secret });
    expect(subscription).toMatchObject({ status: "incomplete", metadata: { kind: "plan", planId: "forever_plus", paymentType: "monthly" } });
    const schedule = stripe.schedules.get(subscription.schedule!)!;
    expect(schedule.end_behavior).toBe("cancel");
    expect(schedule.phases.map((p) => [Number(p.items[0].price_data!.unit_amount), Number(p.duration!.interval_count)])).toEqual([
      [1192, 35],
      [1180, 1],
    ]);
    const creates = stripe.requests.filter((r) => r.method === "POST" && /^\/v1\/(customers|subscriptions|subscription_schedules)/.test(r.path) && r.idempotencyKey?.includes(subscription.metadata.purchaseId));
    expect(creates.length).toBeGreaterThanOrEqual(4);
    // Not paid yet: still free.
    expect((await me(api)).subscriptionPlan).toBe("free");
  });

  it("grants the plan on the first invoice, advances on invoice.paid, emails once for a failed one, and cancelling tells Stripe", async () => {
    const { api, created, subscription } = await monthlyMember("forever");
    stripe.succeed(created.paymentIntentId);
    const firstInvoice = [...stripe.invoices.values()].find((i) => i.parent.subscription_details.subscription === subscription.id)!;
    const [hook, page] = await Promise.all([
      sendEvent("invoice.paid", firstInvoice),
      api.get(`/subscription?success=true&payment_intent=${created.paymentIntentId}`),
    ]);
    expect(page.status).toBe(303);
    expect(hook.handled).toMatch(/^plan (already )?granted$/);
    const afterFirst = await me(api);
    expect(afterFirst.subscriptionPlan).toBe("forever");
    expect(afterFirst.subscriptionExpiryDate).not.toBeNull();

    // Month 2: paid by Stripe; the same invoice reported again (another event) counts once.
    const second = stripe.billNextMonth(subscription.id);
    expect(second.amount_paid).toBe(775);
    expect(await sendEvent("invoice.paid", second)).toMatchObject({ handled: "instalment recorded" });
    expect(await sendEvent("invoice.paid", second)).toMatchObject({ handled: "instalment already recorded" });
    const afterSecond = await me(api);
    const days = (Date.parse(afterSecond.subscriptionExpiryDate!) - Date.parse(afterFirst.subscriptionExpiryDate!)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(31);
    expect((await api.get("/subscription")).text).toContain("payment 3 of 36");

    // Month 3 declined, twice (Stripe retries): one email; the expiry stays (the grace period runs).
    const failed = stripe.billNextMonth(subscription.id, { fail: true });
    expect(await sendEvent("invoice.payment_failed", failed)).toMatchObject({ handled: "instalment failed" });
    const again = stripe.billNextMonth(subscription.id, { fail: true });
    expect(again.id).toBe(failed.id);
    expect(await sendEvent("invoice.payment_failed", again)).toMatchObject({ handled: "instalment failed again" });
    expect((await me(api)).subscriptionExpiryDate).toBe(afterSecond.subscriptionExpiryDate);
    const mail = await mailTo(afterFirst.email);
    expect(mail.subject).toBe("We could not take your Forever payment");
    expect((await api.get("/subscription")).text).toContain("A monthly payment did not go through");
    // Then the retry goes through.
    expect(await sendEvent("invoice.paid", stripe.billNextMonth(subscription.id))).toMatchObject({ handled: "instalment recorded" });
    expect((await api.get("/subscription")).text).toContain("payment 4 of 36");
    expect(smtp.recipients.filter((r) => r.includes(afterFirst.email))).toHaveLength(1);

    // Cancel: Stripe is told (the schedule released, the subscription cancelled at the period's end).
    const cancelled = await api.post("/api/cancel-subscription", {});
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(stripe.schedules.get(subscription.schedule ?? [...stripe.schedules.values()].find((s) => s.subscription === subscription.id)!.id)!.status).toBe("released");
    expect(stripe.subscriptions.get(subscription.id)).toMatchObject({ cancel_at_period_end: true, schedule: null });
    expect((await me(api)).subscriptionPlan).toBe("forever");
    expect((await api.get("/subscription")).text).toContain("Cancelled: active until");
  });

  it("completes Forever after the 36th instalment and the schedule ends there", async () => {
    const { api, created, subscription } = await monthlyMember("forever");
    stripe.succeed(created.paymentIntentId);
    expect(await api.post("/api/complete-subscription-upgrade", { paymentIntentId: created.paymentIntentId })).toMatchObject({ status: 200 });
    const outcomes: string[] = [];
    for (let month = 2; month <= 36; month++) outcomes.push((await sendEvent("invoice.paid", stripe.billNextMonth(subscription.id))).handled);
    expect(outcomes.slice(0, 34).every((o) => o === "instalment recorded")).toBe(true);
    expect(outcomes[34]).toBe("plan completed");
    expect(await me(api)).toMatchObject({ subscriptionPlan: "forever", subscriptionExpiryDate: null });
    expect(() => stripe.billNextMonth(subscription.id)).toThrow(/has ended/);
  });

  it("refuses an invoice webhook with a bad signature, and counts nothing", async () => {
    const { api, created, subscription } = await monthlyMember("forever");
    stripe.succeed(created.paymentIntentId);
    await api.post("/api/complete-subscription-upgrade", { paymentIntentId: created.paymentIntentId });
    const before = await me(api);
    const invoice = stripe.billNextMonth(subscription.id);
    const payload = stripe.event("invoice.paid", invoice);
    const forged = await postWebhook(payload, stripe.sign(payload, { secret: "whsec_someoneelse" }));
    expect(forged.status).toBe(400);
    const unsigned = await client(server.url).request("POST", "/api/stripe/webhook", { body: payload, headers: { "Content-Type": "application/json" } });
    expect(unsigned.status).toBe(400);
    expect((await me(api)).subscriptionExpiryDate).toBe(before.subscriptionExpiryDate);
    expect((await api.get("/subscription")).text).toContain("payment 2 of 36");
    // The same event signed properly counts.
    expect((await postWebhook(payload, stripe.sign(payload))).json.handled).toBe("instalment recorded");
  });
});

async function mailTo(address: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const index = smtp.recipients.findIndex((r) => r.includes(address));
    if (index >= 0) return smtp.received[index];
    if (Date.now() > deadline) throw new Error(`No email to ${address}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
