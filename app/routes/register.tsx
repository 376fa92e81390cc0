import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { data, Form, Link, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/register";
import { AuthCard, CHECK_ON_SUBMIT, Field, FormAlert, lowerCaseAsTyped, PasswordChecklist, PasswordField } from "~/components/forms";
import { describeRetry, hitRegistrationLimits } from "~/models/rate-limit.server";
import { createUser, EmailTakenError } from "~/models/user.server";
import { requireAnonymous } from "~/services/auth.server";
import { clientIp } from "~/services/request.server";
import { createUserSession } from "~/services/session.server";
import { withToast } from "~/services/toast.server";
import { MESSAGES, registerSchema, safeRedirect } from "~/utils/validation/account";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: registerSchema });
  const hide = { hideFields: ["password", "confirmPassword"] };
  if (submission.status !== "success") {
    return data({ result: submission.reply(hide), failure: null }, { status: 400 });
  }
  const limit = await hitRegistrationLimits(clientIp(request), submission.value.email);
  if (!limit.allowed) {
    return data(
      { result: submission.reply(hide), failure: { title: "Too many new accounts", message: `${limit.message} ${describeRetry(limit.retryAfterSeconds)}` } },
      { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
    );
  }
  const { email, password, firstName, lastName, redirectTo } = submission.value;
  try {
    const user = await createUser({ email, password, firstName, lastName });
    const headers = await withToast({ type: "success", title: "Account created successfully!" });
    return createUserSession(request, user.id, safeRedirect(redirectTo), headers);
  } catch (error) {
    if (!(error instanceof EmailTakenError)) throw error;
    return data({ result: submission.reply({ ...hide, fieldErrors: { email: [MESSAGES.emailTaken] } }), failure: null }, { status: 409 });
  }
}

export default function RegisterPage({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formAction?.startsWith("/register");
  const [password, setPassword] = useState("");
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(registerSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: registerSchema }),
    ...CHECK_ON_SUBMIT,
  });
  return (
    <AuthCard title="Create your account" subtitle="Start preserving the memories that matter.">
      {actionData?.failure ? <FormAlert title={actionData.failure.title}>{actionData.failure.message}</FormAlert> : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First name" errors={fields.firstName.errors} inputProps={{ ...getInputProps(fields.firstName, { type: "text" }), autoComplete: "given-name" }} />
          <Field label="Last name" errors={fields.lastName.errors} inputProps={{ ...getInputProps(fields.lastName, { type: "text" }), autoComplete: "family-name" }} />
        </div>
        <Field label="Email" errors={fields.email.errors} inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", onInput: lowerCaseAsTyped }} />
        <PasswordField
          label="Password"
          errors={fields.password.errors}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password" }}
          onValueChange={setPassword}
          hint={<PasswordChecklist password={password} />}
        />
        <PasswordField
          label="Confirm password"
          errors={fields.confirmPassword.errors}
          inputProps={{ ...getInputProps(fields.confirmPassword, { type: "password" }), autoComplete: "new-password" }}
        />
        <button type="submit" className="btn-primary w-full" disabled={pending}>
          {pending ? "Creating account..." : "Create Account"}
        </button>
      </Form>
      <p className="text-center text-sm text-slate-700">
        Already have an account?{" "}
        <Link to={{ pathname: "/login", search: searchParams.toString() }} className="link">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Create an account · Everlight" }];
