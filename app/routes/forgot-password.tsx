import { getFormProps, getInputProps } from "@conform-to/react";
import { parseForm } from "~/request/form.server";
import { data, Form, useNavigation } from "react-router";
import { z } from "~/utils/validation/zod";
import type { Route } from "./+types/forgot-password";
import { AuthCard, BackToSignIn, Field, FormAlert, lowerCaseAsTyped } from "~/components/forms";
import { useSchemaForm } from "~/components/schema-form";
import { requestPasswordReset } from "~/models/accounts/password-reset.server";
import { requireAnonymous } from "~/request/auth.server";
import { clientIp } from "~/request/facts.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { redirectWithToast } from "~/request/toast.server";
import { RESET_MESSAGES } from "~/utils/password-reset";
import { MESSAGES } from "~/utils/validation/account";
import { text } from "~/utils/validation/text";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";

// Complete as plain HTML: its scripts wait for the visitor's first use (app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle = { hydrateOnUse: true };

// "Forgot your password?": an email address in, the same answer out whether or not an
// account exists (so the page cannot be used to find out who has one), and a link by email.

const schema = z.object({
  email: text({ error: MESSAGES.email })
    .trim()
    .toLowerCase()
    .max(254, MESSAGES.email)
    .pipe(z.email({ error: MESSAGES.email })),
});

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  return { sent: new URL(request.url).searchParams.has("sent") };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const submission = parseForm(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply(), failure: null }, { status: 400 });
  const result = await requestPasswordReset(submission.value.email, clientIp(request));
  if (!result.ok) return data({ result: submission.reply(), failure: result.message }, rateLimitedInit(result));
  // The same answer for every address, shown where the member is looking (the page they asked on).
  return redirectWithToast("/forgot-password?sent", { type: "info", title: "Check your email", description: RESET_MESSAGES.sent });
}

export default function ForgotPasswordPage({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useSchemaForm(schema, { lastResult: actionData?.result });
  return (
    <AuthCard title="Forgot your password?" subtitle="We will email you a link to choose a new one.">
      {loaderData.sent ? (
        <div role="status" className="rounded-md border border-emerald-300 bg-emerald-50 p-4 text-emerald-950">
          <p className="font-semibold">Check your email</p>
          <p className="mt-1 text-sm">{RESET_MESSAGES.sent}</p>
        </div>
      ) : null}
      {actionData?.failure ? <FormAlert title="Too many requests">{actionData.failure}</FormAlert> : null}
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <Field
          label="Email"
          errors={fields.email.errors}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", onInput: lowerCaseAsTyped }}
        />
        <button type="submit" className="btn-primary w-full" disabled={pending}>
          {pending ? "Sending..." : loaderData.sent ? "Send another link" : "Send me a link"}
        </button>
      </Form>
      <BackToSignIn />
    </AuthCard>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Forgot your password? · Everlight" },
  { name: "description", content: "Forgotten your Everlight password? Ask for a link to choose a new one." },
];
