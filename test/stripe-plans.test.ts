import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLANS, SUBSCRIPTION_MESSAGES } from "~/utils/plans";
import { client, registerMember, startServer, type Client, type TestServer } from "./http";
import { formPost } from "./shop";
import { startSmtp, type TestSmtp } from "./smtp-server";
import { startStripeServer, STRIPE_TEST_KEYS, type StripeTestServer } from "./stripe-server";

// Plans paid through Stripe: the built server with
// Stripe's keys runs the official `stripe` package against the local Stripe server; the test plays the
// member's card and Stripe's signed webhooks. In full: a PaymentIntent for the recorded amount, granted only
// once it succeeded, once whoever gets there first (the return address, the /api, the webhook), never for
// the wrong amount; Stripe Checkout without JavaScript. Monthly: a subscription ended by a two-phase
// schedule, its first invoice paid in the Payment Element, later invoices advancing the instalments, a
// failed one emailing once, cancelling telling Stripe. Bad signatures are refused. Monthly without
// JavaScript: Stripe Checkout in subscription mode, put on the same schedule. One plan payment paid two ways
// (the card form in one tab, Checkout's page in another): opening Checkout cancels the card form's payment,
// and a payment that still gets through is refunded once and the member told.

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
  return client(server.url).request("POST", "/api/stripe/webhook", {
    body: payload,
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
  });
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
    expect(created).toMatchObject({
      provider: "stripe",
      amount: 42_900,
      clientSecret: intent.client_secret,
      publishableKey: STRIPE_TEST_KEYS.STRIPE_PUBLISHABLE_KEY,
    });
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
    const granted = [
      hookA.json.handled === "plan granted",
      hookB.json.handled === "plan granted",
      apiA.json.alreadyDone === false,
      apiB.json.alreadyDone === false,
    ].filter(Boolean);
    expect(granted.length).toBeLessThanOrEqual(1);
    expect(await me(api)).toMatchObject({ subscriptionPlan: "forever", subscriptionExpiryDate: null });
    // The payment's toast on the page the address resets to.
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
    expect(await api.post("/api/complete-subscription-upgrade", { paymentIntentId })).toMatchObject({
      status: 409,
      json: { message: SUBSCRIPTION_MESSAGES.wrongAmount },
    });
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
    const creates = stripe.requests.filter(
      (r) =>
        r.method === "POST" &&
        /^\/v1\/(customers|subscriptions|subscription_schedules)/.test(r.path) &&
        r.idempotencyKey?.includes(subscription.metadata.purchaseId),
    );
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
    const mail = await mailTo(afterFirst.email, "We could not take your Forever payment");
    expect(mail.subject).toBe("We could not take your Forever payment");
    expect((await api.get("/subscription")).text).toContain("A monthly payment did not go through");
    // Then the retry goes through.
    expect(await sendEvent("invoice.paid", stripe.billNextMonth(subscription.id))).toMatchObject({ handled: "instalment recorded" });
    expect((await api.get("/subscription")).text).toContain("payment 4 of 36");
    // One failure email; every instalment taken through Stripe's invoices is receipted.
    expect(
      smtp.recipients.filter((r, i) => r.includes(afterFirst.email) && smtp.received[i]?.subject === "We could not take your Forever payment"),
    ).toHaveLength(1);
    expect((await mailTo(afterFirst.email, "Your receipt: £7.75 for the Forever plan")).text).toMatch(/Monthly payment \d of 36/);

    // Cancel: Stripe is told (the schedule released, the subscription cancelled at the period's end).
    const cancelled = await api.post("/api/cancel-subscription", {});
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(stripe.schedules.get(subscription.schedule ?? [...stripe.schedules.values()].find((s) => s.subscription === subscription.id)!.id)!.status).toBe(
      "released",
    );
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

/** The member chooses a plan and a way to pay on the plan screen (no JavaScript): the payment screen's path. */
async function choose(api: Client, planId: "forever" | "forever_plus", paymentType: "full" | "monthly") {
  const chosen = await formPost(api, "/subscription", { intent: "start", planId, paymentType });
  expect(chosen.status, chosen.text).toBe(303);
  const payPath = chosen.headers.get("location")!;
  expect(payPath).toMatch(/^\/subscription\/pay\/pi_/);
  return { payPath, paymentIntentId: decodeURIComponent(payPath.split("/").pop()!) };
}
/** Pay on Stripe's secure page (a plain form): the Checkout session it redirects to. */
async function openCheckout(api: Client, payPath: string) {
  const hosted = await formPost(api, payPath, { intent: "hosted" });
  expect(hosted.status, hosted.text).toBe(303);
  const location = hosted.headers.get("location")!;
  expect(location).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
  return stripe.sessions.get(location.split("/").pop()!)!;
}
const subscriptionOf = (paymentIntentId: string) =>
  [...stripe.subscriptions.values()].find(
    (s) => s.latest_invoice && stripe.invoices.get(String(s.latest_invoice))?.payments.data.some((p) => p.payment.payment_intent === paymentIntentId),
  )!;
const schedulesOf = (subscriptionId: string) => [...stripe.schedules.values()].filter((s) => s.subscription === subscriptionId);
const phasesOf = (schedule: { phases: { items: { price_data?: { unit_amount: string | number } }[]; duration?: { interval_count: string | number } }[] }) =>
  schedule.phases.map((p) => [Number(p.items[0].price_data!.unit_amount), Number(p.duration!.interval_count)]);
const refundsOf = (paymentIntentId: string) => stripe.refunds.filter((r) => r.payment_intent === paymentIntentId);

describe("monthly without JavaScript: Stripe Checkout in subscription mode", () => {
  it("grants the plan once while the return address and the webhooks race, on the schedule of 35 × £11.92 and £11.80 that then ends", async () => {
    const { api } = await registerMember(server.url);
    const { payPath, paymentIntentId } = await choose(api, "forever_plus", "monthly");
    const cardForm = subscriptionOf(paymentIntentId);
    const page = await api.get(payPath);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Pay on Stripe&#x27;s secure page");
    expect(page.text).not.toContain("needs JavaScript");

    const session = await openCheckout(api, payPath);
    expect(session).toMatchObject({
      mode: "subscription",
      amount_total: 1192,
      currency: "gbp",
      success_url: `${SITE}/subscription?success=true&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${SITE}${payPath}`,
      metadata: {
        kind: "plan",
        planId: "forever_plus",
        paymentType: "monthly",
        purchaseId: cardForm.metadata.purchaseId,
        planPaymentId: cardForm.metadata.planPaymentId,
      },
      subscription_data: { metadata: { kind: "plan", planPaymentId: cardForm.metadata.planPaymentId } },
    });
    // One plan payment, one way to pay: the card form's subscription (and its first invoice's payment) ended.
    expect(stripe.subscriptions.get(cardForm.id)!.status).toBe("canceled");
    expect(stripe.intents.get(paymentIntentId)!.status).toBe("canceled");
    // Pressing the button again opens the same page (the session is remembered, the key idempotent).
    expect((await openCheckout(api, payPath)).id).toBe(session.id);
    const reopened = await api.get(payPath);
    expect(reopened.text).toContain("so the card form here was closed");
    expect(reopened.text).not.toContain(stripe.intents.get(paymentIntentId)!.client_secret);

    // Back before paying: nothing.
    expect(await returnTo(api, `/subscription?success=true&session_id=${session.id}`)).toContain("Payment Failed");
    expect((await me(api)).subscriptionPlan).toBe("free");

    const paid = stripe.completeSession(session.id);
    const subscriptionId = paid.subscription!;
    const completed = stripe.event("checkout.session.completed", paid);
    const again = stripe.event("checkout.session.completed", paid);
    const firstInvoice = stripe.event("invoice.paid", stripe.invoices.get(paid.invoice!)!);
    const [hookA, hookB, hookC, backA, backB] = await Promise.all([
      postWebhook(completed, stripe.sign(completed)),
      postWebhook(again, stripe.sign(again)),
      postWebhook(firstInvoice, stripe.sign(firstInvoice)),
      api.get(`/subscription?success=true&session_id=${session.id}`),
      api.get(`/subscription?success=true&session_id=${session.id}`),
    ]);
    expect([hookA.status, hookB.status, hookC.status, backA.status, backB.status]).toEqual([200, 200, 200, 303, 303]);
    expect([hookA, hookB, hookC].filter((h) => h.json.handled === "plan granted").length).toBeLessThanOrEqual(1);
    for (const hook of [hookA, hookB, hookC]) expect(hook.json.handled).toMatch(/^plan (already )?granted$/);
    const member = await me(api);
    expect(member.subscriptionPlan).toBe("forever_plus");
    expect(member.subscriptionExpiryDate).not.toBeNull();
    expect((await api.get("/subscription")).text).toContain(SUBSCRIPTION_MESSAGES.paymentSuccessful);

    // On the same schedule as the card form's subscription: the plans module's instalments, then it ends. Once.
    const schedules = schedulesOf(subscriptionId);
    expect(schedules).toHaveLength(1);
    expect(schedules[0]).toMatchObject({
      end_behavior: "cancel",
      status: "active",
      metadata: { kind: "plan", planPaymentId: cardForm.metadata.planPaymentId },
    });
    expect(phasesOf(schedules[0])).toEqual([
      [1192, 35],
      [1180, 1],
    ]);
    expect(stripe.refunds.filter((r) => r.payment_intent === paid.payment_intent)).toHaveLength(0);
    // The purchase follows Checkout's subscription: its next invoice counts as instalment 2.
    expect(await sendEvent("invoice.paid", stripe.billNextMonth(subscriptionId))).toMatchObject({ handled: "instalment recorded" });
    expect((await api.get("/subscription")).text).toContain("payment 3 of 36");
    // And Cancel Subscription tells Stripe about that subscription.
    expect((await formPost(api, "/subscription", { intent: "cancel" })).status).toBe(303);
    expect(stripe.subscriptions.get(subscriptionId)).toMatchObject({ cancel_at_period_end: true, schedule: null });
    expect((await api.get("/subscription")).text).toContain("Cancelled: active until");
  });

  it("grants nothing for a forged, replayed or another member's session", async () => {
    const { api } = await registerMember(server.url);
    const { payPath } = await choose(api, "forever", "monthly");
    const real = await openCheckout(api, payPath);

    // Forged: a session made with the member's plan payment in its metadata but for £1.00 a month.
    const sdk = new Stripe(STRIPE_TEST_KEYS.STRIPE_SECRET_KEY, { host: "127.0.0.1", port: Number(new URL(stripe.url).port), protocol: "http" });
    const forged = await sdk.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ quantity: 1, price_data: { currency: "gbp", product: "everlight_plan_forever", unit_amount: 100, recurring: { interval: "month" } } }],
      metadata: real.metadata,
      subscription_data: { metadata: real.metadata },
      success_url: real.success_url,
      cancel_url: real.cancel_url,
    });
    const forgedPaid = stripe.completeSession(forged.id);
    expect(await returnTo(api, `/subscription?success=true&session_id=${forged.id}`)).toContain("does not match the plan");
    expect(await sendEvent("checkout.session.completed", forgedPaid)).toMatchObject({ handled: "plan mismatch" });
    // Its invoice, reported by Stripe, leads to the member's own session, which is not paid: nothing.
    expect(await sendEvent("invoice.paid", stripe.invoices.get(forgedPaid.invoice!)!)).toMatchObject({ handled: "plan unpaid" });
    // A session with nothing of ours, and one that does not exist.
    const stray = await sdk.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ quantity: 1, price_data: { currency: "gbp", product: "everlight_plan_forever", unit_amount: 775, recurring: { interval: "month" } } }],
      success_url: real.success_url,
      cancel_url: real.cancel_url,
    });
    stripe.completeSession(stray.id);
    expect(await returnTo(api, `/subscription?success=true&session_id=${stray.id}`)).toContain(SUBSCRIPTION_MESSAGES.paymentNotFound);
    expect(await returnTo(api, `/subscription?success=true&session_id=cs_test_doesnotexist`)).toContain(SUBSCRIPTION_MESSAGES.paymentNotFound);
    expect((await me(api)).subscriptionPlan).toBe("free");
    expect(schedulesOf(forgedPaid.subscription!)).toHaveLength(0);

    // A forged webhook (another secret) is refused.
    const paid = stripe.completeSession(real.id);
    const payload = stripe.event("checkout.session.completed", paid);
    expect((await postWebhook(payload, stripe.sign(payload, { secret: "whsec_someoneelse" }))).status).toBe(400);
    expect((await me(api)).subscriptionPlan).toBe("free");

    // Another member returning with the paid session: nothing for them (and nothing used up for the owner).
    const { api: stranger } = await registerMember(server.url);
    expect(await returnTo(stranger, `/subscription?success=true&session_id=${real.id}`)).toContain(SUBSCRIPTION_MESSAGES.paymentNotFound);
    expect((await me(stranger)).subscriptionPlan).toBe("free");

    // The owner: granted once; the same session replayed (return, webhook) grants and schedules nothing more.
    expect(await returnTo(api, `/subscription?success=true&session_id=${real.id}`)).toContain(SUBSCRIPTION_MESSAGES.paymentSuccessful);
    const granted = await me(api);
    expect(granted.subscriptionPlan).toBe("forever");
    expect(await sendEvent("checkout.session.completed", paid)).toMatchObject({ handled: "plan already granted" });
    expect(await returnTo(api, `/subscription?success=true&session_id=${real.id}`)).toContain(SUBSCRIPTION_MESSAGES.paymentSuccessful);
    expect(await me(api)).toEqual(granted);
    expect(schedulesOf(paid.subscription!)).toHaveLength(1);
    expect(phasesOf(schedulesOf(paid.subscription!)[0])).toEqual([[775, 36]]);
    expect(refundsOf(stripe.invoices.get(paid.invoice!)!.payments.data[0].payment.payment_intent)).toHaveLength(0);
  });
});

describe("one plan payment paid two ways (two tabs)", () => {
  it("a card payment that went through before Checkout was opened grants the plan, and no Checkout page is opened", async () => {
    const { api } = await registerMember(server.url);
    const { payPath, paymentIntentId } = await choose(api, "forever", "full");
    stripe.succeed(paymentIntentId);
    const sessionsBefore = stripe.sessions.size;
    const hosted = await formPost(api, payPath, { intent: "hosted" });
    expect(hosted.status).toBe(303);
    expect(hosted.headers.get("location")).toBe("/subscription");
    expect(stripe.sessions.size).toBe(sessionsBefore);
    expect((await api.get("/subscription")).text).toContain(SUBSCRIPTION_MESSAGES.upgraded(PLANS.forever.name));
    expect((await me(api)).subscriptionPlan).toBe("forever");
    expect(refundsOf(paymentIntentId)).toHaveLength(0);
  });

  it("in full: opening Checkout cancels the card form's payment; one that crossed the cancel is refunded once, whether the webhook or the return gets there first", async () => {
    const { api } = await registerMember(server.url);
    const { payPath, paymentIntentId } = await choose(api, "forever_plus", "full");
    const session = await openCheckout(api, payPath);
    expect(stripe.intents.get(paymentIntentId)!.status).toBe("canceled");
    const paid = stripe.completeSession(session.id);
    expect(await returnTo(api, `/subscription?success=true&session_id=${session.id}`)).toContain(SUBSCRIPTION_MESSAGES.paymentSuccessful);

    // The card form's confirmation crossed the cancel (the local server lets the test say it went through).
    const crossed = stripe.event("payment_intent.succeeded", stripe.succeed(paymentIntentId));
    const [hook, back, apiCall] = await Promise.all([
      postWebhook(crossed, stripe.sign(crossed)),
      api.get(`/subscription?success=true&payment_intent=${paymentIntentId}`),
      api.post("/api/complete-subscription-upgrade", { paymentIntentId }),
    ]);
    expect([hook.status, back.status, apiCall.status]).toEqual([200, 303, 200]);
    expect(hook.json.handled).toBe("second payment refunded");
    expect(apiCall.json).toMatchObject({
      planId: "forever_plus",
      alreadyDone: true,
      secondPaymentRefunded: true,
      message: SUBSCRIPTION_MESSAGES.secondPaymentRefunded,
    });
    expect((await api.get("/subscription")).text).toContain(SUBSCRIPTION_MESSAGES.secondPaymentRefunded);
    expect(refundsOf(paymentIntentId)).toHaveLength(1);
    expect(refundsOf(paymentIntentId)[0].amount).toBe(42_900);
    // Checkout's payment is the plan's: kept. Replays refund nothing more.
    expect(refundsOf(paid.payment_intent!)).toHaveLength(0);
    expect(await sendEvent("payment_intent.succeeded", stripe.intents.get(paymentIntentId)!)).toMatchObject({ handled: "second payment refunded" });
    expect(await returnTo(api, `/subscription?success=true&payment_intent=${paymentIntentId}`)).toContain(SUBSCRIPTION_MESSAGES.secondPaymentRefunded);
    expect(await sendEvent("payment_intent.succeeded", stripe.intents.get(paid.payment_intent!)!)).toMatchObject({ handled: "plan already granted" });
    expect(refundsOf(paymentIntentId)).toHaveLength(1);
    expect(await me(api)).toMatchObject({ subscriptionPlan: "forever_plus", subscriptionExpiryDate: null });

    // A second Checkout page for the same plan payment (as after the first one expired), paid too: refunded.
    const sdk = new Stripe(STRIPE_TEST_KEYS.STRIPE_SECRET_KEY, { host: "127.0.0.1", port: Number(new URL(stripe.url).port), protocol: "http" });
    const second = await sdk.checkout.sessions.create({
      mode: "payment",
      line_items: [{ quantity: 1, price_data: { currency: "gbp", unit_amount: 42_900, product_data: { name: "Everlight Forever Plus" } } }],
      metadata: session.metadata,
      payment_intent_data: { metadata: session.metadata },
      success_url: session.success_url,
      cancel_url: session.cancel_url,
    });
    const secondPaid = stripe.completeSession(second.id);
    expect(await returnTo(api, `/subscription?success=true&session_id=${second.id}`)).toContain(SUBSCRIPTION_MESSAGES.secondPaymentRefunded);
    expect(await sendEvent("checkout.session.completed", secondPaid)).toMatchObject({ handled: "second payment refunded" });
    expect(await sendEvent("payment_intent.succeeded", stripe.intents.get(secondPaid.payment_intent!)!)).toMatchObject({ handled: "second payment refunded" });
    expect(refundsOf(secondPaid.payment_intent!)).toHaveLength(1);
    expect(refundsOf(paid.payment_intent!)).toHaveLength(0);
  });

  it("monthly: a first invoice paid on the card form's ended subscription is refunded and that subscription stays ended; Checkout's runs on", async () => {
    const { api } = await registerMember(server.url);
    const { payPath, paymentIntentId } = await choose(api, "forever", "monthly");
    const cardForm = subscriptionOf(paymentIntentId);
    const session = await openCheckout(api, payPath);
    const paid = stripe.completeSession(session.id);
    expect(await returnTo(api, `/subscription?success=true&session_id=${session.id}`)).toContain(SUBSCRIPTION_MESSAGES.paymentSuccessful);

    stripe.succeed(paymentIntentId);
    const invoice = [...stripe.invoices.values()].find((i) => i.parent.subscription_details.subscription === cardForm.id)!;
    expect(await sendEvent("invoice.paid", invoice)).toMatchObject({ handled: "second payment refunded" });
    expect(await returnTo(api, `/subscription?success=true&payment_intent=${paymentIntentId}`)).toContain(SUBSCRIPTION_MESSAGES.secondPaymentRefunded);
    expect(await sendEvent("invoice.paid", invoice)).toMatchObject({ handled: "second payment refunded" });
    expect(refundsOf(paymentIntentId)).toHaveLength(1);
    expect(refundsOf(paymentIntentId)[0].amount).toBe(775);
    expect(stripe.subscriptions.get(cardForm.id)!.status).toBe("canceled");
    expect(stripe.subscriptions.get(paid.subscription!)!.status).toBe("active");
    expect((await me(api)).subscriptionPlan).toBe("forever");
    expect(await sendEvent("invoice.paid", stripe.billNextMonth(paid.subscription!))).toMatchObject({ handled: "instalment recorded" });
  });

  it("a refund Stripe cannot take yet is retried: the webhook asks again, the member is told it will be refunded, then it is, once", async () => {
    const { api } = await registerMember(server.url);
    const { payPath, paymentIntentId } = await choose(api, "forever", "full");
    const session = await openCheckout(api, payPath);
    stripe.completeSession(session.id);
    await returnTo(api, `/subscription?success=true&session_id=${session.id}`);
    const crossed = stripe.event("payment_intent.succeeded", stripe.succeed(paymentIntentId));
    stripe.refundsDown = true;
    try {
      expect((await postWebhook(crossed, stripe.sign(crossed))).status).toBe(503);
      expect(await returnTo(api, `/subscription?success=true&payment_intent=${paymentIntentId}`)).toContain("will be refunded");
      expect(refundsOf(paymentIntentId)).toHaveLength(0);
    } finally {
      stripe.refundsDown = false;
    }
    const retried = await postWebhook(crossed, stripe.sign(crossed));
    expect(retried.json).toMatchObject({ duplicate: false, handled: "second payment refunded" });
    expect(refundsOf(paymentIntentId)).toHaveLength(1);
    expect((await me(api)).subscriptionPlan).toBe("forever");
  });
});

describe("the end of a Stripe subscription", () => {
  it("cancelling while Stripe is unreachable changes nothing and says so; customer.subscription.deleted ends the purchase, access to the end of the period paid for", async () => {
    const { api } = await registerMember(server.url);
    const created = await start(api, "forever", "monthly");
    const subscription = subscriptionOf(created.paymentIntentId);
    stripe.succeed(created.paymentIntentId);
    expect((await api.post("/api/complete-subscription-upgrade", { paymentIntentId: created.paymentIntentId })).status).toBe(200);
    const before = await me(api);

    stripe.unreachable = true;
    try {
      const cancelled = await formPost(api, "/subscription", { intent: "cancel" });
      expect(cancelled.status).toBe(303);
      expect((await api.get("/subscription")).text).toContain(SUBSCRIPTION_MESSAGES.cancelFailed);
    } finally {
      stripe.unreachable = false;
    }
    expect(stripe.subscriptions.get(subscription.id)).toMatchObject({ cancel_at_period_end: false, status: "active" });
    expect(stripe.schedules.get(subscription.schedule!)!.status).toBe("active");
    expect(await me(api)).toEqual(before);
    expect((await api.get("/subscription")).text).not.toContain("Cancelled: active until");

    // Stripe ends the subscription (it gave up on a card, or someone cancelled it in Stripe's dashboard).
    const ended = { ...stripe.subscriptions.get(subscription.id)!, status: "canceled" };
    expect(await sendEvent("customer.subscription.deleted", ended)).toMatchObject({ handled: "plan lapsed" });
    expect(await sendEvent("customer.subscription.deleted", ended)).toMatchObject({ handled: "plan unchanged" });
    // The month paid for (and its grace) stays; no more instalments are counted.
    expect(await me(api)).toEqual(before);
    expect(await sendEvent("invoice.paid", stripe.billNextMonth(subscription.id))).toMatchObject({ handled: "instalment ignored (plan lapsed)" });
  });
});

/** The email to `address` with this subject (a plan payment's receipt comes first, so the subject picks). */
async function mailTo(address: string, subject: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const index = smtp.recipients.findIndex((r, i) => r.includes(address) && smtp.received[i]?.subject === subject);
    if (index >= 0) return smtp.received[index];
    if (Date.now() > deadline) throw new Error(`No email to ${address}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
