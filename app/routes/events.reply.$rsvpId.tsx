import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/events.reply.$rsvpId";
import { isValidReplyLink } from "~/services/signed-links.server";
import { confirmReply, replyByLink, stopReplyUpdates } from "~/models/memorials/events.server";
import { redirectWithToast } from "~/request/toast.server";
import { EVENT_MESSAGES } from "~/utils/events";

// A reply to a memorial's event, at the link emailed to the reply's address alone (signed for the reply):
// there its owner confirms the reply, or a change someone asked for it, and stops the family's updates.
// Nothing changes on GET (a mail program may open links to check them); each button is a plain form.

function signatureOf(request: Request) {
  return new URL(request.url).searchParams.get("sig") ?? "";
}

async function findReply(request: Request, rsvpId: string) {
  if (!isValidReplyLink(rsvpId, signatureOf(request))) throw data({ message: EVENT_MESSAGES.replyLinkBroken }, { status: 404 });
  const reply = await replyByLink(rsvpId);
  if (!reply) throw data({ message: EVENT_MESSAGES.replyLinkBroken }, { status: 404 });
  return reply;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  return findReply(request, params.rsvpId);
}

export async function action({ request, params }: Route.ActionArgs) {
  const reply = await findReply(request, params.rsvpId);
  const here = `/events/reply/${reply.id}?${new URLSearchParams({ sig: signatureOf(request) })}`;
  const intent = (await request.formData()).get("intent");
  if (intent === "stop-updates") {
    await stopReplyUpdates(reply.id);
    return redirectWithToast(here, { type: "success", title: EVENT_MESSAGES.updatesStopped, description: EVENT_MESSAGES.updatesStoppedDetail });
  }
  if (intent !== "confirm") throw data({ message: "Unknown action" }, { status: 400 });
  if (reply.past) return redirectWithToast(here, { type: "error", title: "Not confirmed", description: EVENT_MESSAGES.rsvpPast });
  if (!(await confirmReply(reply.id))) return redirectWithToast(here, { type: "info", title: EVENT_MESSAGES.replyNothingToConfirm });
  return redirectWithToast(here, { type: "success", title: EVENT_MESSAGES.replyConfirmed, description: EVENT_MESSAGES.replyConfirmedDetail });
}

const people = (n: number) => (n === 1 ? "1 person" : `${n} people`);

export default function ReplyPage({ loaderData }: Route.ComponentProps) {
  const { event, current, waiting, past, updatesStopped } = loaderData;
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900 wrap-anywhere">Your reply to {event.title}</h1>
      <p className="mt-2 text-stone-700 wrap-anywhere">
        For {event.memorialName} · {event.when}
        {event.place ? ` · ${event.place}` : ""}
      </p>

      <section aria-labelledby="reply-heading" className="mt-6 rounded-lg border border-stone-200 p-4">
        <h2 id="reply-heading" className="font-semibold text-stone-900">
          {waiting && current ? "A change to your reply, waiting for you" : waiting ? "A reply waiting for you to confirm it" : "Your reply"}
        </h2>
        {waiting ? (
          <>
            <p className="mt-2 text-stone-800 wrap-anywhere">
              {waiting.name} · {people(waiting.partySize)}
              {waiting.message ? ` · “${waiting.message}”` : ""}
            </p>
            {current ? (
              <p className="mt-2 text-sm text-stone-700 wrap-anywhere">
                Until you confirm it, your reply stays: {current.name} · {people(current.partySize)}
              </p>
            ) : null}
            <p className="mt-2 text-sm text-stone-700">If you did not write this, leave it: nothing changes unless you confirm it.</p>
            {past ? (
              <p className="mt-3 text-stone-700">{EVENT_MESSAGES.rsvpPast}</p>
            ) : (
              <Form method="post" className="mt-3">
                <input type="hidden" name="intent" value="confirm" />
                <button type="submit" className="btn-primary" disabled={busy("confirm")}>
                  {busy("confirm") ? "Confirming..." : "Confirm this reply"}
                </button>
              </Form>
            )}
          </>
        ) : current ? (
          <p className="mt-2 text-stone-800 wrap-anywhere">
            {current.name} · {people(current.partySize)}
            {current.message ? ` · “${current.message}”` : ""}
          </p>
        ) : null}
      </section>

      {current ? (
        <section aria-labelledby="updates-heading" className="mt-6 rounded-lg border border-stone-200 p-4">
          <h2 id="updates-heading" className="font-semibold text-stone-900">
            Updates from the family
          </h2>
          {updatesStopped ? (
            <p className="mt-2 text-stone-700">You get no more emails about this event. Your reply still counts.</p>
          ) : (
            <Form method="post" className="mt-2">
              <p className="text-stone-700">The family may email everyone who replied if something changes.</p>
              <input type="hidden" name="intent" value="stop-updates" />
              <button type="submit" className="btn-secondary mt-3" disabled={busy("stop-updates")}>
                {busy("stop-updates") ? "Stopping..." : "Stop emails about this event"}
              </button>
            </Form>
          )}
        </section>
      ) : null}

      <p className="mt-6 text-sm">
        <Link to={`/memorials/${event.memorialId}#events`} className="link">
          Go to the memorial
        </Link>
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Your reply · Everlight" }, { name: "robots", content: "noindex" }];
