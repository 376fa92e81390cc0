import { getFormProps, getInputProps } from "@conform-to/react";
import { parseForm } from "~/request/form.server";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/account.notifications";
import { useSchemaForm } from "~/components/schema-form";
import { updateNotifications } from "~/models/accounts/users.server";
import { requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { NOTIFICATION_TOPICS, notificationsSchema } from "~/utils/validation/account";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Notifications tab: which emails a member
// gets (app/models/mail/compose.server.ts reads these choices when it writes each one). Emails about the account
// itself — a changed password, a deleted account — are always sent.

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { preferences: user.notificationPreferences };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const submission = parseForm(await request.formData(), { schema: notificationsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  await updateNotifications(user.id, submission.value);
  return redirectWithToast("/account/notifications", { type: "success", title: "Notification preferences saved" });
}

export default function NotificationsTab({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useSchemaForm(notificationsSchema, {
    id: "notifications",
    lastResult: actionData?.result,
    defaultValue: Object.fromEntries(NOTIFICATION_TOPICS.map((t) => [t.key, loaderData.preferences[t.key] ? "on" : undefined])),
  });
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-xl font-semibold text-stone-900">Notifications</h2>
        <p className="mt-1 text-stone-700">
          Choose which emails we send you. Each one also has a link to stop it. Emails about your account itself, such as a changed password, always come.
        </p>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-6">
        <fieldset>
          <legend className="text-base font-semibold text-stone-900">Email me about</legend>
          <div className="mt-3 space-y-3">
            {NOTIFICATION_TOPICS.map((topic) => {
              const { key: _key, ...props } = getInputProps(fields[topic.key], { type: "checkbox" });
              return (
                <div key={topic.key} className="flex items-center gap-3">
                  <input {...props} className="h-4 w-4 accent-heather-700" />
                  <label htmlFor={props.id} className="text-stone-900">
                    {topic.label}
                  </label>
                </div>
              );
            })}
          </div>
        </fieldset>
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? "Saving..." : "Save preferences"}
        </button>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Notifications · Account Settings · Everlight" }];
