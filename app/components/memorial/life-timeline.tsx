import { Link } from "react-router";
import { PhotoLink } from "./photo-link";
import { formatTimelineDate, TIMELINE_KIND_LABELS, timelineDateTime, type TimelineEventFields, type TimelineKind } from "~/utils/timeline";

export type LifeTimelineEvent = TimelineEventFields & {
  id: string;
  photo: { src: string; srcSet?: string; full: string; caption: string | null } | null;
};

// The life timeline on the memorial page: an ordered list in date order, one column with
// a line down the left so it reads on a 390 px phone; each date is a <time> (year, month or day precision).
// Plain HTML: nothing here needs JavaScript.
export function LifeTimeline({ events, name, editHref }: { events: LifeTimelineEvent[]; name: string; editHref?: string }) {
  return (
    <section aria-labelledby="timeline-heading" className="render-when-near mt-10">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="timeline-heading" className="text-2xl font-semibold text-stone-900">
          Life timeline
        </h2>
        {editHref ? (
          <Link to={editHref} className="link text-sm">
            {events.length ? "Edit the timeline" : "Add events to the timeline"}
          </Link>
        ) : null}
      </div>
      {events.length ? (
        <ol className="mt-4 border-l-2 border-heather-200 pl-5">
          {events.map((e) => (
            <li key={e.id} className="relative pb-6 last:pb-0">
              <span aria-hidden="true" className="absolute top-1.5 -left-[1.7rem] h-3 w-3 rounded-full border-2 border-white bg-heather-700" />
              <p className="text-sm font-semibold text-heather-800">
                <time dateTime={timelineDateTime(e)}>{formatTimelineDate(e)}</time>
                <span className="font-normal text-stone-700"> · {TIMELINE_KIND_LABELS[e.kind as TimelineKind] ?? e.kind}</span>
              </p>
              <h3 className="mt-1 font-semibold text-stone-900 wrap-anywhere">{e.title}</h3>
              {e.description ? <p className="mt-1 whitespace-pre-line text-stone-800 wrap-anywhere">{e.description}</p> : null}
              {e.photo ? (
                <PhotoLink
                  photo={e.photo}
                  alt={e.photo.caption || `Photo for “${e.title}”, from the life of ${name}`}
                  sizes="160px"
                  width={160}
                  height={120}
                  className="mt-2 block w-40 max-w-full overflow-hidden rounded-lg bg-stone-100"
                />
              ) : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="mt-3 text-stone-700">No events yet.</p>
      )}
    </section>
  );
}
