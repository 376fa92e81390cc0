import { parseForm } from "~/request/form.server";
import { lazy, Suspense } from "react";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/subscription_.pay.$paymentId";
import { SupportLink } from "~/components/contact-form-link";
import { PayOrCancel } from "~/components/plans/pay-or-cancel";
import { TestCardChoice } from "~/components/plans/test-card-choice";
import { FormAlert, useHydrated } from "~/components/forms";
import { getPendingPlanPayment, payTestPlanPayment, startPlanCheckout } from "~/models/commerce/plan-checkout.server";
import { requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { completionToast } from "./plan-answers.server";
import { publicUrl } from "~/services/env.server";
import { getPaymentProvider } from "~/services/payments.server";
import { PaymentProviderError } from "~/services/payments/provider.server";
import { formatPence } from "~/utils/money";
import { describeInstalments, PLANS, SUBSCRIPTION_MESSAGES } from "~/utils/plans";
import { payTestPlanFormSchema } from "~/utils/validation/subscription";

// The payment screen of a plan (Complete Your Payment, Upgrading to {plan} with price and
// billing). With the built-in provider
// Complete Payment is a plain form (no card, no money); the plan is granted by the same use case as the
// /api's complete-subscription-upgrade, which asks the provider about the payment first. A payment that
// is not the caller's, or no longer waiting, is not found here.
// With Stripe: the Payment Element with JavaScript (Stripe returns to /subscription?success=true, whose
// loader completes the plan), and Stripe Checkout without it (a plain form answering 303 to Stripe's page):
// in full, a payment; monthly, a subscription (Checkout's subscription mode) put on the same schedule as the
// Element's. Opening Checkout cancels the Element's payment, so the page then offers Checkout only.

const StripePayment = lazy(() => import("~/components/shop/stripe-payment"));

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const pending = await getPendingPlanPayment(user, params.paymentId);
  if (!pending) throw data({ message: SUBSCRIPTION_MESSAGES.paymentNotFound }, { status: 404 });
  const provider = getPaymentProvider();
  let stripe: { publishableKey: string; clientSecret: string } | null = null;
  if (provider.name === "stripe" && pending.provider === "stripe" && provider.publishableKey && !pending.checkoutOpened) {
    // The client secret goes to this member's own page only, for Stripe.js; it is never stored by us.
    const payment = await provider.getPayment(pending.paymentId).catch((error: unknown) => {
      if (error instanceof PaymentProviderError) return null;
      throw error;
    });
    if (payment?.clientSecret) stripe = { publishableKey: provider.publishableKey, clientSecret: payment.clientSecret };
  }
  return { ...pending, providerName: provider.name, stripe, stripeCheckout: provider.name === "stripe" && pending.provider === "stripe" };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  if (form.get("intent") === "hosted") {
    const checkout = await startPlanCheckout(user, params.paymentId, publicUrl());
    if (checkout.ok && "url" in checkout) return redirect(checkout.url, { status: 303 });
    if (checkout.ok) {
      // The card form's payment had gone through in another tab: nothing more is taken.
      return redirectWithToast("/subscription", completionToast(checkout.paid, UPGRADED));
    }
    if (checkout.reason === "not-found") throw data({ message: checkout.message }, { status: 404 });
    return data({ title: "Payment Error", message: checkout.message }, { status: checkout.reason === "provider" ? 502 : 409 });
  }
  const submission = parseForm(form, { schema: payTestPlanFormSchema });
  const result = await payTestPlanPayment(user, params.paymentId, submission.status === "success" ? submission.value.testCard : undefined);
  if (!result) throw data({ message: SUBSCRIPTION_MESSAGES.paymentNotFound }, { status: 404 });
  // Paid, or paid and refunded because the plan had moved on meanwhile (a tab left open): said on the plans page.
  if (result.ok || result.reason === "superseded") return redirectWithToast("/subscription", completionToast(result, UPGRADED));
  return data({ title: "Upgrade Failed", message: result.message }, { status: result.reason === "not-found" ? 404 : 409 });
}

const UPGRADED = { title: SUBSCRIPTION_MESSAGES.upgradedTitle, text: SUBSCRIPTION_MESSAGES.upgraded };

export default function PlanPaymentPage({ loaderData, actionData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  const plan = PLANS[loaderData.planId];
  const billing =
    loaderData.paymentType === "monthly"
      ? `${formatPence(loaderData.amountPence)} today, then monthly: ${describeInstalments(plan)}`
      : `${formatPence(loaderData.amountPence)}, one-time payment`;
  return (
    <div className="mx-auto max-w-xl px-4 py-10">
      <Link to="/subscription" className="link text-sm">
        ← Back to plans
      </Link>
      <h1 className="mt-2 text-3xl font-bold text-stone-900">Complete Your Payment</h1>
      <p className="mt-2 text-stone-800">
        Upgrading to <strong>{plan.name}</strong>: {billing}
      </p>
      {actionData ? (
        <div className="mt-4">
          <FormAlert title={actionData.title}>{actionData.message}</FormAlert>
        </div>
      ) : null}
      {loaderData.overtaken ? (
        <div className="mt-6 space-y-4">
          <FormAlert title={SUBSCRIPTION_MESSAGES.overtakenPayTitle}>{`${loaderData.overtaken} Nothing has been charged.`}</FormAlert>
          <Link to="/subscription" className="btn-primary">
            Back to plans
          </Link>
        </div>
      ) : loaderData.providerName === "test" && loaderData.provider === "test" ? (
        <Form method="post" className="mt-6 space-y-4 rounded-lg border border-amber-300 bg-amber-50 p-5">
          <p className="text-stone-800">
            <strong>Test payment:</strong> payments are not set up on this site, so no card is asked for and no money moves.
          </p>
          {loaderData.paymentType === "monthly" ? <TestCardChoice legend="Saved test card for the later payments" selected={loaderData.testCard} /> : null}
          <PayOrCancel label="Complete Payment" />
        </Form>
      ) : loaderData.stripe || (loaderData.stripeCheckout && loaderData.checkoutOpened) ? (
        <div className="mt-6 space-y-6">
          {loaderData.checkoutOpened ? <p className="text-stone-800">{SUBSCRIPTION_MESSAGES.checkoutOpened}</p> : null}
          {hydrated && loaderData.stripe ? (
            <Suspense fallback={<p role="status">Loading the secure payment form...</p>}>
              <StripePayment
                publishableKey={loaderData.stripe.publishableKey}
                clientSecret={loaderData.stripe.clientSecret}
                payLabel="Complete Payment"
                returnPath="/subscription?success=true"
              />
            </Suspense>
          ) : null}
          <Form method="post">
            <input type="hidden" name="intent" value="hosted" />
            {hydrated && loaderData.stripe ? <p className="text-sm text-stone-700">If the card form does not appear:</p> : null}
            {loaderData.paymentType === "monthly" ? (
              <p className="text-sm text-stone-700">
                On Stripe&apos;s page you pay the first instalment and agree to the monthly payments; they stop by themselves after the last one.
              </p>
            ) : null}
            <PayOrCancel
              label="Pay on Stripe's secure page"
              buttonClassName={hydrated && loaderData.stripe ? "btn-secondary" : "btn-primary"}
              className="mt-2 flex flex-wrap gap-3"
            />
          </Form>
        </div>
      ) : (
        <div className="mt-6">
          <FormAlert title="Payment Setup Issue">
            {"Payment setup failed. Please try again. Nothing has been charged. "}
            <SupportLink>Contact us</SupportLink>
          </FormAlert>
        </div>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Complete Your Payment · Everlight" }, { name: "robots", content: "noindex" }];
