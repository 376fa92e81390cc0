import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/login";
import { AuthCard, Field, FormAlert, lowerCaseAsTyped, PasswordField } from "~/components/forms";
import { useSchemaForm } from "~/components/schema-form";
import { authenticator, requireAnonymous, SignInRefusedError } from "~/request/auth.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { startSession } from "~/request/session.server";
import { redirectWithToast } from "~/request/toast.server";
import { loginSchema, MESSAGES, safeRedirect } from "~/utils/validation/account";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const formData = await request.clone().formData();
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }), failure: null }, { status: 400 });
  }
  try {
    const user = await authenticator.authenticate("form", request);
    return redirectWithToast(
      safeRedirect(submission.value.redirectTo),
      { type: "success", title: "Welcome back!" },
      { "Set-Cookie": await startSession(request, user.id) },
    );
  } catch (error) {
    if (!(error instanceof SignInRefusedError)) throw error;
    const reply = submission.reply({ hideFields: ["password"] });
    if (error.result.reason === "rate-limited") {
      return data({ result: reply, failure: { title: "Too many attempts", message: error.result.message } }, rateLimitedInit(error.result));
    }
    return data({ result: reply, failure: { title: "Login failed", message: MESSAGES.invalidLogin } }, { status: 401 });
  }
}

export default function LoginPage({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formAction?.startsWith("/login");
  const [form, fields] = useSchemaForm(loginSchema, { lastResult: actionData?.result });
  const failure = actionData?.failure;
  return (
    <AuthCard title="Welcome back" subtitle="Sign in to manage your memorials.">
      {failure ? (
        <FormAlert title={failure.title} id="login-failure">
          {failure.message}
        </FormAlert>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <Field
          label="Email"
          errors={fields.email.errors}
          inputProps={{
            ...getInputProps(fields.email, { type: "email" }),
            autoComplete: "email",
            onInput: lowerCaseAsTyped,
          }}
        />
        <PasswordField
          label="Password"
          errors={fields.password.errors}
          inputProps={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }}
        />
        <p className="text-right text-sm">
          <Link to="/forgot-password" className="link">
            Forgot your password?
          </Link>
        </p>
        <button type="submit" className="btn-primary w-full" disabled={pending}>
          {pending ? "Signing in..." : "Sign In"}
        </button>
      </Form>
      <p className="text-center text-sm text-slate-700">
        Don&apos;t have an account?{" "}
        <Link to={{ pathname: "/register", search: searchParams.toString() }} className="link">
          Sign up
        </Link>
      </p>
      <p className="text-center text-sm">
        <Link to="/" className="link">
          Back to home
        </Link>
      </p>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Sign in · Everlight" }];
