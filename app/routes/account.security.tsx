import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/account.security";
import { CHECK_ON_SUBMIT, FormAlert, PasswordChecklist, PasswordField } from "~/components/forms";
import { describeRetry, hitPasswordCheckLimits, RATE_LIMIT_MESSAGES } from "~/models/rate-limit.server";
import { deleteOtherSessions } from "~/models/session.server";
import { checkPassword, updatePassword } from "~/models/user.server";
import { requireUser } from "~/services/auth.server";
import { clientIp } from "~/services/request.server";
import { getSession } from "~/services/session.server";
import { withToast } from "~/services/toast.server";
import { changePasswordSchema, MESSAGES } from "~/utils/validation/account";

// Security tab: password change (commerce-and-accounts.md §2, §5 "Password change"). A changed
// password ends every other session, so whoever knew the old one is signed out everywhere else.

const HIDE = { hideFields: ["currentPassword", "newPassword", "confirmPassword"] };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { email: user.email };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: changePasswordSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(HIDE), failure: null }, { status: 400 });
  }

  // Every attempt counts, so a stolen session cannot be used to guess the password behind it.
  const limit = await hitPasswordCheckLimits(user.id, clientIp(request));
  if (!limit.allowed) {
    const retry = limit.retryAfterSeconds;
    return data(
      { result: submission.reply(HIDE), failure: { title: "Too many attempts", message: `${RATE_LIMIT_MESSAGES.passwordChange} ${describeRetry(retry)}` } },
      { status: 429, headers: { "Retry-After": String(retry) } },
    );
  }

  const { currentPassword, newPassword } = submission.value;
  if (!(await checkPassword(user.id, currentPassword))) {
    return data({ result: submission.reply({ ...HIDE, fieldErrors: { currentPassword: [MESSAGES.currentPasswordIncorrect] } }), failure: null }, { status: 400 });
  }
  await updatePassword(user.id, newPassword);
  await deleteOtherSessions(user.id, (await getSession(request)).id);
  const headers = await withToast({ type: "success", title: "Password changed", description: "You have been signed out on your other devices." });
  return redirect("/account/security", { headers });
}

export default function SecurityTab({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const [newPassword, setNewPassword] = useState("");
  const [form, fields] = useForm({
    id: "change-password",
    lastResult: actionData?.result,
    constraint: getZodConstraint(changePasswordSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
    ...CHECK_ON_SUBMIT,
  });
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-xl font-semibold text-slate-900">Security</h2>
        <p className="mt-1 text-slate-700">Change your password. You will stay signed in here and be signed out everywhere else.</p>
      </div>
      {actionData?.failure ? <FormAlert title={actionData.failure.title}>{actionData.failure.message}</FormAlert> : null}
      <Form method="post" {...getFormProps(form)} className="max-w-md space-y-4">
        {/* Lets password managers tie the new password to the right account. */}
        <input type="text" name="username" autoComplete="username" value={loaderData.email} readOnly hidden />
        <PasswordField
          label="Current password"
          errors={fields.currentPassword.errors}
          inputProps={{ ...getInputProps(fields.currentPassword, { type: "password" }), autoComplete: "current-password" }}
        />
        <PasswordField
          label="New password"
          errors={fields.newPassword.errors}
          inputProps={{ ...getInputProps(fields.newPassword, { type: "password" }), autoComplete: "new-password" }}
          onValueChange={setNewPassword}
          hint={<PasswordChecklist password={newPassword} />}
        />
        <PasswordField
          label="Confirm new password"
          errors={fields.confirmPassword.errors}
          inputProps={{ ...getInputProps(fields.confirmPassword, { type: "password" }), autoComplete: "new-password" }}
        />
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? "Changing password..." : "Change password"}
        </button>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Security · Account Settings · Everlight" }];
