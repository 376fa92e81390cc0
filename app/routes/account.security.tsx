import { getFormProps, getInputProps } from "@conform-to/react";
import { parseForm } from "~/request/form.server";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/account.security";
import { FormAlert, PasswordField } from "~/components/forms";
import { NewPasswordFields } from "~/components/new-password-fields";
import { useSchemaForm } from "~/components/schema-form";
import { changePassword } from "~/models/accounts/account.server";
import { requireUser } from "~/request/auth.server";
import { clientIp } from "~/request/facts.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { getSession } from "~/request/session.server";
import { redirectWithToast } from "~/request/toast.server";
import { changePasswordSchema } from "~/utils/validation/account";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Security tab: password change. A changed
// password ends every other session, so whoever knew the old one is signed out everywhere else.

const HIDE = { hideFields: ["currentPassword", "newPassword", "confirmPassword"] };

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { email: user.email };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const submission = parseForm(await request.formData(), { schema: changePasswordSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(HIDE), failure: null }, { status: 400 });
  }

  const result = await changePassword(user, submission.value, { ip: clientIp(request), keepSessionId: (await getSession(request)).id || undefined });
  if (!result.ok && result.reason === "rate-limited") {
    return data({ result: submission.reply(HIDE), failure: { title: "Too many attempts", message: result.message } }, rateLimitedInit(result));
  }
  if (!result.ok) return data({ result: submission.reply({ ...HIDE, fieldErrors: result.fieldErrors }), failure: null }, { status: 400 });
  return redirectWithToast("/account/security", { type: "success", title: "Password changed", description: "You have been signed out on your other devices." });
}

export default function SecurityTab({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const [form, fields] = useSchemaForm(changePasswordSchema, { id: "change-password", lastResult: actionData?.result });
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-xl font-semibold text-stone-900">Security</h2>
        <p className="mt-1 text-stone-700">Change your password. You will stay signed in here and be signed out everywhere else.</p>
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
        <NewPasswordFields label="New password" password={fields.newPassword} confirmation={fields.confirmPassword} />
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? "Changing password..." : "Change password"}
        </button>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Security · Account Settings · Everlight" }];
