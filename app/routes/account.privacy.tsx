import { getCollectionProps, getFormProps, getInputProps } from "@conform-to/react";
import { parseForm } from "~/request/form.server";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/account.privacy";
import { ErrorList } from "~/components/forms";
import { useSchemaForm } from "~/components/schema-form";
import { updatePrivacy } from "~/models/accounts/users.server";
import { requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { privacySchema, VISIBILITIES, VISIBILITY_HINTS, VISIBILITY_LABELS } from "~/utils/validation/account";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Privacy tab: the visibility new
// memorials start with, and whether friend search finds this member by email address.

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { defaultVisibility: user.defaultVisibility, discoverable: user.discoverable };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const submission = parseForm(await request.formData(), { schema: privacySchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  await updatePrivacy(user.id, submission.value);
  return redirectWithToast("/account/privacy", { type: "success", title: "Privacy settings saved" });
}

export default function PrivacyTab({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useSchemaForm(privacySchema, {
    id: "privacy",
    lastResult: actionData?.result,
    defaultValue: { defaultVisibility: loaderData.defaultVisibility, discoverable: loaderData.discoverable ? "on" : undefined },
  });
  const visibilityErrorId = fields.defaultVisibility.errors?.length ? `${fields.defaultVisibility.id}-error` : undefined;
  const { key: _key, ...discoverableProps } = getInputProps(fields.discoverable, { type: "checkbox" });
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-xl font-semibold text-stone-900">Privacy</h2>
        <p className="mt-1 text-stone-700">Choose who sees what you create, and who can find you.</p>
      </div>
      <Form method="post" {...getFormProps(form)} className="space-y-8">
        <fieldset aria-describedby={[visibilityErrorId, "visibility-hint"].filter(Boolean).join(" ")}>
          <legend className="text-base font-semibold text-stone-900">Default visibility for new memorials</legend>
          <p id="visibility-hint" className="mt-1 text-sm text-stone-700">
            You can still change it for each memorial when you create or edit it.
          </p>
          <ErrorList id={visibilityErrorId} errors={fields.defaultVisibility.errors} />
          <div className="mt-3 space-y-3">
            {getCollectionProps(fields.defaultVisibility, { type: "radio", options: [...VISIBILITIES] }).map(({ key, ...props }) => {
              const value = props.value as (typeof VISIBILITIES)[number];
              return (
                <div key={key} className="flex items-start gap-3">
                  <input {...props} aria-describedby={`${props.id}-hint`} className="mt-1 h-4 w-4 accent-heather-700" />
                  <div>
                    <label htmlFor={props.id} className="font-medium text-stone-900">
                      {VISIBILITY_LABELS[value]}
                    </label>
                    <p id={`${props.id}-hint`} className="text-sm text-stone-700">
                      {VISIBILITY_HINTS[value]}
                    </p>
                  </div>
                </div>
              );
            })}
          </div>
        </fieldset>
        <div className="flex items-start gap-3">
          <input {...discoverableProps} aria-describedby="discoverable-hint" className="mt-1 h-4 w-4 accent-heather-700" />
          <div>
            <label htmlFor={fields.discoverable.id} className="font-medium text-stone-900">
              Let other members find me by my email address in friend search
            </label>
            <p id="discoverable-hint" className="text-sm text-stone-700">
              When this is off, nobody can find you by searching for your email address.
            </p>
          </div>
        </div>
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? "Saving..." : "Save privacy settings"}
        </button>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Privacy · Account Settings · Everlight" }];
