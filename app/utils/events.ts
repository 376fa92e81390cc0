import { z } from "~/utils/validation/zod";
import { fieldErrors, readFormFields, type ParsedForm } from "./form-fields";
import { text } from "./validation/text";

// A memorial's events (docs/decisions/026-memorial-events.md): the kinds, what the pages and
// emails say, the forms' rules, and local date-and-time in an IANA time zone turned into instants and back.
// Pure values, shared by the family's pages, the memorial page, the models, the emails and the calendar.

export const EVENT_KINDS = ["funeral", "service", "celebration", "scattering", "anniversary"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const EVENT_KIND_LABELS: Record<EventKind, string> = {
  funeral: "Funeral",
  service: "Memorial service",
  celebration: "Celebration of life",
  scattering: "Scattering of ashes",
  anniversary: "Anniversary gathering",
};

export const EVENT_TITLE_MAX = 120;
export const EVENT_PLACE_MAX = 120;
export const EVENT_ADDRESS_MAX = 300;
export const EVENT_URL_MAX = 500;
export const EVENT_NOTE_MAX = 1000;
export const EVENT_MAX_PER_MEMORIAL = 50;
export const RSVP_NAME_MAX = 100;
export const RSVP_MESSAGE_MAX = 500;
export const RSVP_PARTY_MAX = 20;
export const EVENT_MAIL_SUBJECT_MAX = 150;
export const EVENT_MAIL_MESSAGE_MAX = 3000;
/** An event with no end time is taken to last this long: in the calendar, and before it moves to "Past events". */
export const EVENT_DEFAULT_DURATION_MS = 2 * 3600_000;
export const DEFAULT_TIME_ZONE = "Europe/London";

export const EVENT_MESSAGES = {
  kindRequired: "Choose what kind of event this is",
  titleRequired: "Enter a title, for example “Funeral of Ada Line”",
  titleTooLong: `Keep the title to ${EVENT_TITLE_MAX} characters`,
  dateRequired: "Enter the date",
  dateInvalid: "Enter a real date, for example 2027-03-28",
  timeRequired: "Enter the start time",
  timeInvalid: "Enter a time like 14:30",
  endInvalid: "Enter an end time like 16:00, or leave it empty",
  endBeforeStart: "The end time must be after the start time, on the same day",
  timeZoneInvalid: "Choose a time zone from the list",
  timeGap: "That time does not exist on that day in this time zone (the clocks go forward). Choose another time.",
  placeRequired: "Enter the place, for example “St Mary’s Church”",
  placeTooLong: `Keep the place to ${EVENT_PLACE_MAX} characters`,
  addressTooLong: `Keep the address to ${EVENT_ADDRESS_MAX} characters`,
  livestreamInvalid: "Enter a full https:// link, for example https://youtube.com/live/…",
  noteTooLong: `Keep the note to ${EVENT_NOTE_MAX.toLocaleString("en-GB")} characters`,
  full: `A memorial holds up to ${EVENT_MAX_PER_MEMORIAL} events. Delete one to add another.`,
  gone: "This event is no longer on the memorial.",
  added: "Event added",
  saved: "Event saved",
  removed: "Event deleted",
  // Answers (RSVP)
  nameRequired: "Enter your name",
  nameTooLong: `Keep your name to ${RSVP_NAME_MAX} characters`,
  emailRequired: "Enter your email address",
  emailInvalid: "Enter an email address like name@example.com",
  partyInvalid: `Enter how many of you are coming, from 1 to ${RSVP_PARTY_MAX}`,
  messageTooLong: `Keep the message to ${RSVP_MESSAGE_MAX} characters`,
  rsvpPast: "This event has already taken place, so it no longer takes replies.",
  rsvpThanks: "Thank you for letting the family know",
  rsvpThanksDetail: "We have emailed you a copy of your reply. Reply again with the same email address to change it.",
  rsvpRateLimited: "Too many replies from this email address or network.",
  rsvpCheckEmail: "Check your email to confirm your reply",
  rsvpCheckEmailDetail: (email: string) =>
    `We sent a link to ${email}. The family counts your reply once you open it and confirm, so that nobody can answer in someone else's name.`,
  replyConfirmed: "Your reply is confirmed",
  replyConfirmedDetail: "The family can see it now, and we have emailed you a copy.",
  replyNothingToConfirm: "There was nothing left to confirm: your reply is as shown.",
  updatesStopped: "No more emails about this event",
  updatesStoppedDetail: "The family's updates about this event will not be sent to you any more. Your reply still counts.",
  replyLinkBroken: "This link does not work: it may have been cut short. Reply again on the memorial page to get a new one.",
  // Emailing attendees
  subjectRequired: "Enter a subject",
  subjectTooLong: `Keep the subject to ${EVENT_MAIL_SUBJECT_MAX} characters`,
  bodyRequired: "Enter your message",
  bodyTooLong: `Keep the message to ${EVENT_MAIL_MESSAGE_MAX.toLocaleString("en-GB")} characters`,
  nobodyToEmail: "Nobody has replied to this event yet, so there is nobody to email.",
  mailRateLimited: "Too many updates were sent from your account.",
  mailed: (n: number) => `Your update is on its way to ${n} ${n === 1 ? "person" : "people"}`,
} as const;

// ------------------------------------------------------------------------------------------------
// Time zones and local times.

/** Whether the runtime knows this IANA time zone. */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The IANA zones offered in the form (UTC included). */
export function timeZoneChoices(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [DEFAULT_TIME_ZONE];
  return zones.includes("UTC") ? zones : ["UTC", ...zones];
}

/** The wall-clock reading of an instant in a zone, as if it were UTC (ms). */
function wallClockMs(at: number, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(at));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
}

/**
 * The instant a local date and time stands for in a zone, or null when the clocks skip it (a spring-forward
 * gap). A time that happens twice (the autumn change) is taken the first time.
 */
export function zonedToInstant(date: string, time: string, zone: string): Date | null {
  const wall = Date.parse(`${date}T${time}:00Z`);
  if (Number.isNaN(wall)) return null;
  // The offsets either side of the moment: try each, keep the ones that read back as the wall clock.
  const offsets = [-12 * 3600_000, 12 * 3600_000].map((shift) => wallClockMs(wall + shift, zone) - (wall + shift));
  const fits = [...new Set(offsets)].map((o) => wall - o).filter((at) => wallClockMs(at, zone) === wall);
  return fits.length ? new Date(Math.min(...fits)) : null;
}

/** "Saturday, December 12, 2026" in the event's own zone: the site's long date, with its weekday. */
export function formatEventDay(at: Date, zone: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone: zone, weekday: "long", day: "numeric", month: "long", year: "numeric" }).format(at);
}

/** "11:00" in the event's own zone. */
function formatClock(at: Date, zone: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(at);
}

/** The zone's abbreviation at that moment: "GMT", "BST", "CET", or "GMT+2" where there is no common one. */
export function zoneAbbreviation(at: Date, zone: string): string {
  const part = new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "short" }).formatToParts(at).find((p) => p.type === "timeZoneName");
  return part?.value ?? zone;
}

/** "Saturday, December 12, 2026, 11:00–12:30 GMT" (the end, if any, in the same zone). */
export function formatEventWhen(e: { startsAt: Date; endsAt: Date | null; timeZone: string }): string {
  const end = e.endsAt ? `–${formatClock(e.endsAt, e.timeZone)}` : "";
  return `${formatEventDay(e.startsAt, e.timeZone)}, ${formatClock(e.startsAt, e.timeZone)}${end} ${zoneAbbreviation(e.startsAt, e.timeZone)}`;
}

/** When an event is over and moves to "Past events": its end, or EVENT_DEFAULT_DURATION_MS after its start. */
export function eventOverAt(e: { startsAt: Date; endsAt: Date | null }): Date {
  return e.endsAt ?? new Date(e.startsAt.getTime() + EVENT_DEFAULT_DURATION_MS);
}

export function isPastEvent(e: { startsAt: Date; endsAt: Date | null }, now = new Date()): boolean {
  return eventOverAt(e).getTime() <= now.getTime();
}

/** An OpenStreetMap search for the address (or the place when there is no address). */
export function mapLink(e: { placeName: string; address: string | null }): string {
  return `https://www.openstreetmap.org/search?${new URLSearchParams({ query: e.address || e.placeName })}`;
}

// ------------------------------------------------------------------------------------------------
// The family's form.

export type EventField = "kind" | "title" | "date" | "startTime" | "endTime" | "timeZone" | "placeName" | "address" | "livestreamUrl" | "note";
export type EventFormValues = Record<EventField, string>;
export type EventErrors = Partial<Record<EventField, string[]>>;

export type EventInput = {
  kind: EventKind;
  title: string;
  date: string;
  startTime: string;
  endTime: string | null;
  timeZone: string;
  placeName: string;
  address: string | null;
  livestreamUrl: string | null;
  note: string | null;
  startsAt: Date;
  endsAt: Date | null;
};

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const optional = (max: number, message: string) =>
  text()
    .trim()
    .max(max, message)
    .transform((v) => v || null);

function isRealDate(v: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v && d.getUTCFullYear() >= 1900 && d.getUTCFullYear() <= 2200;
}

function isHttpsUrl(v: string) {
  try {
    const url = new URL(v);
    return url.protocol === "https:" && !!url.hostname && !url.username && !url.password;
  } catch {
    return false;
  }
}

const eventSchema = z.object({
  kind: z.enum(EVENT_KINDS, { error: EVENT_MESSAGES.kindRequired }),
  title: text({ error: EVENT_MESSAGES.titleRequired }).trim().min(1, EVENT_MESSAGES.titleRequired).max(EVENT_TITLE_MAX, EVENT_MESSAGES.titleTooLong),
  date: text({ error: EVENT_MESSAGES.dateRequired })
    .trim()
    .min(1, EVENT_MESSAGES.dateRequired)
    .refine((v) => v === "" || isRealDate(v), EVENT_MESSAGES.dateInvalid),
  startTime: text({ error: EVENT_MESSAGES.timeRequired })
    .trim()
    .min(1, EVENT_MESSAGES.timeRequired)
    .refine((v) => v === "" || TIME.test(v), EVENT_MESSAGES.timeInvalid),
  endTime: text()
    .trim()
    .refine((v) => v === "" || TIME.test(v), EVENT_MESSAGES.endInvalid)
    .transform((v) => v || null),
  timeZone: text({ error: EVENT_MESSAGES.timeZoneInvalid }).trim().refine(isTimeZone, EVENT_MESSAGES.timeZoneInvalid),
  placeName: text({ error: EVENT_MESSAGES.placeRequired }).trim().min(1, EVENT_MESSAGES.placeRequired).max(EVENT_PLACE_MAX, EVENT_MESSAGES.placeTooLong),
  address: optional(EVENT_ADDRESS_MAX, EVENT_MESSAGES.addressTooLong),
  livestreamUrl: text()
    .trim()
    .max(EVENT_URL_MAX, EVENT_MESSAGES.livestreamInvalid)
    .refine((v) => v === "" || isHttpsUrl(v), EVENT_MESSAGES.livestreamInvalid)
    .transform((v) => v || null),
  note: optional(EVENT_NOTE_MAX, EVENT_MESSAGES.noteTooLong),
});

const EVENT_FIELDS: EventField[] = ["kind", "title", "date", "startTime", "endTime", "timeZone", "placeName", "address", "livestreamUrl", "note"];

/** Reads the family's event form: the input (with its instants worked out), or each field's errors with what was typed kept. */
export function parseEventForm(form: FormData): ParsedForm<EventInput, EventFormValues, EventErrors> {
  return parseEventValues(readFormFields(form, EVENT_FIELDS, 4000));
}

export function parseEventValues(values: EventFormValues): ParsedForm<EventInput, EventFormValues, EventErrors> {
  const parsed = eventSchema.safeParse(values);
  if (!parsed.success) return { ok: false, errors: fieldErrors<EventField>(parsed.error.issues), values };
  const v = parsed.data;
  if (v.endTime !== null && v.endTime <= v.startTime) return { ok: false, errors: { endTime: [EVENT_MESSAGES.endBeforeStart] }, values };
  const startsAt = zonedToInstant(v.date, v.startTime, v.timeZone);
  if (!startsAt) return { ok: false, errors: { startTime: [EVENT_MESSAGES.timeGap] }, values };
  const endsAt = v.endTime === null ? null : zonedToInstant(v.date, v.endTime, v.timeZone);
  if (v.endTime !== null && !endsAt) return { ok: false, errors: { endTime: [EVENT_MESSAGES.timeGap] }, values };
  return { ok: true, input: { ...v, startsAt, endsAt }, values };
}

// ------------------------------------------------------------------------------------------------
// A visitor's answer, and the family's update to those who answered.

export type RsvpField = "name" | "email" | "partySize" | "message";
export type RsvpFormValues = Record<RsvpField, string>;
export type RsvpErrors = Partial<Record<RsvpField, string[]>>;

const rsvpSchema = z.object({
  name: text({ error: EVENT_MESSAGES.nameRequired }).trim().min(1, EVENT_MESSAGES.nameRequired).max(RSVP_NAME_MAX, EVENT_MESSAGES.nameTooLong),
  email: text({ error: EVENT_MESSAGES.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, EVENT_MESSAGES.emailRequired)
    .max(254, EVENT_MESSAGES.emailInvalid)
    .pipe(z.email({ error: EVENT_MESSAGES.emailInvalid })),
  partySize: text({ error: EVENT_MESSAGES.partyInvalid })
    .trim()
    .regex(/^\d{1,2}$/, EVENT_MESSAGES.partyInvalid)
    .transform(Number)
    .pipe(z.number().min(1, EVENT_MESSAGES.partyInvalid).max(RSVP_PARTY_MAX, EVENT_MESSAGES.partyInvalid)),
  message: optional(RSVP_MESSAGE_MAX, EVENT_MESSAGES.messageTooLong),
});
export type RsvpInput = z.infer<typeof rsvpSchema>;

export function parseRsvpForm(form: FormData): ParsedForm<RsvpInput, RsvpFormValues, RsvpErrors> {
  const values = readFormFields(form, ["name", "email", "partySize", "message"] as const, 4000);
  const parsed = rsvpSchema.safeParse(values);
  if (!parsed.success) return { ok: false, errors: fieldErrors<RsvpField>(parsed.error.issues), values };
  return { ok: true, input: parsed.data, values };
}

export type EventMailField = "subject" | "body";
export type EventMailValues = Record<EventMailField, string>;
export type EventMailErrors = Partial<Record<EventMailField, string[]>>;

const eventMailSchema = z.object({
  subject: text({ error: EVENT_MESSAGES.subjectRequired })
    .trim()
    .min(1, EVENT_MESSAGES.subjectRequired)
    .max(EVENT_MAIL_SUBJECT_MAX, EVENT_MESSAGES.subjectTooLong)
    // One line: a subject is a header.
    .transform((v) => v.replace(/\s+/g, " ")),
  body: text({ error: EVENT_MESSAGES.bodyRequired }).trim().min(1, EVENT_MESSAGES.bodyRequired).max(EVENT_MAIL_MESSAGE_MAX, EVENT_MESSAGES.bodyTooLong),
});
export type EventMailInput = z.infer<typeof eventMailSchema>;

export function parseEventMailForm(form: FormData): ParsedForm<EventMailInput, EventMailValues, EventMailErrors> {
  const values = readFormFields(form, ["subject", "body"] as const, 4000);
  const parsed = eventMailSchema.safeParse(values);
  if (!parsed.success) return { ok: false, errors: fieldErrors<EventMailField>(parsed.error.issues), values };
  return { ok: true, input: parsed.data, values };
}
