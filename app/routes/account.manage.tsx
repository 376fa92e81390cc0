import { getFormProps, getInputProps } from "@conform-to/react";
import { parseForm } from "~/request/form.server";
import { data, Form, useNavigation } from "react-router";
import { z } from "~/utils/validation/zod";
import type { Route } from "./+types/account.manage";
import { ErrorList, FormAlert, PasswordField } from "~/components/forms";
import { useSchemaForm } from "~/components/schema-form";
import { deleteAccount } from "~/models/accounts/account.server";
import { handOverPeriodOf, setHandOverPeriod, successionPlanFor, type SuccessionPlan } from "~/models/memorials/succession.server";
import { RECOVERY_DAYS } from "~/utils/deletion";
import { requireUser } from "~/request/auth.server";
import { clientIp } from "~/request/facts.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { destroySessionCookie } from "~/request/session.server";
import { redirectWithToast } from "~/request/toast.server";
import { formatLongDate } from "~/utils/dates";
import { DELETE_WITH_ACCOUNT, HAND_OVER_PERIOD_LABELS, HAND_OVER_PERIODS, isHandOverPeriod, SUCCESSION_MESSAGES } from "~/utils/succession";
import { deleteAccountSchema } from "~/utils/validation/account";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Account tab: the UK GDPR rights of
// access (download everything we hold) and erasure (delete the account), and what becomes of the
// member's memorials when they go: when they pass to their successors if the member is
// away, and, at deletion, which pass on, which the member decides about, and which go with the account.

// The tick box is this form's own safeguard against a slip, so it lives here, not in the shared schema.
const schema = deleteAccountSchema.extend({
  confirm: z.literal("on", { error: "Tick the box to confirm you understand what deleting does" }),
});

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [plan, period] = await Promise.all([successionPlanFor(user.id), handOverPeriodOf(user.id)]);
  return { email: user.email, plan, period };
}

type Choices = Record<string, string>;

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  if (form.get("intent") === "period") {
    const months = String(form.get("months") ?? "");
    if (!isHandOverPeriod(months)) throw data(null, { status: 400 });
    await setHandOverPeriod(user.id, Number(months) as (typeof HAND_OVER_PERIODS)[number]);
    return redirectWithToast("/account/manage", {
      type: "success",
      title: SUCCESSION_MESSAGES.periodSaved,
      description: HAND_OVER_PERIOD_LABELS[Number(months) as 0],
    });
  }
  const submission = parseForm(form, { schema });
  const choices: Choices = {};
  for (const [name, value] of form) if (name.startsWith("fate-") && typeof value === "string") choices[name.slice(5)] = value;
  const hide = { hideFields: ["password"] };
  const fail = (status: number, failure: { title: string; message: string } | null, extra: { choiceErrors?: Choices } = {}) =>
    data({ result: submission.reply(hide), failure, choices, choiceErrors: extra.choiceErrors ?? {} }, { status });
  if (submission.status !== "success") return fail(400, null);

  // Re-entering the password is a password check like the Security tab's, with its limits: a stolen
  // session cannot guess its way to deleting the account. The use case removes the stored files too.
  const result = await deleteAccount(user, submission.value.password, clientIp(request), choices);
  if (!result.ok && result.reason === "rate-limited") {
    return data(
      { result: submission.reply(hide), failure: { title: "Too many attempts", message: result.message }, choices, choiceErrors: {} },
      rateLimitedInit(result),
    );
  }
  if (!result.ok && result.reason === "payments") return fail(503, { title: "Account not deleted", message: result.message });
  if (!result.ok && result.reason === "choices")
    return fail(400, { title: "Account not deleted", message: SUCCESSION_MESSAGES.chooseFate }, { choiceErrors: result.choiceErrors });
  if (!result.ok && result.reason === "changed") return fail(409, { title: "Account not deleted", message: result.message });
  if (!result.ok) {
    return data({ result: submission.reply({ ...hide, fieldErrors: result.fieldErrors }), failure: null, choices, choiceErrors: {} }, { status: 400 });
  }
  const cookie = await destroySessionCookie(request);
  return redirectWithToast(
    "/",
    {
      type: "success",
      title: "Account deleted",
      description: `Your account is hidden and kept until ${formatLongDate(result.purgeAt)}, with the memorials that went with it. Sign in before then to restore it.`,
    },
    { "Set-Cookie": cookie },
  );
}

export default function ManageTab({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useNavigation().state === "submitting";
  const { plan, period } = loaderData;
  const [form, fields] = useSchemaForm(schema, { id: "delete-account", lastResult: actionData?.result });
  const confirmErrorId = fields.confirm.errors?.length ? `${fields.confirm.id}-error` : undefined;
  const { key: _key, ...confirmProps } = getInputProps(fields.confirm, { type: "checkbox" });
  return (
    <div className="space-y-10">
      <div>
        <h2 className="text-xl font-semibold text-stone-900">Account</h2>
        <p className="mt-1 text-stone-700">Take a copy of your data, decide who looks after your memorials one day, or close your account.</p>
      </div>
      <section className="space-y-3">
        <h3 className="text-lg font-semibold text-stone-900">Download my data</h3>
        <p className="text-stone-700">
          A copy of everything we hold about you: your profile, memorials, tributes, orders, messages, friends and the list of your vault files, as one JSON
          file.
        </p>
        {/* A plain link: the browser downloads the file itself, with or without JavaScript. */}
        <a href="/account/export" download className="btn-secondary">
          Download my data
        </a>
      </section>
      <section className="space-y-3" aria-labelledby="away-heading">
        <h3 id="away-heading" className="text-lg font-semibold text-stone-900">
          If you are away for a long time
        </h3>
        <p className="text-stone-700">
          Each memorial can have a successor: one of the people who help manage it, who takes it over when you delete your account, or when we have not seen you
          for the time you choose below. We email you twice before that happens, and signing in stops it. You would stay one of its managers. You name a
          successor on each memorial&apos;s People page (from My Memorials).
        </p>
        <Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="period" />
          <fieldset>
            <legend className="text-sm font-medium text-stone-800">Hand my memorials to their successors</legend>
            <div className="mt-2 space-y-2">
              {HAND_OVER_PERIODS.map((months) => (
                <div key={months} className="flex items-center gap-3">
                  <input
                    type="radio"
                    id={`months-${months}`}
                    name="months"
                    value={months}
                    defaultChecked={period === months}
                    className="h-4 w-4 accent-heather-700"
                  />
                  <label htmlFor={`months-${months}`} className="text-sm text-stone-900">
                    {HAND_OVER_PERIOD_LABELS[months]}
                  </label>
                </div>
              ))}
            </div>
          </fieldset>
          <button type="submit" className="btn-secondary">
            Save
          </button>
        </Form>
      </section>
      <section className="space-y-4 rounded-lg border border-red-300 p-5">
        <h3 className="text-lg font-semibold text-red-800">Delete my account</h3>
        <p className="text-stone-700">
          This signs you out everywhere and hides your account at once, with your vault files, your basket and the memorials that go with it (below). A monthly
          plan stops taking payments.
        </p>
        <p className="text-stone-700">
          We keep it all for {RECOVERY_DAYS} days: sign in during that time and you can restore your account and the memorials that went with it. We email you a
          few days before the end. After {RECOVERY_DAYS} days it is removed for good, files included, and cannot be recovered. You may want to download your
          data first.
        </p>
        {actionData?.failure ? <FormAlert title={actionData.failure.title}>{actionData.failure.message}</FormAlert> : null}
        <Form method="post" {...getFormProps(form)} className="space-y-6">
          <MemorialFates plan={plan} choices={actionData?.choices ?? {}} errors={actionData?.choiceErrors ?? {}} />
          <div className="max-w-md space-y-4">
            <input type="text" name="username" autoComplete="username" value={loaderData.email} readOnly hidden />
            <PasswordField
              label="Your password"
              errors={fields.password.errors}
              inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
            />
            <div>
              <div className="flex items-center gap-3">
                <input
                  {...confirmProps}
                  aria-invalid={confirmErrorId ? true : undefined}
                  aria-describedby={confirmErrorId}
                  className="h-4 w-4 accent-red-700"
                />
                <label htmlFor={fields.confirm.id} className="font-medium text-stone-900">
                  I understand my account, and the memorials deleted with it, will be removed for good after {RECOVERY_DAYS} days
                </label>
              </div>
              <ErrorList id={confirmErrorId} errors={fields.confirm.errors} />
            </div>
            <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800" disabled={pending}>
              {pending ? "Deleting..." : "Delete my account"}
            </button>
          </div>
        </Form>
      </section>
    </div>
  );
}

/** What happens to each memorial when the account goes: passed on, the member's choice, or deleted with it. */
function MemorialFates({ plan, choices, errors }: { plan: SuccessionPlan; choices: Record<string, string>; errors: Record<string, string> }) {
  if (!plan.handedOn.length && !plan.choose.length && !plan.deleted.length) return <p className="text-stone-700">You have no memorials.</p>;
  return (
    <div className="space-y-6">
      {plan.handedOn.length ? (
        <div>
          <h4 className="font-semibold text-stone-900">These memorials pass to their successors</h4>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-stone-700">
            {plan.handedOn.map((m) => (
              <li key={m.id} className="wrap-anywhere">
                The memorial of {m.name}, to {m.successor.name} ({m.successor.email})
              </li>
            ))}
          </ul>
          <p className="mt-2 text-sm text-stone-700">They stay with them, with every photo, video and tribute, even if you restore your account later.</p>
        </div>
      ) : null}
      {plan.choose.length ? (
        <div className="space-y-4">
          <h4 className="font-semibold text-stone-900">Choose what happens to these memorials</h4>
          {plan.choose.map((m) => {
            const errorId = errors[m.id] ? `fate-${m.id}-error` : undefined;
            return (
              <fieldset key={m.id} aria-describedby={errorId} className="rounded-md border border-stone-200 p-4">
                <legend className="px-1 font-medium text-stone-900 wrap-anywhere">The memorial of {m.name}</legend>
                <div className="space-y-2">
                  {m.coManagers.map((p) => (
                    <div key={p.userId} className="flex items-start gap-3">
                      <input
                        type="radio"
                        id={`fate-${m.id}-${p.userId}`}
                        name={`fate-${m.id}`}
                        value={p.userId}
                        defaultChecked={choices[m.id] === p.userId}
                        className="mt-1 h-4 w-4 accent-heather-700"
                      />
                      <label htmlFor={`fate-${m.id}-${p.userId}`} className="text-sm text-stone-900 wrap-anywhere">
                        Hand it on to {p.name} ({p.role})
                      </label>
                    </div>
                  ))}
                  <div className="flex items-start gap-3">
                    <input
                      type="radio"
                      id={`fate-${m.id}-delete`}
                      name={`fate-${m.id}`}
                      value={DELETE_WITH_ACCOUNT}
                      defaultChecked={choices[m.id] === DELETE_WITH_ACCOUNT}
                      className="mt-1 h-4 w-4 accent-red-700"
                    />
                    <label htmlFor={`fate-${m.id}-delete`} className="text-sm text-stone-900">
                      Delete it with my account
                    </label>
                  </div>
                </div>
                {m.invitedSuccessor ? (
                  <p className="mt-2 text-sm text-stone-700 wrap-anywhere">{m.invitedSuccessor} has not yet accepted your invitation to be its successor.</p>
                ) : null}
                <ErrorList id={errorId} errors={errors[m.id] ? [errors[m.id]] : null} />
              </fieldset>
            );
          })}
        </div>
      ) : null}
      {plan.deleted.length ? (
        <div>
          <h4 className="font-semibold text-stone-900">These memorials are deleted with your account</h4>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-stone-700">
            {plan.deleted.map((m) => (
              <li key={m.id} className="wrap-anywhere">
                The memorial of {m.name}
                {m.invitedSuccessor ? ` (${m.invitedSuccessor} has not yet accepted your invitation to be its successor)` : ""}
              </li>
            ))}
          </ul>
          <p className="mt-2 text-sm text-stone-700">
            Nobody else helps manage them. To hand one on instead, invite someone on its People page first (from My Memorials).
          </p>
        </div>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Account · Account Settings · Everlight" }];
