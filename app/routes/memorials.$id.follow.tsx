import { getFormProps, getInputProps } from "@conform-to/react";
import { parseForm } from "~/request/form.server";
import { data, Form, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/memorials.$id.follow";
import { CardFootLink, Field, FormAlert, lowerCaseAsTyped } from "~/components/forms";
import { Tick } from "~/components/forms";
import { useSchemaForm } from "~/components/schema-form";
import { followAsMember, followAsVisitor, unfollowAsMember } from "~/models/community/follows.server";
import { findMemorialForViewer } from "~/models/memorials/access.server";
import { getOptionalUser } from "~/request/auth.server";
import { clientIp } from "~/request/facts.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { redirectWithToast } from "~/request/toast.server";
import { FOLLOW_MESSAGES, visitorFollowSchema } from "~/utils/follow";

// Follow a memorial: where the memorial page's Follow box posts. A member follows or
// unfollows with one click and is sent back to the memorial; a visitor's email address is checked here,
// and a mistake is shown on this page next to the field with what was typed. Only a memorial the person
// may see can be followed (anything else is 404, never which).

export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = await getOptionalUser(request);
  const lookup = await findMemorialForViewer(params.id, viewer);
  if (lookup.status !== "ok") throw data(null, { status: 404 });
  // A member follows from the memorial page itself, with one click.
  if (viewer) throw redirect(`/memorials/${params.id}`);
  return { memorialId: lookup.memorial.id, name: `${lookup.memorial.firstName} ${lookup.memorial.lastName}` };
}

export async function action({ request, params }: Route.ActionArgs) {
  const viewer = await getOptionalUser(request);
  const form = await request.formData();
  const back = `/memorials/${params.id}`;
  if (viewer) {
    if (form.get("intent") === "unfollow") {
      await unfollowAsMember(params.id, viewer.id);
      return redirectWithToast(back, { type: "success", title: FOLLOW_MESSAGES.unfollowed });
    }
    const done = await followAsMember(params.id, viewer, { reminders: form.get("reminders") === "on", showName: form.get("showName") === "on" });
    if (!done.ok) throw data(null, { status: 404 });
    return redirectWithToast(back, { type: "success", title: FOLLOW_MESSAGES.followed });
  }
  const lookup = await findMemorialForViewer(params.id, null);
  if (lookup.status !== "ok") throw data(null, { status: 404 });
  const submission = parseForm(form, { schema: visitorFollowSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), failure: null }, { status: 400 });
  const asked = await followAsVisitor(params.id, submission.value, clientIp(request));
  if (!asked.ok && asked.reason === "not-found") throw data(null, { status: 404 });
  if (!asked.ok) return data({ result: submission.reply(), failure: asked.message }, rateLimitedInit(asked));
  return redirectWithToast(back, { type: "info", title: "Check your email", description: FOLLOW_MESSAGES.checkEmail });
}

export default function FollowPage({ loaderData, actionData }: Route.ComponentProps) {
  const pending = useNavigation().state === "submitting";
  const [form, fields] = useSchemaForm(visitorFollowSchema, { id: "follow", lastResult: actionData?.result });
  const { memorialId, name } = loaderData;
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <div className="space-y-4 rounded-xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold text-stone-900 wrap-anywhere">Follow the memorial of {name}</h1>
        <p className="text-stone-800">{FOLLOW_MESSAGES.hint} We will first send you a link to confirm.</p>
        {actionData?.failure ? <FormAlert title="Too many requests">{actionData.failure}</FormAlert> : null}
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <Field
            label={FOLLOW_MESSAGES.emailLabel}
            errors={fields.email.errors}
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", onInput: lowerCaseAsTyped }}
          />
          <Tick name="reminders" id="follow-page-reminders" label={FOLLOW_MESSAGES.remindersLabel} defaultChecked={fields.reminders.initialValue === "on"} />
          <button type="submit" name="intent" value="follow" className="btn-primary w-full" disabled={pending}>
            {FOLLOW_MESSAGES.follow}
          </button>
        </Form>
        <CardFootLink to={`/memorials/${memorialId}`}>Back to the memorial</CardFootLink>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Follow a memorial · Everlight" }, { name: "robots", content: "noindex" }];
