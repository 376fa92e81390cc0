import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/subscription_.pay.$paymentId";
import { SupportLink } from "~/components/contact-form-link";
import { FormAlert } from "~/components/forms";
import { getPendingPlanPayment, payTestPlanPayment } from "~/models/plan.server";
import { requireUser } from "~/request/auth.server";
import { withToast } from "~/request/toast.server";
import { getPaymentProvider } from "~/services/payments.server";
import { formatPence } from "~/utils/money";
import { describeInstalments, PLANS, SUBSCRIPTION_MESSAGES, TEST_CARDS } from "~/utils/plans";
import { testCardSchema } from "~/utils/validation/subscription";

// The payment screen of a plan (commerce-and-accounts.md §2 "Subscription": Complete Your Payment,
// Upgrading to {plan} with price and billing; §4 "Subscription purchase"). With the built-in provider
// Complete Payment is a plain form (no card, no money); the plan is granted by the same use case as the
// /api's complete-subscription-upgrade, which asks the provider about the payment first. A payment that
// is not the caller's, or no longer waiting, is not found here.

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const pending = await getPendingPlanPayment(user, params.paymentId);
  if (!pending) throw data({ message: SUBSCRIPTION_MESSAGES.paymentNotFound }, { status: 404 });
  return { ...pending, providerName: getPaymentProvider().name };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const card = testCardSchema.safeParse(form.get("testCard"));
  const result = await payTestPlanPayment(user, params.paymentId, card.success ? card.data : undefined);
  if (!result) throw data({ message: SUBSCRIPTION_MESSAGES.paymentNotFound }, { status: 404 });
  if (!result.ok) return data({ title: "Upgrade Failed", message: result.message }, { status: result.reason === "not-found" ? 404 : 409 });
  const plan = PLANS[result.planId];
  return redirect("/subscription", {
    status: 303,
    headers: await withToast({ type: "success", title: SUBSCRIPTION_MESSAGES.upgradedTitle, description: SUBSCRIPTION_MESSAGES.upgraded(plan.name) }),
  });
}

export default function PlanPaymentPage({ loaderData, actionData }: Route.ComponentProps) {
  const plan = PLANS[loaderData.planId];
  const billing = loaderData.paymentType === "monthly" ? `${formatPence(loaderData.amountPence)} today, then monthly: ${describeInstalments(plan)}` : `${formatPence(loaderData.amountPence)}, one-time payment`;
  return (
    <div className="mx-auto max-w-xl px-4 py-10">
      <Link to="/subscription" className="link text-sm">
        ← Back to plans
      </Link>
      <h1 className="mt-2 font-serif text-3xl font-bold text-slate-900">Complete Your Payment</h1>
      <p className="mt-2 text-slate-800">
        Upgrading to <strong>{plan.name}</strong>: {billing}
      </p>
      {actionData ? (
        <div className="mt-4">
          <FormAlert title={actionData.title}>{actionData.message}</FormAlert>
        </div>
      ) : null}
      {loaderData.providerName === "test" && loaderData.provider === "test" ? (
        <Form method="post" className="mt-6 space-y-4 rounded-lg border border-amber-300 bg-amber-50 p-5">
          <p className="text-slate-800">
            <strong>Test payment:</strong> payments are not set up on this site, so no card is asked for and no money moves.
          </p>
          {loaderData.paymentType === "monthly" ? (
            <fieldset>
              <legend className="font-medium text-slate-900">Saved test card for the later payments</legend>
              <div className="mt-2 space-y-2">
                {TEST_CARDS.map((card) => (
                  <label key={card.id} className="flex items-start gap-2 text-slate-800">
                    <input type="radio" name="testCard" value={card.id} defaultChecked={card.id === loaderData.testCard} className="mt-1" />
                    {card.label}
                  </label>
                ))}
              </div>
            </fieldset>
          ) : null}
          <div className="flex flex-wrap gap-3">
            <button type="submit" className="btn-primary">
              Complete Payment
            </button>
            <Link to="/subscription" className="btn-secondary">
              Cancel
            </Link>
          </div>
        </Form>
      ) : (
        <div className="mt-6">
          <FormAlert title="Payment Setup Issue">
            {"Card payments for plans are not available yet. Nothing has been charged. "}
            <SupportLink>Contact us</SupportLink>
          </FormAlert>
        </div>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Complete Your Payment · Everlight" }, { name: "robots", content: "noindex" }];
