import { Form } from "react-router";
import { Tick } from "~/components/forms";
import { FOLLOW_MESSAGES } from "~/utils/follow";

// The memorial page's Follow box: plain forms that work without JavaScript, posted to
// /memorials/:id/follow. A member follows with one click (two tick boxes, both off unless ticked); a
// visitor types an email address and gets a confirmation link. No zod here: the memorial page ships none.

export type FollowState = { following: boolean; reminders: boolean; showName: boolean } | null;

export function FollowBox({ memorialId, name, state }: { memorialId: string; name: string; state: FollowState }) {
  const action = `/memorials/${memorialId}/follow`;
  return (
    <section aria-labelledby="follow-heading" className="rounded-lg border border-stone-200 p-4">
      <h2 id="follow-heading" className="font-semibold text-stone-900 wrap-anywhere">
        {state?.following ? FOLLOW_MESSAGES.following : `Follow the memorial of ${name}`}
      </h2>
      <p className="mt-1 text-sm text-stone-700">{FOLLOW_MESSAGES.hint}</p>
      {state?.following ? (
        <Form method="post" action={action} className="mt-3">
          <p className="text-sm text-stone-800">You follow this memorial{state.reminders ? ", with anniversary reminders" : ""}.</p>
          <button type="submit" name="intent" value="unfollow" className="btn-secondary mt-2">
            {FOLLOW_MESSAGES.unfollow}
          </button>
        </Form>
      ) : (
        <Form method="post" action={action} className="mt-3 space-y-3">
          {state ? null : (
            <div>
              <label htmlFor="follow-email" className="block text-sm font-medium text-stone-800">
                {FOLLOW_MESSAGES.emailLabel}
              </label>
              <input
                id="follow-email"
                name="email"
                type="email"
                required
                autoComplete="email"
                className="mt-1 block w-full rounded-md border border-stone-400 px-3 py-2 text-stone-900 shadow-sm"
              />
            </div>
          )}
          <Tick name="reminders" id="follow-reminders" label={FOLLOW_MESSAGES.remindersLabel} />
          {state ? <Tick name="showName" id="follow-show-name" label={FOLLOW_MESSAGES.showNameLabel} /> : null}
          <button type="submit" name="intent" value="follow" className="btn-primary w-full">
            {FOLLOW_MESSAGES.follow}
          </button>
        </Form>
      )}
    </section>
  );
}
