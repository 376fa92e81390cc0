import { Form, Link } from "react-router";
import { ErrorList, Field } from "~/components/forms";
import { ToastInPlace } from "~/components/toaster";
import { RSVP_MESSAGE_MAX, RSVP_NAME_MAX, RSVP_PARTY_MAX, type RsvpErrors, type RsvpFormValues } from "~/utils/events";

// A memorial's events on its page: the coming ones, each with where and when in its own
// time zone, a map link, the livestream and the family's note, and a reply form that is a plain HTML form
// (no JavaScript needed); then the past ones under "Past events", kept as part of the story, without a form.

export const EVENTS_SECTION = "events";

export type EventCard = {
  id: string;
  kind: string;
  title: string;
  when: string;
  startsAt: string;
  placeName: string;
  address: string | null;
  mapUrl: string;
  livestreamUrl: string | null;
  note: string | null;
  past: boolean;
};

export function MemorialEvents({ memorialId, events, manageHref }: { memorialId: string; events: EventCard[]; manageHref?: string }) {
  const coming = events.filter((e) => !e.past);
  const past = events.filter((e) => e.past).reverse();
  return (
    <>
      <section id={EVENTS_SECTION} aria-labelledby="events-heading" className="mt-10">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="events-heading" className="text-2xl font-semibold text-stone-900">
            Events
          </h2>
          {manageHref ? (
            <Link to={manageHref} className="link text-sm">
              Manage events
            </Link>
          ) : null}
        </div>
        <ToastInPlace at={EVENTS_SECTION} />
        {coming.length ? (
          <ul className="mt-4 space-y-6">
            {coming.map((e) => (
              <li key={e.id} id={`event-${e.id}`} className="rounded-lg border border-stone-200 p-4">
                <EventDetails event={e} />
                <details className="mt-4">
                  <summary className="btn-secondary inline-block cursor-pointer text-sm">
                    I will be there<span className="sr-only">: reply to {e.title}</span>
                  </summary>
                  <RsvpForm memorialId={memorialId} eventId={e.id} title={e.title} values={null} errors={{}} />
                </details>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-stone-700">No events are coming up.</p>
        )}
      </section>
      {past.length ? (
        <section aria-labelledby="past-events-heading" className="mt-10">
          <h2 id="past-events-heading" className="text-2xl font-semibold text-stone-900">
            Past events
          </h2>
          <ul className="mt-4 space-y-6">
            {past.map((e) => (
              <li key={e.id} id={`event-${e.id}`} className="rounded-lg border border-stone-200 bg-stone-50 p-4">
                <EventDetails event={e} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

export function EventDetails({ event: e, headingLevel = 3 }: { event: EventCard; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="space-y-2">
      <p className="text-sm font-semibold text-heather-800">{e.kind}</p>
      <Heading className="text-lg font-semibold text-stone-900 wrap-anywhere">{e.title}</Heading>
      <p className="text-stone-800">
        <time dateTime={e.startsAt}>{e.when}</time>
      </p>
      <p className="text-stone-800 wrap-anywhere">
        {e.placeName}
        {e.address ? <span className="block text-sm text-stone-700">{e.address}</span> : null}
        <a href={e.mapUrl} className="link text-sm" rel="noopener noreferrer">
          Map<span className="sr-only"> of {e.placeName}</span> (OpenStreetMap)
        </a>
      </p>
      {e.livestreamUrl ? (
        <p className="text-sm">
          <a href={e.livestreamUrl} className="link wrap-anywhere" rel="noopener noreferrer nofollow">
            Watch the livestream<span className="sr-only"> of {e.title}</span>
          </a>
        </p>
      ) : null}
      {e.note ? <p className="whitespace-pre-line text-stone-800 wrap-anywhere">{e.note}</p> : null}
    </div>
  );
}

/** The reply form: plain HTML, posted to the event's reply address; errors next to each field, input kept. */
export function RsvpForm({
  memorialId,
  eventId,
  title,
  values,
  errors,
}: {
  memorialId: string;
  eventId: string;
  title: string;
  values: RsvpFormValues | null;
  errors: RsvpErrors;
}) {
  const id = (f: string) => `rsvp-${eventId}-${f}`;
  return (
    <Form method="post" action={`/memorials/${memorialId}/events/${eventId}/rsvp`} noValidate className="mt-3 space-y-3" aria-label={`Reply to ${title}`}>
      <Field
        label="Your name"
        errors={errors.name}
        inputProps={{ id: id("name"), name: "name", autoComplete: "name", required: true, maxLength: RSVP_NAME_MAX, defaultValue: values?.name ?? "" }}
      />
      <Field
        label="Your email address"
        errors={errors.email}
        hint="We email you a copy, and the family may send an update to everyone who replied."
        inputProps={{ id: id("email"), name: "email", type: "email", autoComplete: "email", required: true, defaultValue: values?.email ?? "" }}
      />
      <Field
        label="How many of you are coming"
        errors={errors.partySize}
        inputProps={{
          id: id("partySize"),
          name: "partySize",
          type: "number",
          inputMode: "numeric",
          min: 1,
          max: RSVP_PARTY_MAX,
          required: true,
          defaultValue: values?.partySize ?? "1",
        }}
      />
      <div>
        <label htmlFor={id("message")} className="block text-sm font-medium text-stone-800">
          A message for the family (optional)
        </label>
        <textarea
          id={id("message")}
          name="message"
          rows={3}
          maxLength={RSVP_MESSAGE_MAX}
          defaultValue={values?.message ?? ""}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={errors.message ? `${id("message")}-error` : undefined}
          className={`mt-1 block w-full rounded-md border px-3 py-2 text-stone-900 shadow-sm ${errors.message ? "border-red-600" : "border-stone-400"}`}
        />
        <ErrorList id={`${id("message")}-error`} errors={errors.message} />
      </div>
      <button type="submit" className="btn-primary">
        Send my reply
      </button>
    </Form>
  );
}
