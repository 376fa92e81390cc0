import { getFormProps, getInputProps } from "@conform-to/react";
import { parseForm } from "~/request/form.server";
import { data, Form, Link, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/login";
import { AuthCard, CardFootLink, Field, FormAlert, lowerCaseAsTyped, PasswordField } from "~/components/forms";
import { useSchemaForm } from "~/components/schema-form";
import { restoreAccount } from "~/models/memorials/deletion.server";
import { purgeDateOf } from "~/utils/deletion";
import { clearRestoreOffer, offerRestore, restorableAccount } from "~/request/account-restore.server";
import { authenticator, requireAnonymous, SignInRefusedError, signedOutOnlyLoader } from "~/request/auth.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { startSession } from "~/request/session.server";
import { redirectWithToast } from "~/request/toast.server";
import { formatLongDate } from "~/utils/dates";
import { loginSchema, MESSAGES, safeRedirect } from "~/utils/validation/account";
import { ACCOUNT_REMOVED_MESSAGE, accountDeletedMessage } from "~/utils/validation/account-rules";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";

// Complete as plain HTML: its scripts wait for the visitor's first use (app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle = { hydrateOnUse: true };

export const loader = signedOutOnlyLoader;

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const formData = await request.clone().formData();
  if (formData.get("intent") === "restore-account") return restore(request);
  const submission = parseForm(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }), failure: null, deleted: null }, { status: 400 });
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
      return data({ result: reply, failure: { title: "Too many attempts", message: error.result.message }, deleted: null }, rateLimitedInit(error.result));
    }
    if (error.result.reason === "removed") {
      return data({ result: reply, failure: { title: "Account closed", message: ACCOUNT_REMOVED_MESSAGE }, deleted: null }, { status: 403 });
    }
    if (error.result.reason === "deleted") {
      // The right password for an account deleted less than 30 days ago: no session, the offer to restore it.
      const purgeAt = formatLongDate(purgeDateOf(error.result.deletedAt));
      return data({ result: reply, failure: null, deleted: { purgeAt } }, { headers: { "Set-Cookie": await offerRestore(error.result.userId) } });
    }
    return data({ result: reply, failure: { title: "Login failed", message: MESSAGES.invalidLogin }, deleted: null }, { status: 401 });
  }
}

/** "Restore my account": the account whose password was just given comes back, and its owner is signed in. */
async function restore(request: Request) {
  const userId = await restorableAccount(request);
  if (!userId || !(await restoreAccount(userId, null))) {
    return data({ result: undefined, failure: { title: "Not restored", message: RESTORE_EXPIRED }, deleted: null }, { status: 400 });
  }
  const headers = new Headers();
  headers.append("Set-Cookie", await startSession(request, userId));
  headers.append("Set-Cookie", await clearRestoreOffer());
  return redirectWithToast("/my-memorials", { type: "success", title: "Welcome back", description: "Your account and its memorials are restored." }, headers);
}

const RESTORE_EXPIRED = "The time to restore this account from here has run out. Please sign in again.";

export default function LoginPage({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formAction?.startsWith("/login");
  const [form, fields] = useSchemaForm(loginSchema, { lastResult: actionData?.result });
  const failure = actionData?.failure;
  if (actionData?.deleted) return <RestoreOffer purgeAt={actionData.deleted.purgeAt} />;
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
      <p className="text-center text-sm text-stone-700">
        Don&apos;t have an account?{" "}
        <Link to={{ pathname: "/register", search: searchParams.toString() }} className="link">
          Sign up
        </Link>
      </p>
      <CardFootLink to="/">Back to home</CardFootLink>
    </AuthCard>
  );
}

/** Shown instead of the form when the password was right but the account was deleted. */
function RestoreOffer({ purgeAt }: { purgeAt: string }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  return (
    <AuthCard title="Restore your account?" subtitle="Your password was right.">
      <div className="space-y-3 text-stone-800" role="status">
        <p>{accountDeletedMessage(purgeAt, "here")}</p>
        <p>
          After that it is removed for good. Restoring brings back your memorials with their photos, videos and tributes, your vault and your orders, as they
          were.
        </p>
      </div>
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="restore-account" />
        <button type="submit" className="btn-primary w-full" disabled={pending}>
          {pending ? "Restoring..." : "Restore my account"}
        </button>
      </Form>
      <CardFootLink to="/">Not now</CardFootLink>
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Sign in · Everlight" },
  { name: "description", content: "Sign in to Everlight to look after the memorials you keep, your tributes, orders and account." },
];
