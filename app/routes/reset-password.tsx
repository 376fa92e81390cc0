import { getFormProps } from "@conform-to/react";
import { parseForm } from "~/request/form.server";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { AuthCard, BackToSignIn } from "~/components/forms";
import { NewPasswordFields } from "~/components/new-password-fields";
import { useSchemaForm } from "~/components/schema-form";
import { checkResetToken, resetPassword } from "~/models/accounts/password-reset.server";
import { requireAnonymous } from "~/request/auth.server";
import { startSession } from "~/request/session.server";
import { redirectWithToast } from "~/request/toast.server";
import { resetPasswordSchema as schema } from "~/utils/validation/account";

// The page a password-reset email links to: a new password with the registration rules;
// a link that is used, expired or altered gets a clear page with the way to ask again. The token travels
// in the address and back in a hidden field, never in a cookie.

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const check = await checkResetToken(token);
  if (!check.ok) return data({ token: "", problem: check.message }, { status: 410 });
  return { token, problem: null };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const submission = parseForm(await request.formData(), { schema });
  const hide = { hideFields: ["password", "confirmPassword"] };
  if (submission.status !== "success") return data({ result: submission.reply(hide), problem: null }, { status: 400 });
  const result = await resetPassword(submission.value.token, submission.value.password);
  if (!result.ok) return data({ result: submission.reply(hide), problem: result.message }, { status: 410 });
  // A deleted account (within its 30 days) is not signed in: signing in offers to restore it.
  if (result.deleted) {
    return redirectWithToast("/login", { type: "success", title: "Password changed", description: "Sign in with your new password to restore your account." });
  }
  return redirectWithToast(
    "/",
    { type: "success", title: "Password changed", description: "You are signed in with your new password." },
    { "Set-Cookie": await startSession(request, result.user.id) },
  );
}

export default function ResetPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useSchemaForm(schema, { lastResult: actionData?.result });
  const problem = actionData?.problem ?? loaderData.problem;
  if (problem) {
    return (
      <AuthCard title="This link cannot be used" subtitle="Password reset links work once, for one hour.">
        <p className="text-stone-800">{problem}</p>
        <Link to="/forgot-password" className="btn-primary w-full">
          Send me a new link
        </Link>
        <BackToSignIn />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" subtitle="You will be signed in with it, and signed out everywhere else.">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="token" value={loaderData.token} />
        <NewPasswordFields label="New password" password={fields.password} confirmation={fields.confirmPassword} />
        <button type="submit" className="btn-primary w-full" disabled={pending}>
          {pending ? "Saving..." : "Save and sign in"}
        </button>
      </Form>
    </AuthCard>
  );
}

// No referrer meta of its own: the site-wide strict-origin-when-cross-origin never sends the token in
// the address to another site, and "no-referrer" would make browsers post the form with Origin: null.
export const meta: Route.MetaFunction = () => [{ title: "Choose a new password · Everlight" }, { name: "robots", content: "noindex" }];
