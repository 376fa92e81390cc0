import { data, Form, Link } from "react-router";
import type { Route } from "./+types/memorials.$id.events_.$eventId";
import { ErrorList, Field, FormAlert } from "~/components/forms";
import { EventDetails } from "~/components/memorial/memorial-events";
import { MemorialSubpageLinks } from "~/components/memorial/memorial-subpage-links";
import { describeEvent, emailAttendees, eventWithAnswers } from "~/models/memorials/events.server";
import { actorOf, requireUser } from "~/request/auth.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { redirectWithToast } from "~/request/toast.server";
import { EVENT_MAIL_MESSAGE_MAX, EVENT_MAIL_SUBJECT_MAX, EVENT_MESSAGES, parseEventMailForm, type EventMailErrors, type EventMailValues } from "~/utils/events";
import type { KeptPageHandle } from "~/utils/kept-pages";

// One event's replies, for the family: who is coming, how many, their messages, with the
// totals; and "Email everyone who replied" (a subject and a message, through the outbox, with how many it
// went to). The owner and co-managers only; anyone else: 404.

async function requireAnswers(request: Request, memorialId: string, eventId: string) {
  const user = await requireUser(request);
  const actor = actorOf(user, request);
  const found = await eventWithAnswers(memorialId, eventId, actor);
  if (!found) throw data(null, { status: 404 });
  return { actor, ...found };
}

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request, params }: Route.LoaderArgs) {
  const { event, rsvps, totals } = await requireAnswers(request, params.id, params.eventId);
  return {
    memorialId: params.id,
    event: describeEvent(event),
    totals,
    rsvps: rsvps.map((r) => ({ id: r.id, name: r.name, email: r.email, partySize: r.partySize, message: r.message })),
  };
}

type Failure = { values: EventMailValues; errors: EventMailErrors; refusal: string | null };

export async function action({ request, params }: Route.ActionArgs) {
  const { actor } = await requireAnswers(request, params.id, params.eventId);
  const parsed = parseEventMailForm(await request.formData());
  const fail = (failure: Partial<Failure>, init: number | ResponseInit = 400) =>
    data({ failure: { values: parsed.values, errors: {}, refusal: null, ...failure } satisfies Failure }, init);
  if (!parsed.ok) return fail({ errors: parsed.errors });
  const result = await emailAttendees(params.id, params.eventId, actor, parsed.input);
  if (result.ok) return redirectWithToast(`/memorials/${params.id}/events/${params.eventId}`, { type: "success", title: EVENT_MESSAGES.mailed(result.sent) });
  if (result.reason === "not-found") throw data(null, { status: 404 });
  if (result.reason !== "rate-limited") return fail({ refusal: EVENT_MESSAGES.nobodyToEmail });
  return fail({ refusal: result.message }, rateLimitedInit(result));
}

export default function EventRepliesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { memorialId, event, totals, rsvps } = loaderData;
  const failure = actionData?.failure;
  const errors = failure?.errors ?? {};
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900 wrap-anywhere">Replies: {event.title}</h1>
      <MemorialSubpageLinks memorialId={memorialId} />
      <p className="mt-2 text-sm">
        <Link to={`/memorials/${memorialId}/events`} className="link">
          All events
        </Link>
      </p>
      <div className="mt-6 rounded-lg border border-stone-200 p-4">
        <EventDetails event={event} headingLevel={2} />
      </div>

      <section aria-labelledby="replies-heading" className="mt-8">
        <h2 id="replies-heading" className="text-xl font-semibold text-stone-900">
          Who is coming
        </h2>
        <p className="mt-2 text-stone-800" data-testid="reply-totals">
          {totals.replies} {totals.replies === 1 ? "reply" : "replies"}, {totals.people} {totals.people === 1 ? "person" : "people"} in all
        </p>
        {rsvps.length ? (
          <ul className="mt-3 divide-y divide-stone-200 rounded-lg border border-stone-200">
            {rsvps.map((r) => (
              <li key={r.id} className="space-y-1 p-4">
                <p className="font-medium text-stone-900 wrap-anywhere">
                  {r.name} · {r.partySize === 1 ? "1 person" : `${r.partySize} people`}
                </p>
                <p className="text-sm text-stone-700 wrap-anywhere">{r.email}</p>
                {r.message ? <p className="whitespace-pre-line text-stone-800 wrap-anywhere">{r.message}</p> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-stone-700">No replies yet.</p>
        )}
      </section>

      <section aria-labelledby="email-heading" className="mt-10">
        <h2 id="email-heading" className="text-xl font-semibold text-stone-900">
          Email everyone who replied
        </h2>
        <p className="mt-2 text-stone-700">A change of time or place, or a word of thanks. The event&apos;s details go with your message.</p>
        {failure?.refusal ? (
          <div className="mt-3">
            <FormAlert title="Your update was not sent">{failure.refusal}</FormAlert>
          </div>
        ) : null}
        <Form method="post" noValidate className="mt-4 space-y-4">
          <Field
            label="Subject"
            errors={errors.subject}
            inputProps={{ id: "mail-subject", name: "subject", required: true, maxLength: EVENT_MAIL_SUBJECT_MAX, defaultValue: failure?.values.subject ?? "" }}
          />
          <div>
            <label htmlFor="mail-body" className="block text-sm font-medium text-stone-800">
              Message
            </label>
            <textarea
              id="mail-body"
              name="body"
              rows={6}
              required
              maxLength={EVENT_MAIL_MESSAGE_MAX}
              defaultValue={failure?.values.body ?? ""}
              aria-invalid={errors.body ? true : undefined}
              aria-describedby={errors.body ? "mail-body-error" : undefined}
              className={`mt-1 block w-full rounded-md border px-3 py-2 text-stone-900 shadow-sm ${errors.body ? "border-red-600" : "border-stone-400"}`}
            />
            <ErrorList id="mail-body-error" errors={errors.body} />
          </div>
          <button type="submit" className="btn-primary">
            Email attendees
          </button>
        </Form>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Event replies · Everlight" }, { name: "robots", content: "noindex" }];
