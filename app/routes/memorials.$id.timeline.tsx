import { EntryActions, EntryForm, EntryFormSection, EntrySelect } from "~/components/memorial/entry-list-editor";
import { MemorialSubpageLinks } from "~/components/memorial/memorial-subpage-links";
import type { Route } from "./+types/memorials.$id.timeline";
import { ErrorList, Field } from "~/components/forms";
import { imageSources } from "~/models/memorials/media.server";
import { addTimelineEvent, listTimeline, removeTimelineEvent, updateTimelineEvent } from "~/models/memorials/timeline.server";
import { actorOf } from "~/request/auth.server";
import { memorialEntryAction, requireMemorialEditor } from "./memorial-entries.server";
import {
  formatTimelineDate,
  MONTH_NAMES,
  parseTimelineForm,
  TIMELINE_DESCRIPTION_MAX,
  TIMELINE_KIND_LABELS,
  TIMELINE_KINDS,
  TIMELINE_MAX_EVENTS,
  TIMELINE_MESSAGES,
  TIMELINE_TITLE_MAX,
  timelineDateTime,
  type TimelineErrors,
  type TimelineFormValues,
  type TimelineKind,
} from "~/utils/timeline";
import type { KeptPageHandle } from "~/utils/kept-pages";

// The life timeline's edit page (docs/decisions/024-life-timeline.md): the owner and
// co-managers add, edit (?edit=<event id>) and remove dated events with plain forms; the photo is chosen
// from the memorial's own photos. Anyone else: 404. The events show on the memorial page.

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request, params }: Route.LoaderArgs) {
  const { memorial } = await requireMemorialEditor(request, params.id);
  const events = await listTimeline(memorial.id);
  const editId = new URL(request.url).searchParams.get("edit");
  const editing = editId ? events.find((e) => e.id === editId) : undefined;
  let n = 0;
  return {
    memorialId: memorial.id,
    name: `${memorial.firstName} ${memorial.lastName}`,
    full: events.length >= TIMELINE_MAX_EVENTS,
    events: events.map((e) => ({
      id: e.id,
      kind: TIMELINE_KIND_LABELS[e.kind as TimelineKind] ?? e.kind,
      date: formatTimelineDate(e),
      dateTime: timelineDateTime(e),
      title: e.title,
    })),
    photos: memorial.media
      .filter((m) => m.mediaType.startsWith("image/"))
      .map((m) => ({ id: m.id, label: m.caption || `Photo ${++n}`, src: imageSources(m.mediaUrl).src })),
    editing: editing
      ? {
          id: editing.id,
          values: {
            kind: editing.kind,
            year: String(editing.year),
            month: editing.month ? String(editing.month) : "",
            day: editing.day ? String(editing.day) : "",
            title: editing.title,
            description: editing.description ?? "",
            photoId: editing.photoId ?? "",
          } satisfies TimelineFormValues,
        }
      : null,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user, memorial } = await requireMemorialEditor(request, params.id);
  const actor = actorOf(user, request);
  return memorialEntryAction(request, {
    here: `/memorials/${memorial.id}/timeline`,
    messages: TIMELINE_MESSAGES,
    parse: (form) => parseTimelineForm(form),
    add: (input) => addTimelineEvent(memorial.id, actor, input),
    update: (eventId, input) => updateTimelineEvent(memorial.id, eventId, actor, input),
    remove: (eventId) => removeTimelineEvent(memorial.id, eventId, actor),
    refusal: (reason): TimelineErrors => (reason === "photo" ? { photoId: [TIMELINE_MESSAGES.photoInvalid] } : { title: [TIMELINE_MESSAGES.full] }),
    showSaved: true,
  });
}

export default function MemorialTimeline({ loaderData, actionData }: Route.ComponentProps) {
  const { memorialId, name, events, photos, editing, full } = loaderData;
  const failure = actionData?.failure;
  const editId = failure ? failure.eventId : (editing?.id ?? null);
  const values = failure?.values ?? editing?.values ?? null;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">Life timeline</h1>
      <p className="mt-2 text-stone-700 wrap-anywhere">
        The dated moments of {name}&apos;s life, shown on the memorial page in date order. If you know only the year, or the month and year, that is enough.
      </p>
      <MemorialSubpageLinks memorialId={memorialId} />

      <section aria-labelledby="events-heading" className="mt-8">
        <h2 id="events-heading" className="text-xl font-semibold text-stone-900">
          Events ({events.length})
        </h2>
        {events.length ? (
          <ol className="mt-3 divide-y divide-stone-200 rounded-lg border border-stone-200">
            {events.map((e) => (
              <li key={e.id} id={`event-${e.id}`} className="space-y-2 p-4">
                <p className="text-sm text-stone-700">
                  <time dateTime={e.dateTime}>{e.date}</time> · {e.kind}
                </p>
                <p className="font-medium text-stone-900 wrap-anywhere">{e.title}</p>
                <EntryActions entryId={e.id} title={e.title} formId="timeline-form" removeLabel="Remove" />
              </li>
            ))}
          </ol>
        ) : (
          <p className="mt-3 text-stone-700">No events yet. Add the first below: a birth, a school, a wedding, a move.</p>
        )}
      </section>

      <EntryFormSection id="timeline-form" editId={editId} full={full} fullMessage={TIMELINE_MESSAGES.full}>
        <EventForm key={`${editId ?? "new"}-${events.length}`} editId={editId} values={values} errors={failure?.errors ?? {}} photos={photos} />
      </EntryFormSection>
    </div>
  );
}

function EventForm({
  editId,
  values,
  errors,
  photos,
}: {
  editId: string | null;
  values: TimelineFormValues | null;
  errors: TimelineErrors;
  photos: { id: string; label: string; src: string }[];
}) {
  const describedBy = (field: keyof TimelineErrors, hint?: string) =>
    [errors[field]?.length ? `timeline-${field}-error` : null, hint].filter(Boolean).join(" ") || undefined;
  return (
    <EntryForm editId={editId}>
      <EntrySelect id="timeline-kind" name="kind" label="Kind of event" defaultValue={values?.kind ?? "other"} errors={errors.kind}>
        {TIMELINE_KINDS.map((k) => (
          <option key={k} value={k}>
            {TIMELINE_KIND_LABELS[k]}
          </option>
        ))}
      </EntrySelect>
      <fieldset>
        <legend className="text-sm font-medium text-stone-800">When</legend>
        <p id="timeline-date-hint" className="text-sm text-stone-600">
          The year is enough; add the month and the day if you know them.
        </p>
        <div className="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Field
            label="Year"
            errors={errors.year}
            inputProps={{
              id: "timeline-year",
              name: "year",
              inputMode: "numeric",
              autoComplete: "off",
              required: true,
              defaultValue: values?.year ?? "",
              maxLength: 4,
            }}
          />
          <EntrySelect id="timeline-month" name="month" label="Month (optional)" defaultValue={values?.month ?? ""} errors={errors.month}>
            <option value="">Not known</option>
            {MONTH_NAMES.map((m, i) => (
              <option key={m} value={String(i + 1)}>
                {m}
              </option>
            ))}
          </EntrySelect>
          <Field
            label="Day (optional)"
            errors={errors.day}
            inputProps={{ id: "timeline-day", name: "day", inputMode: "numeric", autoComplete: "off", defaultValue: values?.day ?? "", maxLength: 2 }}
          />
        </div>
      </fieldset>
      <Field
        label="Title"
        errors={errors.title}
        hint={`For example “Married Peter in Leeds”. Up to ${TIMELINE_TITLE_MAX} characters.`}
        inputProps={{ id: "timeline-title", name: "title", required: true, defaultValue: values?.title ?? "", maxLength: TIMELINE_TITLE_MAX }}
      />
      <div>
        <label htmlFor="timeline-description" className="block text-sm font-medium text-stone-800">
          A few words (optional)
        </label>
        <textarea
          id="timeline-description"
          name="description"
          rows={3}
          maxLength={TIMELINE_DESCRIPTION_MAX}
          defaultValue={values?.description ?? ""}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={describedBy("description")}
          className={`mt-1 block w-full rounded-md border px-3 py-2 text-stone-900 shadow-sm ${errors.description ? "border-red-600" : "border-stone-400"}`}
        />
        <ErrorList id="timeline-description-error" errors={errors.description} />
      </div>
      {photos.length ? (
        <fieldset aria-describedby={describedBy("photoId")}>
          <legend className="text-sm font-medium text-stone-800">Photo (optional, from this memorial&apos;s photos)</legend>
          <ul className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-4">
            <li className="flex items-center gap-2">
              <input type="radio" id="timeline-photo-none" name="photoId" value="" defaultChecked={!values?.photoId} className="h-4 w-4 accent-heather-700" />
              <label htmlFor="timeline-photo-none" className="text-sm text-stone-900">
                No photo
              </label>
            </li>
            {photos.map((p) => (
              <li key={p.id} className="flex items-center gap-2">
                <input
                  type="radio"
                  id={`timeline-photo-${p.id}`}
                  name="photoId"
                  value={p.id}
                  defaultChecked={values?.photoId === p.id}
                  className="h-4 w-4 shrink-0 accent-heather-700"
                />
                <label htmlFor={`timeline-photo-${p.id}`} className="flex min-w-0 flex-col text-sm text-stone-900">
                  <img src={p.src} alt="" width={64} height={64} loading="lazy" className="h-16 w-16 rounded object-cover" />
                  <span className="truncate">{p.label}</span>
                </label>
              </li>
            ))}
          </ul>
          <ErrorList id="timeline-photoId-error" errors={errors.photoId} />
        </fieldset>
      ) : (
        <div>
          <input type="hidden" name="photoId" value="" />
          <p className="text-sm text-stone-700">To show a photo with an event, first add photos to the memorial on its edit page.</p>
          <ErrorList id="timeline-photoId-error" errors={errors.photoId} />
        </div>
      )}
    </EntryForm>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Life timeline · Everlight" }, { name: "robots", content: "noindex" }];
