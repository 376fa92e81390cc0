import { parseForm } from "~/request/form.server";
import { lazy, Suspense } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/checkout";
import { ButtonLinks } from "~/components/button-links";
import { FormAlert, useHydrated } from "~/components/forms";
import { OrderSummary } from "~/components/shop/order-summary";
import { ShippingForm } from "~/components/shop/shipping-form";
import { getBasket } from "~/models/commerce/cart.server";
import { getCheckoutForPayment, shippingOfCheckout, startCheckout, type CheckoutSummary } from "~/models/commerce/order-checkout.server";
import { payTestPayment } from "~/models/commerce/order-completion.server";
import { requireUser } from "~/request/auth.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { redirectWithToast } from "~/request/toast.server";
import { publicUrl } from "~/services/env.server";
import { getPaymentProvider } from "~/services/payments.server";
import { PaymentProviderError } from "~/services/payments/provider.server";
import { countryName } from "~/utils/countries";
import { formatPence } from "~/utils/money";
import { SHOP_MESSAGES, TEST_PAYMENT_TITLE } from "~/utils/shop";
import { shippingDefaults, shippingSchema } from "~/utils/validation/shop";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Checkout: step 1 the
// shipping form, step 2 the payment, beside the order summary. Every amount is computed on the server
// from the database. Continue to Payment makes the checkout and its payment (commerce/order-checkout.server.ts startCheckout):
// - with the built-in test provider, step 2 here is a clearly labelled test payment, a form (with or
//   without JavaScript);
// - with Stripe and JavaScript, step 2 here is Stripe's embedded Payment Element;
// - with Stripe and no JavaScript, the answer is a 303 to a Stripe Checkout page, which comes back to
//   /order-confirmation?session_id=….

const StripePayment = lazy(() => import("~/components/shop/stripe-payment"));

export const handle: KeptPageHandle = { kept: { members: "none" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const provider = getPaymentProvider();
  let notice: string | null = url.searchParams.has("cancelled") ? "Payment cancelled: nothing was charged, and your basket is as you left it." : null;
  const checkoutId = url.searchParams.get("payment");
  if (checkoutId) {
    try {
      const found = await getCheckoutForPayment(user, checkoutId);
      if (found.status === "done") throw redirect(`/order-confirmation?${new URLSearchParams({ payment_intent: found.paymentId })}`);
      if (found.status === "pay") return { step: "payment" as const, checkout: found.checkout };
      notice = "That payment is no longer waiting. Please check your details and continue again.";
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      console.error(error.message);
      notice = SHOP_MESSAGES.unavailable;
    }
  }
  const basket = await getBasket(user);
  return {
    step: "shipping" as const,
    basket,
    defaults: shippingDefaults(user),
    notice,
    provider: { name: provider.name, isTest: provider.isTest },
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const site = publicUrl();

  if (intent === "pay") {
    // The test provider's Pay button: the payment succeeds and the order is made (or refunded, if sold out).
    const paymentId = String(formData.get("paymentId") ?? "").slice(0, 255);
    const result = await payTestPayment(user, paymentId);
    if (!result.ok && result.reason === "not-found") {
      return redirectWithToast("/checkout", { type: "error", title: "Payment Error", description: SHOP_MESSAGES.paymentUnexpected });
    }
    return redirect(`/order-confirmation?${new URLSearchParams({ payment_intent: paymentId })}`, { status: 303 });
  }

  if (intent === "hosted") {
    // Step 2 reached without JavaScript with Stripe: pay on Stripe's own page instead, same details.
    const shipping = await shippingOfCheckout(user, String(formData.get("checkoutId") ?? ""));
    if (!shipping) return redirect("/checkout", { status: 303 });
    const result = await startCheckout(user, shipping, { hosted: true, site });
    if (result.ok && result.next.kind === "redirect") return redirect(result.next.url, { status: 303 });
    return redirectWithToast("/checkout", { type: "error", title: "Error", description: result.ok ? SHOP_MESSAGES.paymentCreateFailed : result.message });
  }

  const submission = parseForm(formData, { schema: shippingSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), failure: null }, { status: 400 });
  const result = await startCheckout(user, submission.value, { hosted: formData.get("js") !== "1", site });
  if (result.ok) {
    if (result.next.kind === "redirect") return redirect(result.next.url, { status: 303 });
    return redirect(`/checkout?${new URLSearchParams({ payment: result.checkoutId })}`, { status: 303 });
  }
  if (result.reason === "empty") return redirect("/checkout", { status: 303 });
  if (result.reason === "rate-limited")
    return data({ result: submission.reply(), failure: { title: "Too many attempts", message: result.message } }, rateLimitedInit(result));
  const failure =
    result.reason === "stock"
      ? { title: SHOP_MESSAGES.stockTitle, message: result.message }
      : { title: result.reason === "too-large" ? "Order too large" : "Error", message: result.message };
  return data({ result: submission.reply(), failure }, { status: result.reason === "stock" ? 409 : result.reason === "too-large" ? 422 : 502 });
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-bold text-stone-900">Checkout</h1>
        <Link to="/basket" className="link">
          Back to basket
        </Link>
      </div>
      {loaderData.step === "payment" ? (
        <PaymentStep checkout={loaderData.checkout} />
      ) : loaderData.basket.lines.length === 0 ? (
        <div className="mt-6 rounded-lg border border-stone-200 bg-white p-6">
          <p className="text-stone-800">{SHOP_MESSAGES.basketEmpty} There is nothing to check out.</p>
          <ButtonLinks
            className="mt-4"
            links={[
              { to: "/basket", label: "Go to your basket" },
              { to: "/products", label: "Browse products" },
            ]}
          />
        </div>
      ) : (
        <>
          <Steps current={1} />
          <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_22rem]">
            <section aria-labelledby="shipping-heading" className="rounded-lg border border-stone-200 bg-white p-4 sm:p-6">
              <h2 id="shipping-heading" className="text-lg font-semibold text-stone-900">
                Shipping details
              </h2>
              <div className="mt-4 space-y-4">
                {loaderData.notice ? (
                  <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900">
                    {loaderData.notice}
                  </p>
                ) : null}
                {actionData?.failure ? (
                  <FormAlert title={actionData.failure.title}>
                    {actionData.failure.message}{" "}
                    {actionData.failure.title === SHOP_MESSAGES.stockTitle || actionData.failure.title === "Order too large" ? (
                      <Link to="/basket" className="link">
                        Check your basket
                      </Link>
                    ) : null}
                  </FormAlert>
                ) : null}
                {loaderData.basket.hasProblems ? (
                  <FormAlert title={SHOP_MESSAGES.stockTitle}>
                    {SHOP_MESSAGES.basketChanged}{" "}
                    <Link to="/basket" className="link">
                      Check your basket
                    </Link>
                  </FormAlert>
                ) : (
                  <ShippingForm lastResult={actionData?.result} defaultValue={loaderData.defaults} />
                )}
                {loaderData.provider.isTest && loaderData.provider.name === "test" ? (
                  <p className="text-sm text-stone-700">Payments here are test payments: no card is asked for and nothing is charged.</p>
                ) : null}
              </div>
            </section>
            <OrderSummary
              lines={loaderData.basket.lines.map((l) => ({ key: l.id, name: l.name, quantity: l.quantity, lineTotal: l.lineTotal, image: l.image }))}
              subtotal={loaderData.basket.subtotal}
              tax={loaderData.basket.tax}
              total={loaderData.basket.total}
            />
          </div>
        </>
      )}
    </div>
  );
}

function Steps({ current }: { current: 1 | 2 }) {
  const steps = ["Shipping", "Payment"];
  return (
    <ol className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm" aria-label="Checkout steps">
      {steps.map((label, i) => (
        <li
          key={label}
          aria-current={current === i + 1 ? "step" : undefined}
          className={`flex items-center gap-2 ${current === i + 1 ? "font-semibold text-heather-800" : "text-stone-700"}`}
        >
          <span
            aria-hidden="true"
            className={`flex h-6 w-6 items-center justify-center rounded-full ${current === i + 1 ? "bg-heather-700 text-white" : "bg-stone-200 text-stone-800"}`}
          >
            {i + 1}
          </span>
          <span>
            <span className="sr-only">Step {i + 1}: </span>
            {label}
            {current > i + 1 ? <span className="sr-only"> (done)</span> : null}
          </span>
        </li>
      ))}
    </ol>
  );
}

function PaymentStep({ checkout }: { checkout: CheckoutSummary }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const paying = navigation.state !== "idle" && navigation.formData?.get("intent") === "pay";
  const payLabel = `Pay ${formatPence(checkout.total)}`;
  const s = checkout.shipping;
  return (
    <>
      <Steps current={2} />
      <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_22rem]">
        <div className="space-y-6">
          <section aria-labelledby="payment-heading" className="rounded-lg border border-stone-200 bg-white p-4 sm:p-6">
            <h2 id="payment-heading" className="text-lg font-semibold text-stone-900">
              {checkout.provider.name === "test" ? TEST_PAYMENT_TITLE : "Payment"}
            </h2>
            {checkout.provider.name === "test" ? (
              <div className="mt-4 space-y-4">
                <p className="rounded-md border border-violet-300 bg-violet-50 px-4 py-3 text-violet-950">
                  This shop takes test payments: no card is asked for and no money moves. Pressing the button places a test order, marked as one wherever it is
                  shown.
                </p>
                <Form method="post">
                  <input type="hidden" name="intent" value="pay" />
                  <input type="hidden" name="paymentId" value={checkout.paymentId} />
                  <button type="submit" className="btn-primary w-full sm:w-auto" disabled={paying}>
                    {paying ? "Processing payment..." : `${payLabel} (test)`}
                  </button>
                </Form>
              </div>
            ) : (
              <div className="mt-4">
                {hydrated && checkout.clientSecret && checkout.provider.publishableKey ? (
                  <Suspense fallback={<p role="status">Loading the secure payment form...</p>}>
                    <StripePayment publishableKey={checkout.provider.publishableKey} clientSecret={checkout.clientSecret} payLabel={payLabel} />
                  </Suspense>
                ) : (
                  // Before the page's scripts run, or without them: Stripe's own payment page instead.
                  <Form method="post" className="space-y-3">
                    <p className="text-stone-700">
                      The card form needs JavaScript. You can pay on Stripe&apos;s secure page instead; you will come back here afterwards.
                    </p>
                    <input type="hidden" name="intent" value="hosted" />
                    <input type="hidden" name="checkoutId" value={checkout.id} />
                    <button type="submit" className="btn-primary w-full sm:w-auto">
                      Pay on Stripe&apos;s secure page
                    </button>
                  </Form>
                )}
              </div>
            )}
          </section>
          <section aria-labelledby="deliver-heading" className="rounded-lg border border-stone-200 bg-white p-4 sm:p-6">
            <h2 id="deliver-heading" className="text-lg font-semibold text-stone-900">
              Sending to
            </h2>
            <address className="mt-2 not-italic text-stone-800 wrap-anywhere">
              {s.firstName} {s.lastName}
              <br />
              {s.address}, {s.city}, {s.state} {s.zipCode}, {countryName(s.country)}
              <br />
              {s.email} · {s.phone}
            </address>
            <Link to="/checkout" className="link mt-2 inline-block">
              Change shipping details
            </Link>
          </section>
        </div>
        <OrderSummary
          lines={checkout.items.map((i, n) => ({ key: String(n), name: i.name, quantity: i.quantity, lineTotal: i.lineTotal, image: { src: i.imageUrl } }))}
          subtotal={checkout.subtotal}
          tax={checkout.tax}
          total={checkout.total}
        />
      </div>
    </>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Checkout · Everlight" }];
