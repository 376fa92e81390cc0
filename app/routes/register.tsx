import { getFormProps, getInputProps } from "@conform-to/react";
import { parseForm } from "~/request/form.server";
import { data, Form, Link, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/register";
import { AuthCard, Field, FormAlert, lowerCaseAsTyped } from "~/components/forms";
import { NameFields } from "~/components/name-fields";
import { NewPasswordFields } from "~/components/new-password-fields";
import { useSchemaForm } from "~/components/schema-form";
import { registerAccount } from "~/models/accounts/account.server";
import { requireAnonymous, signedOutOnlyLoader } from "~/request/auth.server";
import { clientIp } from "~/request/facts.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { startSession } from "~/request/session.server";
import { redirectWithToast } from "~/request/toast.server";
import { registerSchema, safeRedirect } from "~/utils/validation/account";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";

// Complete as plain HTML: its scripts wait for the visitor's first use (app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle = { hydrateOnUse: true };

export const loader = signedOutOnlyLoader;

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const formData = await request.formData();
  const submission = parseForm(formData, { schema: registerSchema });
  const hide = { hideFields: ["password", "confirmPassword"] };
  if (submission.status !== "success") {
    return data({ result: submission.reply(hide), failure: null }, { status: 400 });
  }
  const { email, password, firstName, lastName, redirectTo } = submission.value;
  const result = await registerAccount({ email, password, firstName, lastName }, clientIp(request));
  if (result.ok) {
    return redirectWithToast(
      safeRedirect(redirectTo),
      { type: "success", title: "Account created successfully!" },
      { "Set-Cookie": await startSession(request, result.user.id) },
    );
  }
  if (result.reason === "rate-limited") {
    return data({ result: submission.reply(hide), failure: { title: "Too many new accounts", message: result.message } }, rateLimitedInit(result));
  }
  return data({ result: submission.reply({ ...hide, fieldErrors: result.fieldErrors }), failure: null }, { status: 409 });
}

export default function RegisterPage({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formAction?.startsWith("/register");
  const [form, fields] = useSchemaForm(registerSchema, { lastResult: actionData?.result });
  return (
    <AuthCard title="Create your account" subtitle="Start preserving the memories that matter.">
      {actionData?.failure ? <FormAlert title={actionData.failure.title}>{actionData.failure.message}</FormAlert> : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <NameFields firstName={fields.firstName} lastName={fields.lastName} />
        <Field
          label="Email"
          errors={fields.email.errors}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", onInput: lowerCaseAsTyped }}
        />
        <NewPasswordFields label="Password" password={fields.password} confirmation={fields.confirmPassword} />
        <button type="submit" className="btn-primary w-full" disabled={pending}>
          {pending ? "Creating account..." : "Create Account"}
        </button>
      </Form>
      <p className="text-center text-sm text-stone-700">
        Already have an account?{" "}
        <Link to={{ pathname: "/login", search: searchParams.toString() }} className="link">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Create an account · Everlight" },
  { name: "description", content: "Create a free Everlight account to make a lasting online memorial for someone you love." },
];
