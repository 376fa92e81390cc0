import { Form, Link } from "react-router";
import type { Route } from "./+types/account.following";
import { listFollowedMemorials, setRemindersById, unfollowById } from "~/models/community/follows.server";
import { requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { formatLongDate } from "~/utils/dates";
import { FOLLOW_MESSAGES } from "~/utils/follow";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Following tab: the memorials this member follows, each with Unfollow (a plain form),
// and a button that turns its anniversary reminders on or off.

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const follows = await listFollowedMemorials(user.id);
  return { follows: follows.map((f) => ({ ...f, since: f.since.toISOString() })) };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "reminders-on" || intent === "reminders-off") {
    const on = intent === "reminders-on";
    const changed = await setRemindersById(String(form.get("followId") ?? ""), user.id, on);
    return redirectWithToast(
      "/account/following",
      changed
        ? { type: "success", title: on ? FOLLOW_MESSAGES.remindersOn : FOLLOW_MESSAGES.remindersOff }
        : { type: "error", title: FOLLOW_MESSAGES.notFollowed },
    );
  }
  const done = await unfollowById(String(form.get("followId") ?? ""), user.id);
  return redirectWithToast(
    "/account/following",
    done ? { type: "success", title: FOLLOW_MESSAGES.unfollowed } : { type: "error", title: "Already unfollowed" },
  );
}

export default function FollowingTab({ loaderData }: Route.ComponentProps) {
  const { follows } = loaderData;
  return (
    <div className="space-y-6">
      <div>
        <h2 className="text-xl font-semibold text-stone-900">Following</h2>
        <p className="mt-1 text-stone-700">{FOLLOW_MESSAGES.hint}</p>
      </div>
      {follows.length === 0 ? (
        <p className="text-stone-700">{FOLLOW_MESSAGES.nothingFollowed}</p>
      ) : (
        <ul className="divide-y divide-stone-200 rounded-lg border border-stone-200">
          {follows.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div className="min-w-0 wrap-anywhere">
                <Link to={`/memorials/${f.memorialId}`} className="link font-medium">
                  {f.name}
                </Link>
                <p className="text-sm text-stone-700">
                  Since {formatLongDate(f.since)}
                  {f.reminders ? " · anniversary reminders on" : ""}
                </p>
              </div>
              <Form method="post" className="flex flex-wrap gap-2">
                <input type="hidden" name="followId" value={f.id} />
                <button
                  type="submit"
                  name="intent"
                  value={f.reminders ? "reminders-off" : "reminders-on"}
                  className="btn-secondary"
                  aria-label={`${f.reminders ? FOLLOW_MESSAGES.turnRemindersOff : FOLLOW_MESSAGES.turnRemindersOn} for the memorial of ${f.name}`}
                >
                  {f.reminders ? FOLLOW_MESSAGES.turnRemindersOff : FOLLOW_MESSAGES.turnRemindersOn}
                </button>
                <button type="submit" name="intent" value="unfollow" className="btn-secondary" aria-label={`Unfollow the memorial of ${f.name}`}>
                  {FOLLOW_MESSAGES.unfollow}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Following · Account Settings · Everlight" }];
