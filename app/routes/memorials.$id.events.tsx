import { data, Form, Link } from "react-router";
import type { Route } from "./+types/memorials.$id.events";
import { ErrorList, Field } from "~/components/forms";
import { MemorialSubpageLinks } from "~/components/memorial/memorial-subpage-links";
import { addEvent, describeEvent, listEvents, removeEvent, updateEvent, type EventResult } from "~/models/memorials/events.server";
import { findEditableMemorial } from "~/models/memorials/access.server";
import { actorOf, requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import {
  DEFAULT_TIME_ZONE,
  EVENT_ADDRESS_MAX,
  EVENT_KIND_LABELS,
  EVENT_KINDS,
  EVENT_MAX_PER_MEMORIAL,
  EVENT_MESSAGES,
  EVENT_NOTE_MAX,
  EVENT_PLACE_MAX,
  EVENT_TITLE_MAX,
  EVENT_URL_MAX,
  parseEventForm,
  timeZoneChoices,
  type EventErrors,
  type EventFormValues,
} from "~/utils/events";
import type { KeptPageHandle } from "~/utils/kept-pages";

// A memorial's events, for the family (docs/decisions/026-memorial-events.md): the owner and
// co-managers add, edit (?edit=<event id>) and delete events with plain forms, and open each event's replies.
// Anyone else: 404. The events show on the memorial page and in its calendar feed.

async function requireEventManager(request: Request, id: string) {
  const user = await requireUser(request);
  const memorial = await findEditableMemorial(id, user.id);
  if (!memorial) throw data(null, { status: 404 });
  return { user, memorial };
}

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request, params }: Route.LoaderArgs) {
  const { memorial } = await requireEventManager(request, params.id);
  const rows = await listEvents(memorial.id);
  const editId = new URL(request.url).searchParams.get("edit");
  const editing = editId ? rows.find((e) => e.id === editId) : undefined;
  return {
    memorialId: memorial.id,
    name: `${memorial.firstName} ${memorial.lastName}`,
    full: rows.length >= EVENT_MAX_PER_MEMORIAL,
    events: rows.map((e) => describeEvent(e)),
    timeZones: timeZoneChoices(),
    editing: editing
      ? {
          id: editing.id,
          values: {
            kind: editing.kind,
            title: editing.title,
            date: editing.startDate.toISOString().slice(0, 10),
            startTime: editing.startTime,
            endTime: editing.endTime ?? "",
            timeZone: editing.timeZone,
            placeName: editing.placeName,
            address: editing.address ?? "",
            livestreamUrl: editing.livestreamUrl ?? "",
            note: editing.note ?? "",
          } satisfies EventFormValues,
        }
      : null,
  };
}

type Failure = { eventId: string | null; values: EventFormValues; errors: EventErrors };

export async function action({ request, params }: Route.ActionArgs) {
  const { user, memorial } = await requireEventManager(request, params.id);
  const actor = actorOf(user, request);
  const form = await request.formData();
  const intent = form.get("intent");
  const eventId = typeof form.get("eventId") === "string" ? String(form.get("eventId")) : "";
  const here = `/memorials/${memorial.id}/events`;
  if (intent === "remove") {
    const result = await removeEvent(memorial.id, eventId, actor);
    if (!result.ok && result.reason === "not-found") throw data(null, { status: 404 });
    return redirectWithToast(here, result.ok ? { type: "success", title: EVENT_MESSAGES.removed } : { type: "error", title: EVENT_MESSAGES.gone });
  }
  if (intent !== "add" && intent !== "edit") throw data(null, { status: 400 });
  const parsed = parseEventForm(form);
  const fail = (errors: EventErrors) =>
    data({ failure: { eventId: intent === "edit" ? eventId : null, values: parsed.values, errors } satisfies Failure }, { status: 400 });
  if (!parsed.ok) return fail(parsed.errors);
  const result: EventResult =
    intent === "add" ? await addEvent(memorial.id, actor, parsed.input) : await updateEvent(memorial.id, eventId, actor, parsed.input);
  if (result.ok) return redirectWithToast(here, { type: "success", title: intent === "add" ? EVENT_MESSAGES.added : EVENT_MESSAGES.saved });
  if (result.reason === "not-found") throw data(null, { status: 404 });
  if (result.reason === "full") return fail({ title: [EVENT_MESSAGES.full] });
  return redirectWithToast(here, { type: "error", title: EVENT_MESSAGES.gone });
}

export default function MemorialEventsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { memorialId, name, events, editing, full, timeZones } = loaderData;
  const failure = actionData?.failure;
  const editId = failure ? failure.eventId : (editing?.id ?? null);
  const values = failure?.values ?? editing?.values ?? null;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">Events</h1>
      <p className="mt-2 text-stone-700 wrap-anywhere">
        The funeral, a service, a celebration of life or a gathering for {name}. Visitors see them on the memorial page and can reply; once an event is over it
        stays on the memorial under “Past events”.
      </p>
      <MemorialSubpageLinks memorialId={memorialId} />

      <section aria-labelledby="list-heading" className="mt-8">
        <h2 id="list-heading" className="text-xl font-semibold text-stone-900">
          Events ({events.length})
        </h2>
        {events.length ? (
          <ul className="mt-3 divide-y divide-stone-200 rounded-lg border border-stone-200">
            {events.map((e) => (
              <li key={e.id} id={`event-${e.id}`} className="space-y-2 p-4">
                <p className="text-sm text-stone-700">
                  <time dateTime={e.startsAt}>{e.when}</time> · {e.kind}
                  {e.past ? " · past" : ""}
                </p>
                <p className="font-medium text-stone-900 wrap-anywhere">{e.title}</p>
                <div className="flex flex-wrap gap-2">
                  <Link to={`/memorials/${memorialId}/events/${e.id}`} className="btn-secondary text-sm">
                    Replies<span className="sr-only"> to {e.title}</span>
                  </Link>
                  <Link to={`?edit=${e.id}#event-form`} className="btn-secondary text-sm">
                    Edit<span className="sr-only"> {e.title}</span>
                  </Link>
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="eventId" value={e.id} />
                    <button type="submit" className="btn-secondary text-sm text-red-800">
                      Delete<span className="sr-only"> {e.title}</span>
                    </button>
                  </Form>
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-stone-700">No events yet. Add the first below.</p>
        )}
      </section>

      <section aria-labelledby="event-form-heading" id="event-form" className="mt-10">
        <h2 id="event-form-heading" className="text-xl font-semibold text-stone-900">
          {editId ? "Edit an event" : "Add an event"}
        </h2>
        {full && !editId ? <p className="mt-2 text-stone-700">{EVENT_MESSAGES.full}</p> : null}
        <EventForm key={`${editId ?? "new"}-${events.length}`} editId={editId} values={values} errors={failure?.errors ?? {}} timeZones={timeZones} />
      </section>
    </div>
  );
}

function EventForm({ editId, values, errors, timeZones }: { editId: string | null; values: EventFormValues | null; errors: EventErrors; timeZones: string[] }) {
  const describedBy = (field: keyof EventErrors, hint?: string) =>
    [errors[field]?.length ? `event-${field}-error` : null, hint].filter(Boolean).join(" ") || undefined;
  const boxClass = (field: keyof EventErrors) =>
    `mt-1 block w-full rounded-md border bg-white px-3 py-2 text-stone-900 shadow-sm ${errors[field]?.length ? "border-red-600" : "border-stone-400"}`;
  const input = (field: keyof EventFormValues) => ({ id: `event-${field}`, name: field, defaultValue: values?.[field] ?? "" });
  return (
    <Form method="post" noValidate className="mt-4 space-y-4">
      <input type="hidden" name="intent" value={editId ? "edit" : "add"} />
      {editId ? <input type="hidden" name="eventId" value={editId} /> : null}
      <div>
        <label htmlFor="event-kind" className="block text-sm font-medium text-stone-800">
          Kind of event
        </label>
        <select
          id="event-kind"
          name="kind"
          defaultValue={values?.kind ?? "funeral"}
          aria-invalid={errors.kind ? true : undefined}
          aria-describedby={describedBy("kind")}
          className={boxClass("kind")}
        >
          {EVENT_KINDS.map((k) => (
            <option key={k} value={k}>
              {EVENT_KIND_LABELS[k]}
            </option>
          ))}
        </select>
        <ErrorList id="event-kind-error" errors={errors.kind} />
      </div>
      <Field label="Title" errors={errors.title} inputProps={{ ...input("title"), required: true, maxLength: EVENT_TITLE_MAX }} />
      <fieldset>
        <legend className="text-sm font-medium text-stone-800">When</legend>
        <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Field label="Date" errors={errors.date} inputProps={{ ...input("date"), type: "date", required: true }} />
          <Field label="Starts at" errors={errors.startTime} inputProps={{ ...input("startTime"), type: "time", required: true }} />
          <Field label="Ends at (optional)" errors={errors.endTime} inputProps={{ ...input("endTime"), type: "time" }} />
        </div>
      </fieldset>
      <div>
        <label htmlFor="event-timeZone" className="block text-sm font-medium text-stone-800">
          Time zone
        </label>
        <p id="event-timeZone-hint" className="text-sm text-stone-600">
          Where the event takes place. Visitors see the time as it is there.
        </p>
        <select
          id="event-timeZone"
          name="timeZone"
          defaultValue={values?.timeZone || DEFAULT_TIME_ZONE}
          aria-invalid={errors.timeZone ? true : undefined}
          aria-describedby={describedBy("timeZone", "event-timeZone-hint")}
          className={boxClass("timeZone")}
        >
          {timeZones.map((z) => (
            <option key={z} value={z}>
              {z.replace(/_/g, " ")}
            </option>
          ))}
        </select>
        <ErrorList id="event-timeZone-error" errors={errors.timeZone} />
      </div>
      <Field
        label="Place"
        errors={errors.placeName}
        hint="For example “St Mary’s Church” or “The Old Boathouse”."
        inputProps={{ ...input("placeName"), required: true, maxLength: EVENT_PLACE_MAX }}
      />
      <Field
        label="Address (optional)"
        errors={errors.address}
        hint="Visitors get a map link for it."
        inputProps={{ ...input("address"), autoComplete: "off", maxLength: EVENT_ADDRESS_MAX }}
      />
      <Field
        label="Livestream link (optional)"
        errors={errors.livestreamUrl}
        hint="A full https:// link, for those who cannot be there."
        inputProps={{ ...input("livestreamUrl"), type: "url", inputMode: "url", maxLength: EVENT_URL_MAX }}
      />
      <div>
        <label htmlFor="event-note" className="block text-sm font-medium text-stone-800">
          A note (optional)
        </label>
        <p id="event-note-hint" className="text-sm text-stone-600">
          What to wear, flowers, or donations in lieu of flowers.
        </p>
        <textarea
          id="event-note"
          name="note"
          rows={3}
          maxLength={EVENT_NOTE_MAX}
          defaultValue={values?.note ?? ""}
          aria-invalid={errors.note ? true : undefined}
          aria-describedby={describedBy("note", "event-note-hint")}
          className={boxClass("note")}
        />
        <ErrorList id="event-note-error" errors={errors.note} />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className="btn-primary">
          {editId ? "Save event" : "Add event"}
        </button>
        {editId ? (
          <Link to="." className="link text-sm">
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Events · Everlight" }, { name: "robots", content: "noindex" }];
