import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/account.manage";
import { ErrorList, FormAlert, PasswordField } from "~/components/forms";
import { useSchemaForm } from "~/components/schema-form";
import { deleteAccount } from "~/models/account.server";
import { RECOVERY_DAYS } from "~/utils/deletion";
import { requireUser } from "~/request/auth.server";
import { clientIp } from "~/request/facts.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { destroySessionCookie } from "~/request/session.server";
import { redirectWithToast } from "~/request/toast.server";
import { formatLongDate } from "~/utils/dates";
import { deleteAccountSchema } from "~/utils/validation/account";

// Account tab (commerce-and-accounts.md §2: contents "not shown", so ours): the UK GDPR rights of
// access (download everything we hold) and erasure (delete the account and all it owns).

// The tick box is this form's own safeguard against a slip, so it lives here, not in the shared schema.
const schema = deleteAccountSchema.extend({
  confirm: z.literal("on", { error: "Tick the box to confirm you understand what deleting does" }),
});

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { email: user.email };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema });
  const hide = { hideFields: ["password"] };
  if (submission.status !== "success") return data({ result: submission.reply(hide), failure: null }, { status: 400 });

  // Re-entering the password is a password check like the Security tab's, with its limits: a stolen
  // session cannot guess its way to deleting the account. The use case removes the stored files too.
  const result = await deleteAccount(user, submission.value.password, clientIp(request));
  if (!result.ok && result.reason === "rate-limited") {
    return data({ result: submission.reply(hide), failure: { title: "Too many attempts", message: result.message } }, rateLimitedInit(result));
  }
  if (!result.ok && result.reason === "payments") {
    return data({ result: submission.reply(hide), failure: { title: "Account not deleted", message: result.message } }, { status: 503 });
  }
  if (!result.ok) return data({ result: submission.reply({ ...hide, fieldErrors: result.fieldErrors }), failure: null }, { status: 400 });
  const cookie = await destroySessionCookie(request);
  return redirectWithToast(
    "/",
    {
      type: "success",
      title: "Account deleted",
      description: `Your account and memorials are hidden and kept until ${formatLongDate(result.purgeAt)}. Sign in before then to restore them.`,
    },
    { "Set-Cookie": cookie },
  );
}

export default function ManageTab({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useSchemaForm(schema, { id: "delete-account", lastResult: actionData?.result });
  const confirmErrorId = fields.confirm.errors?.length ? `${fields.confirm.id}-error` : undefined;
  const { key: _key, ...confirmProps } = getInputProps(fields.confirm, { type: "checkbox" });
  return (
    <div className="space-y-10">
      <div>
        <h2 className="text-xl font-semibold text-slate-900">Account</h2>
        <p className="mt-1 text-slate-700">Take a copy of your data, or close your account.</p>
      </div>
      <section className="space-y-3">
        <h3 className="text-lg font-semibold text-slate-900">Download my data</h3>
        <p className="text-slate-700">
          A copy of everything we hold about you: your profile, memorials, tributes, orders, messages, friends and the list of your vault files, as one JSON
          file.
        </p>
        {/* A plain link: the browser downloads the file itself, with or without JavaScript. */}
        <a href="/account/export" download className="btn-secondary">
          Download my data
        </a>
      </section>
      <section className="space-y-4 rounded-lg border border-red-300 p-5">
        <h3 className="text-lg font-semibold text-red-800">Delete my account</h3>
        <p className="text-slate-700">
          This signs you out everywhere and hides your account and everything in it at once: all your memorials with their photos, videos and tributes, your
          vault files and your basket. A monthly plan stops taking payments.
        </p>
        <p className="text-slate-700">
          We keep it all for {RECOVERY_DAYS} days: sign in during that time and you can restore everything as it was. We email you a few days before the end.
          After {RECOVERY_DAYS} days it is removed for good, files included, and cannot be recovered. You may want to download your data first.
        </p>
        {actionData?.failure ? <FormAlert title={actionData.failure.title}>{actionData.failure.message}</FormAlert> : null}
        <Form method="post" {...getFormProps(form)} className="max-w-md space-y-4">
          <input type="text" name="username" autoComplete="username" value={loaderData.email} readOnly hidden />
          <PasswordField
            label="Your password"
            errors={fields.password.errors}
            inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
          />
          <div>
            <div className="flex items-center gap-3">
              <input {...confirmProps} aria-invalid={confirmErrorId ? true : undefined} aria-describedby={confirmErrorId} className="h-4 w-4 accent-red-700" />
              <label htmlFor={fields.confirm.id} className="font-medium text-slate-900">
                I understand my account and memorials will be removed for good after {RECOVERY_DAYS} days
              </label>
            </div>
            <ErrorList id={confirmErrorId} errors={fields.confirm.errors} />
          </div>
          <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800" disabled={pending}>
            {pending ? "Deleting..." : "Delete my account"}
          </button>
        </Form>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Account · Account Settings · Everlight" }];
