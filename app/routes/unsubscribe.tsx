import { data, Form, Link } from "react-router";
import { CardFootLink } from "~/components/forms";
import type { Route } from "./+types/unsubscribe";
import { stopRemindersByLink, unfollowByLink } from "~/models/community/follows.server";
import { isValidFollowUnsubscribe, isValidRemindersOff, isValidUnsubscribe } from "~/services/signed-links.server";
import { turnOffNotification } from "~/models/accounts/users.server";
import { NOTIFICATION_TOPICS, type NotificationKey } from "~/utils/validation/account";

// The unsubscribe link in our notification emails: it works without signing in, because it
// is signed for one member and one kind of email. Opening it asks once (a link scanner or a preview must
// not unsubscribe anyone, so nothing changes on GET); the button, or a mail program's own one-click
// Unsubscribe (RFC 8058: a POST of "List-Unsubscribe=One-Click" to the same address), turns it off.

// A follower's emails carry the same kind of link, signed for one follow instead of one
// member and topic (?follow=…&sig=…): a visitor who follows has no account. Using it ends the follow.
// An anniversary reminder also has one signed to stop the reminders only
// (?follow=…&only=reminders&sig=…): the follow, and its digest, stay.

type Link =
  | { kind: "topic"; user: string; topic: NotificationKey; label: string }
  | { kind: "follow"; follow: string; label: string }
  | { kind: "reminders"; follow: string; label: string };
type Shown = Link["kind"] | null;

function linkFrom(request: Request): Link | null {
  const params = new URL(request.url).searchParams;
  const follow = params.get("follow");
  if (follow !== null && params.get("only") === "reminders")
    return isValidRemindersOff(follow, params.get("sig") ?? "") ? { kind: "reminders", follow, label: "Anniversary reminders" } : null;
  if (follow !== null) return isValidFollowUnsubscribe(follow, params.get("sig") ?? "") ? { kind: "follow", follow, label: "A memorial you follow" } : null;
  const user = params.get("user") ?? "";
  const topic = params.get("topic") ?? "";
  const sig = params.get("sig") ?? "";
  const entry = NOTIFICATION_TOPICS.find((t) => t.key === topic);
  if (!entry || !isValidUnsubscribe(user, topic, sig)) return null;
  return { kind: "topic", user, topic: entry.key as NotificationKey, label: entry.label };
}

const REMINDERS_ASK = "Stop the anniversary reminders of this memorial. You will still follow it, and still hear when something new appears on it.";
const REMINDERS_DONE = "We will not send you anniversary reminders for this memorial any more. You still follow it.";
const BROKEN = "This unsubscribe link does not work: it may have been cut short. You can turn emails off in Account → Notifications.";

export async function loader({ request }: Route.LoaderArgs) {
  const link = linkFrom(request);
  if (!link) return data({ state: "broken" as const, label: null, shown: null as Shown }, { status: 400 });
  return { state: "ask" as const, label: link.label, shown: link.kind as Shown };
}

export async function action({ request }: Route.ActionArgs) {
  const link = linkFrom(request);
  if (!link) return data({ state: "broken" as const, label: null, shown: null as Shown }, { status: 400 });
  if (link.kind === "follow") await unfollowByLink(link.follow);
  else if (link.kind === "reminders") await stopRemindersByLink(link.follow);
  else await turnOffNotification(link.user, link.topic);
  return { state: "done" as const, label: link.label, shown: link.kind as Shown };
}

export default function UnsubscribePage({ loaderData, actionData }: Route.ComponentProps) {
  const { state, label, shown } = actionData ?? loaderData;
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <div className="space-y-4 rounded-xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
        {state === "broken" ? (
          <>
            <h1 className="text-2xl font-bold text-stone-900">Unsubscribe</h1>
            <p className="text-stone-800">{BROKEN}</p>
          </>
        ) : state === "done" ? (
          <>
            <h1 className="text-2xl font-bold text-stone-900">You are unsubscribed</h1>
            <p role="status" className="text-stone-800">
              {shown === "reminders"
                ? REMINDERS_DONE
                : shown === "follow"
                  ? "You no longer follow this memorial: we will not email you about it any more. You can follow it again from its page."
                  : `We will not email you about “${label?.toLowerCase()}” any more. You can turn it back on in Account → Notifications.`}
            </p>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-bold text-stone-900">Unsubscribe?</h1>
            <p className="text-stone-800">
              {shown === "reminders"
                ? REMINDERS_ASK
                : shown === "follow"
                  ? "Stop following this memorial, and the emails about what is new on it."
                  : `Stop the emails about “${label?.toLowerCase()}”. Emails about your account itself (a changed password) still come.`}
            </p>
            <Form method="post">
              <button type="submit" className="btn-primary w-full">
                Unsubscribe
              </button>
            </Form>
          </>
        )}
        <CardFootLink to="/account/notifications">Account → Notifications</CardFootLink>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Unsubscribe · Everlight" }, { name: "robots", content: "noindex" }];
