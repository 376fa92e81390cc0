import { z } from "~/utils/validation/zod";
import { EARLIEST_YEAR } from "./validation/text-rules";
import { fieldErrors, readFormFields, type ParsedForm } from "./form-fields";
import { text } from "./validation/text";

// A life timeline (docs/decisions/024-life-timeline.md): the kinds of event, what the pages
// say, the form's rules and how a date known to the year, the month or the day is written. Pure values,
// shared by the timeline page, the memorial page, the models and the export.

export const TIMELINE_KINDS = ["born", "school", "marriage", "work", "move", "child", "retirement", "other"] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const TIMELINE_KIND_LABELS: Record<TimelineKind, string> = {
  born: "Born",
  school: "School and studies",
  marriage: "Marriage or partnership",
  work: "Work",
  move: "A move",
  child: "A child",
  retirement: "Retirement",
  other: "Other",
};

/** At most this many events on one memorial: the page shows them all. */
export const TIMELINE_MAX_EVENTS = 200;
export const TIMELINE_TITLE_MAX = 120;
export const TIMELINE_DESCRIPTION_MAX = 1000;

export const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

export const TIMELINE_MESSAGES = {
  kindRequired: "Choose what kind of event this is",
  yearRequired: "Enter the year",
  yearRange: (latest: number) => `Enter a year from ${EARLIEST_YEAR} to ${latest}`,
  monthInvalid: "Choose a month from the list",
  dayNeedsMonth: "Choose the month too, or leave the day empty",
  dayInvalid: "Enter a day that exists in that month",
  titleRequired: "Enter a title for this event",
  titleTooLong: `Keep the title to ${TIMELINE_TITLE_MAX} characters`,
  descriptionTooLong: `Keep the description to ${TIMELINE_DESCRIPTION_MAX.toLocaleString("en-GB")} characters`,
  photoInvalid: "Choose one of this memorial's photos, or no photo",
  full: `A timeline holds up to ${TIMELINE_MAX_EVENTS} events. Remove one to add another.`,
  gone: "This event is no longer on the timeline.",
  added: "Event added to the timeline",
  saved: "Event saved",
  removed: "Event removed from the timeline",
} as const;

export type TimelineField = "kind" | "year" | "month" | "day" | "title" | "description" | "photoId";
const TIMELINE_FIELDS: TimelineField[] = ["kind", "year", "month", "day", "title", "description", "photoId"];
export type TimelineFormValues = Record<TimelineField, string>;
export type TimelineErrors = Partial<Record<TimelineField, string[]>>;

/** What every form of a timeline event holds (the page, the export, the form's input): the date has year precision at least. */
export type TimelineEventFields = {
  kind: string;
  year: number;
  month: number | null;
  day: number | null;
  title: string;
  description: string | null;
};

export type TimelineInput = TimelineEventFields & { kind: TimelineKind; photoId: string | null };

const optionalNumber = (message: string) =>
  text()
    .trim()
    .transform((v, ctx) => {
      if (v === "") return null;
      if (!/^\d{1,4}$/.test(v)) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return Number(v);
    });

function daysIn(year: number, month: number) {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The form's rules; the latest year is the current one (no events in the future). */
export function timelineSchema(latestYear = new Date().getUTCFullYear()) {
  const yearMessage = TIMELINE_MESSAGES.yearRange(latestYear);
  return z
    .object({
      kind: z.enum(TIMELINE_KINDS, { error: TIMELINE_MESSAGES.kindRequired }),
      year: optionalNumber(yearMessage).pipe(
        z
          .number({ error: TIMELINE_MESSAGES.yearRequired })
          .min(EARLIEST_YEAR, yearMessage)
          .max(latestYear, yearMessage)
          .nullable()
          .refine((v) => v !== null, TIMELINE_MESSAGES.yearRequired),
      ),
      month: optionalNumber(TIMELINE_MESSAGES.monthInvalid).pipe(
        z.number().min(1, TIMELINE_MESSAGES.monthInvalid).max(12, TIMELINE_MESSAGES.monthInvalid).nullable(),
      ),
      day: optionalNumber(TIMELINE_MESSAGES.dayInvalid).pipe(z.number().min(1, TIMELINE_MESSAGES.dayInvalid).max(31, TIMELINE_MESSAGES.dayInvalid).nullable()),
      title: text({ error: TIMELINE_MESSAGES.titleRequired })
        .trim()
        .min(1, TIMELINE_MESSAGES.titleRequired)
        .max(TIMELINE_TITLE_MAX, TIMELINE_MESSAGES.titleTooLong),
      description: text()
        .trim()
        .max(TIMELINE_DESCRIPTION_MAX, TIMELINE_MESSAGES.descriptionTooLong)
        .transform((v) => v || null),
      photoId: text()
        .trim()
        .max(64, TIMELINE_MESSAGES.photoInvalid)
        .transform((v) => v || null),
    })
    .superRefine((v, ctx) => {
      if (v.day === null || v.year === null) return;
      if (v.month === null) ctx.addIssue({ code: "custom", path: ["day"], message: TIMELINE_MESSAGES.dayNeedsMonth });
      else if (v.day > daysIn(v.year, v.month)) ctx.addIssue({ code: "custom", path: ["day"], message: TIMELINE_MESSAGES.dayInvalid });
    });
}

/** Reads the form: the input, or each field's errors with what was typed kept. */
export function parseTimelineForm(form: FormData, latestYear?: number): ParsedForm<TimelineInput, TimelineFormValues, TimelineErrors> {
  const values = readFormFields(form, TIMELINE_FIELDS, 2000);
  const parsed = timelineSchema(latestYear).safeParse(values);
  if (parsed.success) return { ok: true, input: { ...parsed.data, year: parsed.data.year! }, values };
  return { ok: false, errors: fieldErrors<TimelineField>(parsed.error.issues), values };
}

export type TimelineDate = { year: number; month: number | null; day: number | null };

/** "1950", "March 1950" or "March 3, 1950" (the memorial page's date style). */
export function formatTimelineDate(d: TimelineDate): string {
  if (d.month === null) return String(d.year);
  if (d.day === null) return `${MONTH_NAMES[d.month - 1]} ${d.year}`;
  return `${MONTH_NAMES[d.month - 1]} ${d.day}, ${d.year}`;
}

/** The <time datetime> value: "1950", "1950-03" or "1950-03-03" (HTML's year, month and date strings). */
export function timelineDateTime(d: TimelineDate): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  if (d.month === null) return pad(d.year, 4);
  if (d.day === null) return `${pad(d.year, 4)}-${pad(d.month)}`;
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

/** How precisely the date is known. */
export function timelinePrecision(d: TimelineDate): "year" | "month" | "day" {
  return d.month === null ? "year" : d.day === null ? "month" : "day";
}
