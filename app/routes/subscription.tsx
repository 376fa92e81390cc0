import { parseForm } from "~/request/form.server";
import { useEffect, useRef } from "react";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/subscription";
import { countOf } from "~/utils/counts";
import { SupportLink } from "~/components/contact-form-link";
import { EndowmentPolicyPoints } from "~/components/endowment-policy";
import { PayOrCancel } from "~/components/plans/pay-or-cancel";
import { TestCardChoice } from "~/components/plans/test-card-choice";
import { FormAlert, useHydrated } from "~/components/forms";
import { Icon, type IconName } from "~/components/icons";
import { cancelPlan, resumePlan } from "~/models/commerce/plan-instalments.server";
import { completePlanPayment, completePlanSession } from "~/models/commerce/plan-completion.server";
import { endowmentFund, getSubscription, planOffer, planOffers } from "~/models/commerce/plan-subscription.server";
import { startPlanPurchase } from "~/models/commerce/plan-checkout.server";
import { requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { completionToast } from "./plan-answers.server";
import { getPaymentProvider } from "~/services/payments.server";
import { formatLongDate } from "~/utils/dates";
import { formatPence } from "~/utils/money";
import {
  describeInstalments,
  ENDOWMENT_PERCENT,
  FREE_MEMORIAL_LIMIT,
  instalments,
  PLAN_ORDER,
  PLANS,
  SUBSCRIPTION_MESSAGES,
  type PaymentType,
  type PlanId,
} from "~/utils/plans";
import { planIdSchema, startPlanFormSchema } from "~/utils/validation/subscription";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Plans. Every step is a plain
// address or form: Upgrade Now opens the payment choice (?plan=…), Continue to Payment records the
// purchase and goes to the payment screen (/subscription/pay/…), Downgrade to Free says how (?downgrade),
// Cancel Subscription stops the instalments for real. The endowment policy is a section of the page, and a
// dialog with JavaScript; its fund figure is summed from the payments taken.

const FEATURES: Record<PlanId, string[]> = {
  free: [`Up to ${FREE_MEMORIAL_LIMIT} memorials`, "Photos, videos and tributes", "Share with family and friends"],
  forever: ["Unlimited memorials", "Everything in Free", `${ENDOWMENT_PERCENT}% to the endowment fund that keeps memorials online`],
  // The vault has its own line below every list (included or not), so it is not a feature here too.
  forever_plus: ["Everything in Forever", `${ENDOWMENT_PERCENT}% to the endowment fund`],
};

export const handle: KeptPageHandle = { kept: { members: "none" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  if (url.searchParams.get("success") === "true") await completeReturn(user.id, url.searchParams);
  const [subscription, fund] = await Promise.all([getSubscription(user), endowmentFund()]);
  const chosen = planIdSchema.safeParse(url.searchParams.get("plan"));
  let choice = null;
  if (chosen.success && chosen.data !== "free") {
    const offer = await planOffer(user, chosen.data);
    choice = "refused" in offer ? { planId: chosen.data, refused: offer.refused, pricePence: 0, credit: 0, monthly: false } : { ...offer, refused: null };
  }
  return {
    subscription,
    fund,
    choice,
    offers: planOffers(subscription),
    confirmCancel: url.searchParams.has("cancel") && subscription.purchase?.status === "active" && subscription.planId !== "free",
    downgrade: url.searchParams.has("downgrade"),
    testProvider: getPaymentProvider().name === "test",
  };
}

/**
 * Back from Stripe (the return address /subscription?success=true): with ?payment_intent=… from the
 * Payment Element, or ?session_id=… from Checkout. The plan is granted by the same use case as the /api and
 * the webhook (the payment checked with Stripe, once); the address then resets to /subscription.
 */
async function completeReturn(userId: string, params: URLSearchParams): Promise<never> {
  const paymentId = params.get("payment_intent");
  const sessionId = params.get("session_id");
  const result = sessionId ? await completePlanSession(sessionId, { userId }) : paymentId ? await completePlanPayment(paymentId, { userId }) : null;
  // A second payment for a plan already paid (two tabs, two ways to pay) was refunded: the member is told.
  throw await redirectWithToast(
    "/subscription",
    completionToast(result, { title: SUBSCRIPTION_MESSAGES.paymentSuccessfulTitle, text: () => SUBSCRIPTION_MESSAGES.paymentSuccessful }),
  );
}

type ActionData = { message: string; field?: "paymentType" };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  if (intent === "cancel") {
    const result = await cancelPlan(user);
    if (!result.ok && result.reason === "provider") return redirectWithToast("/subscription", { type: "error", title: "Error", description: result.message });
    if (!result.ok)
      return redirectWithToast("/subscription", {
        type: "info",
        title: result.reason === "paid-in-full" ? "Paid in full" : "Nothing to cancel",
        description: result.message,
      });
    return redirectWithToast("/subscription", { type: "success", title: SUBSCRIPTION_MESSAGES.cancelledTitle, description: result.message });
  }
  if (intent === "resume") {
    const result = await resumePlan(user);
    const toast = result.ok
      ? { type: "success" as const, title: SUBSCRIPTION_MESSAGES.resumeTitle, description: result.message }
      : {
          type: result.reason === "provider" ? ("error" as const) : ("info" as const),
          title: result.reason === "provider" ? "Error" : "Nothing to resume",
          description: result.message,
        };
    return redirectWithToast("/subscription", toast);
  }
  if (intent === "start") {
    const submission = parseForm(form, { schema: startPlanFormSchema });
    // The plan is a hidden field: a wrong one is the page's fault, not the member's, so it is said first.
    if (submission.status !== "success" && submission.error?.planId) return data<ActionData>({ message: SUBSCRIPTION_MESSAGES.createFailed }, { status: 400 });
    if (submission.status !== "success") return data<ActionData>({ message: SUBSCRIPTION_MESSAGES.choosePaymentType, field: "paymentType" }, { status: 400 });
    const { planId, paymentType, testCard } = submission.value;
    const result = await startPlanPurchase(user, planId, paymentType, { testCard });
    if (!result.ok) return data<ActionData>({ message: result.message }, { status: result.reason === "provider" ? 502 : 400 });
    return redirect(`/subscription/pay/${encodeURIComponent(result.paymentId)}`, { status: 303 });
  }
  return data<ActionData>({ message: SUBSCRIPTION_MESSAGES.createFailed }, { status: 400 });
}

export default function SubscriptionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { subscription, fund, choice, downgrade } = loaderData;
  const current = PLANS[subscription.planId];
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">Subscription</h1>
      <p className="mt-2 text-stone-700">Choose how long your memorials are kept, and whether your family has the vault.</p>

      <CurrentPlan subscription={subscription} confirmCancel={loaderData.confirmCancel} />

      {choice ? <PaymentChoice choice={choice} testProvider={loaderData.testProvider} error={actionData ?? null} /> : null}
      {downgrade ? (
        <section id="downgrade" aria-labelledby="downgrade-title" className="mt-8 rounded-lg border border-amber-300 bg-amber-50 p-5">
          <h2 id="downgrade-title" className="text-lg font-semibold text-stone-900">
            {SUBSCRIPTION_MESSAGES.downgradeTitle}
          </h2>
          <p className="mt-1 text-stone-800">
            {SUBSCRIPTION_MESSAGES.downgrade} <SupportLink>Contact support</SupportLink>
          </p>
        </section>
      ) : null}

      <section aria-labelledby="plans-title" className="mt-10">
        <h2 id="plans-title" className="text-2xl font-semibold text-stone-900">
          Choose Your Plan
        </h2>
        <ul className="mt-4 grid gap-6 md:grid-cols-3">
          {PLAN_ORDER.map((id) => (
            <PlanCard key={id} id={id} current={current.id} offer={loaderData.offers[id] ?? null} />
          ))}
        </ul>
      </section>

      <EndowmentPolicy fund={fund} />
    </div>
  );
}

type Subscription = Route.ComponentProps["loaderData"]["subscription"];

function CurrentPlan({ subscription, confirmCancel }: { subscription: Subscription; confirmCancel: boolean }) {
  const plan = PLANS[subscription.planId];
  const purchase = subscription.purchase && subscription.purchase.planId === plan.id ? subscription.purchase : null;
  const monthly = purchase?.paymentType === "monthly";
  const billing = plan.id === "free" ? "No billing required" : monthly ? describeInstalments(plan) : "Paid in full, one time";
  // What this member pays or paid, never the other way to pay.
  const price =
    plan.id === "free"
      ? "Free"
      : monthly
        ? `${describeInstalments(plan)} (${formatPence(plan.pricePence)} in all)`
        : `${formatPence(plan.pricePence)}, paid in full`;
  return (
    <section aria-labelledby="current-plan-title" className="mt-8 rounded-lg border border-stone-200 bg-white p-6 shadow-sm">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="current-plan-title" className="text-xl font-semibold text-stone-900">
          Current Plan: {plan.name}
        </h2>
        <span className="rounded-full bg-green-100 px-2.5 py-0.5 text-sm font-medium text-green-900">Active</span>
      </div>
      <dl className="mt-4 grid gap-x-6 gap-y-2 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-stone-600">Price</dt>
          <dd className="text-stone-900">{price}</dd>
        </div>
        <div>
          <dt className="text-sm text-stone-600">Billing</dt>
          <dd className="text-stone-900">{billing}</dd>
        </div>
        <div>
          <dt className="text-sm text-stone-600">Memorials</dt>
          <dd className="text-stone-900">{plan.memorialLimit === null ? "Unlimited" : "Limited"}</dd>
        </div>
        <div>
          <dt className="text-sm text-stone-600">Vault</dt>
          <dd className="text-stone-900">{plan.vault ? "Available" : "Not available"}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-sm text-stone-600">Renewal</dt>
          <dd className="text-stone-900">
            {plan.id === "free"
              ? "No billing required"
              : purchase?.status === "cancelled" && subscription.expiresAt
                ? `Cancelled: active until ${formatLongDate(subscription.expiresAt)}, then the free plan's rules apply`
                : purchase?.status === "active" && purchase.nextDueAt
                  ? `Active subscription: payment ${purchase.instalmentsPaid + 1} of ${purchase.instalmentCount} (${formatPence(purchase.nextAmountPence ?? 0)}) is due on ${formatLongDate(purchase.nextDueAt)}`
                  : "Active subscription: paid in full, yours for good"}
          </dd>
        </div>
      </dl>
      {purchase?.missed ? (
        <div className="mt-4">
          <FormAlert title="A monthly payment did not go through">
            {`${purchase.missed.lastError ?? "The payment was declined."} We will try again. Your plan stays active until ${formatLongDate(purchase.missed.accessUntil)}; after that no new memorials above the free limit or vault files can be added. Nothing is deleted.`}
          </FormAlert>
        </div>
      ) : null}
      {subscription.ended ? (
        <p className="mt-4 text-stone-800">
          Your {PLANS[subscription.ended.planId].name} plan ended on {formatLongDate(subscription.ended.on)}. Everything you made is still there; the free
          plan&apos;s rules apply to new memorials and vault uploads.
        </p>
      ) : null}
      {plan.id !== "free" ? <CancelOrResume purchase={purchase} expiresAt={subscription.expiresAt} confirmCancel={confirmCancel} planName={plan.name} /> : null}
    </section>
  );
}

/**
 * Cancel Subscription asks first, on its own step (a plain link, so it works without JavaScript): what
 * stops, until when the plan lasts, that nothing is deleted. A cancelled plan can be resumed until then.
 */
function CancelOrResume({
  purchase,
  expiresAt,
  confirmCancel,
  planName,
}: {
  purchase: Subscription["purchase"];
  expiresAt: Date | null;
  confirmCancel: boolean;
  planName: string;
}) {
  if (purchase?.status === "active" && purchase.nextDueAt) {
    const until = formatLongDate(purchase.nextDueAt);
    if (!confirmCancel) {
      return (
        <Link to="/subscription?cancel#cancel-plan" className="btn-secondary mt-5">
          Cancel Subscription
        </Link>
      );
    }
    return (
      <section id="cancel-plan" aria-labelledby="cancel-plan-title" className="mt-5 rounded-lg border border-amber-300 bg-amber-50 p-5">
        <h3 id="cancel-plan-title" className="text-lg font-semibold text-stone-900">
          {SUBSCRIPTION_MESSAGES.cancelConfirmTitle}
        </h3>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-stone-800">
          <li>No more monthly payments will be taken.</li>
          <li>{`Your ${planName} plan stays active until ${until}. After that the free plan's rules apply to new memorials and vault uploads.`}</li>
          <li>Nothing is deleted: every memorial, tribute and vault file stays exactly as it is.</li>
          <li>{`You can resume the payments until ${until}.`}</li>
        </ul>
        <Form method="post" className="mt-4 flex flex-wrap gap-3">
          <button type="submit" name="intent" value="cancel" className="btn bg-red-700 text-white hover:bg-red-800">
            {SUBSCRIPTION_MESSAGES.confirmCancel}
          </button>
          <Link to="/subscription" className="btn-secondary">
            {SUBSCRIPTION_MESSAGES.keepPlan}
          </Link>
        </Form>
      </section>
    );
  }
  if (purchase?.status === "cancelled" && expiresAt) {
    return (
      <Form method="post" className="mt-5">
        <p id="resume-explained" className="text-sm text-stone-700">
          {`Your payments are cancelled. Resume them before ${formatLongDate(expiresAt)} to keep your plan; nothing you have paid is lost.`}
        </p>
        <button type="submit" name="intent" value="resume" aria-describedby="resume-explained" className="btn-primary mt-3">
          Resume payments
        </button>
      </Form>
    );
  }
  if (purchase?.status === "completed" || !purchase) {
    return (
      <details className="mt-5">
        <summary className="btn-secondary inline-flex cursor-pointer list-none [&::-webkit-details-marker]:hidden">Cancel Subscription</summary>
        <p className="mt-3 text-stone-800">
          {SUBSCRIPTION_MESSAGES.paidInFull} <SupportLink>Contact us</SupportLink>
        </p>
      </details>
    );
  }
  return null;
}

/** The plan cards carry an icon each (drawn inline, decorative). */
const PLAN_ICONS: Record<PlanId, IconName> = { free: "heart", forever: "infinity", forever_plus: "lock" };

function PlanCard({ id, current, offer }: { id: PlanId; current: PlanId; offer: { pricePence: number; credit: number; monthly: boolean } | null }) {
  const plan = PLANS[id];
  const monthly = instalments(plan);
  const included = PLAN_ORDER.indexOf(id) < PLAN_ORDER.indexOf(current) && id !== "free";
  // The price this member would pay: the difference after a plan paid for, and monthly only where offered.
  const billing =
    plan.pricePence === 0
      ? "Free for ever"
      : offer?.credit
        ? `${formatPence(offer.pricePence)} for you, one-time (${formatPence(offer.credit)} already paid counts towards it)`
        : monthly.length && (offer?.monthly ?? current === "free")
          ? `one-time, or ${describeInstalments(plan)}`
          : "one-time";
  return (
    <li
      className={`relative flex flex-col rounded-lg border bg-white p-6 shadow-sm ${plan.popular ? "border-heather-600 ring-2 ring-heather-600" : "border-stone-200"}`}
    >
      {plan.badge ? <p className="mb-2 self-start rounded-full bg-heather-100 px-2.5 py-0.5 text-sm font-medium text-heather-900">{plan.badge}</p> : null}
      <div className="flex items-center gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-heather-50 text-heather-700">
          <Icon name={PLAN_ICONS[id]} className="h-5 w-5" />
        </span>
        <h3 className="text-lg font-semibold text-stone-900">{plan.name}</h3>
      </div>
      <p className="mt-2 text-2xl font-bold text-stone-900">{plan.pricePence === 0 ? "£0" : formatPence(plan.pricePence)}</p>
      <p className="text-sm text-stone-700">{billing}</p>
      <p className="mt-3 text-stone-800">{plan.description}</p>
      <ul className="mt-4 flex-1 space-y-1 text-stone-800">
        {FEATURES[id].map((feature) => (
          <li key={feature} className="flex gap-2">
            <span aria-hidden="true" className="text-green-700">
              ✓
            </span>
            {feature}
          </li>
        ))}
        <li className="flex gap-2">
          <span aria-hidden="true" className={plan.vault ? "text-green-700" : "text-stone-500"}>
            {plan.vault ? "✓" : "✗"}
          </span>
          {plan.vault ? "Vault included" : "No vault"}
        </li>
      </ul>
      {id === "forever" ? (
        <a href="#endowment-policy" data-policy-opener className="link mt-3 text-sm">
          View Policy
        </a>
      ) : null}
      <div className="mt-5">
        {current === id ? (
          <button type="button" disabled className="btn-secondary w-full">
            Current Plan
          </button>
        ) : id === "free" ? (
          <Link to="/subscription?downgrade#downgrade" className="btn-secondary w-full justify-center">
            Downgrade to Free
          </Link>
        ) : included ? (
          <p className="rounded-md bg-stone-100 px-3 py-2 text-center text-stone-800">{`Included in ${PLANS[current].name}`}</p>
        ) : (
          <Link to={`/subscription?plan=${id}#payment-choice`} className="btn-primary w-full justify-center" aria-label={`Upgrade Now to ${plan.name}`}>
            Upgrade Now
          </Link>
        )}
      </div>
    </li>
  );
}

type Choice = NonNullable<Route.ComponentProps["loaderData"]["choice"]>;

function PaymentChoice({ choice, testProvider, error }: { choice: Choice; testProvider: boolean; error: ActionData | null }) {
  const plan = PLANS[choice.planId];
  return (
    <section id="payment-choice" aria-labelledby="payment-choice-title" className="mt-8 rounded-lg border border-heather-200 bg-heather-50 p-6">
      <h2 id="payment-choice-title" className="text-lg font-semibold text-stone-900">
        Choose Payment Option: {plan.name}
      </h2>
      {choice.refused ? (
        <p className="mt-2 text-stone-800">{choice.refused}</p>
      ) : (
        <Form method="post" className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="start" />
          <input type="hidden" name="planId" value={choice.planId} />
          {error ? <FormAlert title="Error">{error.message}</FormAlert> : null}
          <fieldset aria-describedby={error?.field ? "payment-type-error" : undefined}>
            <legend className="font-medium text-stone-900">How would you like to pay?</legend>
            <div className="mt-2 space-y-2">
              <PaymentOption type="full" label={`Pay in full: ${formatPence(choice.pricePence)}, one-time payment, immediate access`} defaultChecked />
              {choice.monthly ? (
                <PaymentOption
                  type="monthly"
                  label={`Pay monthly: ${describeInstalments(plan)}, until the total price is reached (about ${plan.monthlyPayments} payments); access from the first`}
                />
              ) : null}
            </div>
            {choice.credit ? (
              <p className="mt-2 text-sm text-stone-700">{`You have paid ${formatPence(choice.credit)} for your current plan already: it counts towards this one.`}</p>
            ) : null}
          </fieldset>
          {testProvider ? <TestCardChoice legend="Test card (no money moves)" /> : null}
          <PayOrCancel label="Continue to Payment" />
        </Form>
      )}
    </section>
  );
}

function PaymentOption({ type, label, defaultChecked }: { type: PaymentType; label: string; defaultChecked?: boolean }) {
  return (
    <label className="flex items-start gap-2 text-stone-800">
      <input type="radio" name="paymentType" value={type} defaultChecked={defaultChecked} className="mt-1" />
      {label}
    </label>
  );
}

function PolicyText({ fund, headingId }: { fund: { pence: number; payments: number }; headingId: string }) {
  return (
    <>
      <h2 id={headingId} className="text-xl font-semibold text-stone-900">
        Endowment Fund Policy
      </h2>
      <p className="mt-1 text-sm text-stone-600">Last updated January 2025. Applies to all Forever Plan customers.</p>
      <EndowmentPolicyPoints />
      <p className="mt-3 font-medium text-stone-900">
        {/* A young fund is told as what it promises, not as a row of zeros. */}
        {fund.payments
          ? `${ENDOWMENT_PERCENT}% of every Forever and Forever Plus payment goes into the fund: ${countOf(fund.payments, "payment")} so far, ${formatPence(fund.pence)} held today.`
          : `The fund is new: ${ENDOWMENT_PERCENT}% of every Forever and Forever Plus payment goes into it, from the very first, and what it holds is reported every year.`}
      </p>
      <p className="mt-2 text-sm">
        <Link to="/endowment" className="link">
          Read the fund&apos;s public report, year by year
        </Link>
      </p>
    </>
  );
}

/** A section of the page; with JavaScript, View Policy opens it as a dialog that traps and returns focus. */
function EndowmentPolicy({ fund }: { fund: { pence: number; payments: number } }) {
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  // The View Policy links on the plan cards open the dialog instead of scrolling to the section.
  useEffect(() => {
    const open = (event: MouseEvent) => {
      const link = (event.target as HTMLElement | null)?.closest?.("[data-policy-opener]");
      if (!(link instanceof HTMLElement) || !dialog.current) return;
      event.preventDefault();
      opener.current = link;
      dialog.current.showModal();
    };
    document.addEventListener("click", open);
    return () => document.removeEventListener("click", open);
  }, []);
  return (
    <>
      <section id="endowment-policy" aria-labelledby="policy-title" className="mt-10 rounded-lg border border-stone-200 bg-white p-6">
        <PolicyText fund={fund} headingId="policy-title" />
      </section>
      {hydrated ? (
        <dialog
          ref={dialog}
          aria-labelledby="policy-dialog-title"
          onClose={() => opener.current?.focus()}
          className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-lg bg-white p-6 text-stone-800 shadow-xl backdrop:bg-stone-900/60"
        >
          <PolicyText fund={fund} headingId="policy-dialog-title" />
          <form method="dialog" className="mt-5">
            <button type="submit" className="btn-primary">
              Close
            </button>
          </form>
        </dialog>
      ) : null}
    </>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Subscription · Everlight" }, { name: "robots", content: "noindex" }];
