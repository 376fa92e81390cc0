import { data, Link } from "react-router";
import type { Route } from "./+types/memorials.$id.events_.$eventId_.rsvp";
import { FormAlert } from "~/components/forms";
import { EventDetails, EVENTS_SECTION, RsvpForm } from "~/components/memorial/memorial-events";
import { describeEvent, listEvents, rsvpToEvent } from "~/models/memorials/events.server";
import { findMemorialForViewer } from "~/models/memorials/access.server";
import { getOptionalUser } from "~/request/auth.server";
import { clientIp } from "~/request/facts.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { redirectWithToast } from "~/request/toast.server";
import { EVENT_MESSAGES, parseRsvpForm, type RsvpErrors, type RsvpFormValues } from "~/utils/events";

// Replying to a memorial's event: where the reply form on the memorial page posts. A
// mistake is shown here, next to the field, with what was typed; a reply that is taken goes back to the
// memorial's events with the thanks shown there (#events). Only a memorial the person may see (404 otherwise,
// never which), and only an event that is not over (a past one answers 400 with why).

async function findEvent(request: Request, memorialId: string, eventId: string) {
  const viewer = await getOptionalUser(request);
  const lookup = await findMemorialForViewer(memorialId, viewer);
  if (lookup.status !== "ok") throw data(null, { status: 404 });
  const event = (await listEvents(lookup.memorial.id)).find((e) => e.id === eventId);
  if (!event) throw data(null, { status: 404 });
  return { viewer, memorial: lookup.memorial, event: describeEvent(event) };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { memorial, event } = await findEvent(request, params.id, params.eventId);
  return { memorialId: memorial.id, name: `${memorial.firstName} ${memorial.lastName}`, event };
}

type Failure = { values: RsvpFormValues; errors: RsvpErrors; refusal: string | null };

export async function action({ request, params }: Route.ActionArgs) {
  const { viewer, memorial, event } = await findEvent(request, params.id, params.eventId);
  const parsed = parseRsvpForm(await request.formData());
  const fail = (failure: Partial<Failure>, init: number | ResponseInit = 400) =>
    data({ failure: { values: parsed.values, errors: {}, refusal: null, ...failure } satisfies Failure }, init);
  if (event.past) return fail({ refusal: EVENT_MESSAGES.rsvpPast });
  if (!parsed.ok) return fail({ errors: parsed.errors });
  const result = await rsvpToEvent(memorial.id, event.id, viewer, parsed.input, clientIp(request));
  if (result.ok)
    return redirectWithToast(
      `/memorials/${memorial.id}#${EVENTS_SECTION}`,
      result.status === "confirmed"
        ? { type: "success", title: EVENT_MESSAGES.rsvpThanks, description: EVENT_MESSAGES.rsvpThanksDetail, at: EVENTS_SECTION }
        : { type: "info", title: EVENT_MESSAGES.rsvpCheckEmail, description: EVENT_MESSAGES.rsvpCheckEmailDetail(parsed.input.email), at: EVENTS_SECTION },
    );
  if (result.reason === "not-found") throw data(null, { status: 404 });
  if (result.reason !== "rate-limited") return fail({ refusal: EVENT_MESSAGES.rsvpPast });
  return fail({ refusal: result.message }, rateLimitedInit(result));
}

export default function RsvpPage({ loaderData, actionData }: Route.ComponentProps) {
  const { memorialId, name, event } = loaderData;
  const failure = actionData?.failure;
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900 wrap-anywhere">Reply to an event for {name}</h1>
      <div className="mt-6 rounded-lg border border-stone-200 p-4">
        <EventDetails event={event} headingLevel={2} />
        {failure?.refusal ? (
          <div className="mt-4">
            <FormAlert title="Your reply was not sent">{failure.refusal}</FormAlert>
          </div>
        ) : null}
        {event.past ? (
          <p className="mt-4 text-stone-700">{EVENT_MESSAGES.rsvpPast}</p>
        ) : (
          <RsvpForm memorialId={memorialId} eventId={event.id} title={event.title} values={failure?.values ?? null} errors={failure?.errors ?? {}} />
        )}
      </div>
      <p className="mt-6 text-sm">
        <Link to={`/memorials/${memorialId}#${EVENTS_SECTION}`} className="link">
          Back to the memorial
        </Link>
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Reply to an event · Everlight" }, { name: "robots", content: "noindex" }];
