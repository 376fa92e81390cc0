import { data, Form, Link } from "react-router";
import { MemorialSubpageLinks } from "~/components/memorial/memorial-subpage-links";
import type { Route } from "./+types/memorials.$id.timeline";
import { ErrorList, Field } from "~/components/forms";
import { imageSources } from "~/models/memorials/media.server";
import { addTimelineEvent, listTimeline, removeTimelineEvent, updateTimelineEvent, type TimelineResult } from "~/models/memorials/timeline.server";
import { findEditableMemorial } from "~/models/memorials/access.server";
import { actorOf, requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
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

async function requireTimelineEditor(request: Request, id: string) {
  const user = await requireUser(request);
  const memorial = await findEditableMemorial(id, user.id);
  if (!memorial) throw data(null, { status: 404 });
  return { user, memorial };
}

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request, params }: Route.LoaderArgs) {
  const { memorial } = await requireTimelineEditor(request, params.id);
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

type Failure = { eventId: string | null; values: TimelineFormValues; errors: TimelineErrors };

export async function action({ request, params }: Route.ActionArgs) {
  const { user, memorial } = await requireTimelineEditor(request, params.id);
  const actor = actorOf(user, request);
  const form = await request.formData();
  const intent = form.get("intent");
  const eventId = typeof form.get("eventId") === "string" ? String(form.get("eventId")) : "";
  const here = `/memorials/${memorial.id}/timeline`;
  if (intent === "remove") {
    const result = await removeTimelineEvent(memorial.id, eventId, actor);
    if (!result.ok && result.reason === "not-found") throw data(null, { status: 404 });
    return redirectWithToast(here, result.ok ? { type: "success", title: TIMELINE_MESSAGES.removed } : { type: "error", title: TIMELINE_MESSAGES.gone });
  }
  if (intent !== "add" && intent !== "edit") throw data(null, { status: 400 });
  const parsed = parseTimelineForm(form);
  const fail = (errors: TimelineErrors) =>
    data({ failure: { eventId: intent === "edit" ? eventId : null, values: parsed.values, errors } satisfies Failure }, { status: 400 });
  if (!parsed.ok) return fail(parsed.errors);
  const result: TimelineResult =
    intent === "add" ? await addTimelineEvent(memorial.id, actor, parsed.input) : await updateTimelineEvent(memorial.id, eventId, actor, parsed.input);
  if (result.ok)
    return redirectWithToast(`${here}#event-${result.id}`, { type: "success", title: intent === "add" ? TIMELINE_MESSAGES.added : TIMELINE_MESSAGES.saved });
  if (result.reason === "not-found") throw data(null, { status: 404 });
  if (result.reason === "photo") return fail({ photoId: [TIMELINE_MESSAGES.photoInvalid] });
  if (result.reason === "full") return fail({ title: [TIMELINE_MESSAGES.full] });
  return redirectWithToast(here, { type: "error", title: TIMELINE_MESSAGES.gone });
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
                <div className="flex flex-wrap gap-2">
                  <Link to={`?edit=${e.id}#timeline-form`} className="btn-secondary text-sm">
                    Edit<span className="sr-only"> {e.title}</span>
                  </Link>
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="eventId" value={e.id} />
                    <button type="submit" className="btn-secondary text-sm text-red-800">
                      Remove<span className="sr-only"> {e.title}</span>
                    </button>
                  </Form>
                </div>
              </li>
            ))}
          </ol>
        ) : (
          <p className="mt-3 text-stone-700">No events yet. Add the first below: a birth, a school, a wedding, a move.</p>
        )}
      </section>

      <section aria-labelledby="timeline-form-heading" id="timeline-form" className="mt-10">
        <h2 id="timeline-form-heading" className="text-xl font-semibold text-stone-900">
          {editId ? "Edit an event" : "Add an event"}
        </h2>
        {full && !editId ? <p className="mt-2 text-stone-700">{TIMELINE_MESSAGES.full}</p> : null}
        <EventForm key={`${editId ?? "new"}-${events.length}`} editId={editId} values={values} errors={failure?.errors ?? {}} photos={photos} />
      </section>
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
  const selectClass = (field: keyof TimelineErrors) =>
    `mt-1 block w-full rounded-md border bg-white px-3 py-2 text-stone-900 shadow-sm ${errors[field]?.length ? "border-red-600" : "border-stone-400"}`;
  return (
    <Form method="post" noValidate className="mt-4 space-y-4">
      <input type="hidden" name="intent" value={editId ? "edit" : "add"} />
      {editId ? <input type="hidden" name="eventId" value={editId} /> : null}
      <div>
        <label htmlFor="timeline-kind" className="block text-sm font-medium text-stone-800">
          Kind of event
        </label>
        <select
          id="timeline-kind"
          name="kind"
          defaultValue={values?.kind ?? "other"}
          aria-invalid={errors.kind ? true : undefined}
          aria-describedby={describedBy("kind")}
          className={selectClass("kind")}
        >
          {TIMELINE_KINDS.map((k) => (
            <option key={k} value={k}>
              {TIMELINE_KIND_LABELS[k]}
            </option>
          ))}
        </select>
        <ErrorList id="timeline-kind-error" errors={errors.kind} />
      </div>
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
          <div>
            <label htmlFor="timeline-month" className="block text-sm font-medium text-stone-800">
              Month (optional)
            </label>
            <select
              id="timeline-month"
              name="month"
              defaultValue={values?.month ?? ""}
              aria-invalid={errors.month ? true : undefined}
              aria-describedby={describedBy("month")}
              className={selectClass("month")}
            >
              <option value="">Not known</option>
              {MONTH_NAMES.map((m, i) => (
                <option key={m} value={String(i + 1)}>
                  {m}
                </option>
              ))}
            </select>
            <ErrorList id="timeline-month-error" errors={errors.month} />
          </div>
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

export const meta: Route.MetaFunction = () => [{ title: "Life timeline · Everlight" }, { name: "robots", content: "noindex" }];
