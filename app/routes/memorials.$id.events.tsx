import { Link } from "react-router";
import type { Route } from "./+types/memorials.$id.events";
import { ErrorList, Field } from "~/components/forms";
import { EntryActions, EntryForm, EntryFormSection, EntrySelect } from "~/components/memorial/entry-list-editor";
import { MemorialSubpageLinks } from "~/components/memorial/memorial-subpage-links";
import { addEvent, describeEvent, listEvents, removeEvent, updateEvent } from "~/models/memorials/events.server";
import { actorOf } from "~/request/auth.server";
import { memorialEntryAction, requireMemorialEditor } from "./memorial-entries.server";
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

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request, params }: Route.LoaderArgs) {
  const { memorial } = await requireMemorialEditor(request, params.id);
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

export async function action({ request, params }: Route.ActionArgs) {
  const { user, memorial } = await requireMemorialEditor(request, params.id);
  const actor = actorOf(user, request);
  return memorialEntryAction(request, {
    here: `/memorials/${memorial.id}/events`,
    messages: EVENT_MESSAGES,
    parse: parseEventForm,
    add: (input) => addEvent(memorial.id, actor, input),
    update: (eventId, input) => updateEvent(memorial.id, eventId, actor, input),
    remove: (eventId) => removeEvent(memorial.id, eventId, actor),
    refusal: (): EventErrors => ({ title: [EVENT_MESSAGES.full] }),
  });
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
                <EntryActions entryId={e.id} title={e.title} formId="event-form" removeLabel="Delete">
                  <Link to={`/memorials/${memorialId}/events/${e.id}`} className="btn-secondary text-sm">
                    Replies<span className="sr-only"> to {e.title}</span>
                  </Link>
                </EntryActions>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-3 text-stone-700">No events yet. Add the first below.</p>
        )}
      </section>

      <EntryFormSection id="event-form" editId={editId} full={full} fullMessage={EVENT_MESSAGES.full}>
        <EventForm key={`${editId ?? "new"}-${events.length}`} editId={editId} values={values} errors={failure?.errors ?? {}} timeZones={timeZones} />
      </EntryFormSection>
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
    <EntryForm editId={editId}>
      <EntrySelect id="event-kind" name="kind" label="Kind of event" defaultValue={values?.kind ?? "funeral"} errors={errors.kind}>
        {EVENT_KINDS.map((k) => (
          <option key={k} value={k}>
            {EVENT_KIND_LABELS[k]}
          </option>
        ))}
      </EntrySelect>
      <Field label="Title" errors={errors.title} inputProps={{ ...input("title"), required: true, maxLength: EVENT_TITLE_MAX }} />
      <fieldset>
        <legend className="text-sm font-medium text-stone-800">When</legend>
        <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Field label="Date" errors={errors.date} inputProps={{ ...input("date"), type: "date", required: true }} />
          <Field label="Starts at" errors={errors.startTime} inputProps={{ ...input("startTime"), type: "time", required: true }} />
          <Field label="Ends at (optional)" errors={errors.endTime} inputProps={{ ...input("endTime"), type: "time" }} />
        </div>
      </fieldset>
      <EntrySelect
        id="event-timeZone"
        name="timeZone"
        label="Time zone"
        hint="Where the event takes place. Visitors see the time as it is there."
        defaultValue={values?.timeZone || DEFAULT_TIME_ZONE}
        errors={errors.timeZone}
      >
        {timeZones.map((z) => (
          <option key={z} value={z}>
            {z.replace(/_/g, " ")}
          </option>
        ))}
      </EntrySelect>
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
    </EntryForm>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Events · Everlight" }, { name: "robots", content: "noindex" }];
