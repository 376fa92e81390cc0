import { formatLongDate } from "./dates";
import type { CalendarDate, CalendarEvent } from "./icalendar";

// Anniversaries in the calendar (docs/decisions/022-anniversary-calendar.md): what the
// feed's events and the memorial page's "Remember the dates" block say, in one place, and the yearly
// events made from a memorial's dates.

export const ANNIVERSARY_MESSAGES = {
  heading: "Remember the dates",
  /** What the calendar holds, for a memorial with a birthday, a date of passing, or both. */
  intro: (firstName: string, dates: { birthday: boolean; passing: boolean }) => {
    const what =
      dates.birthday && dates.passing
        ? `${firstName}'s birthday and the anniversary of their passing`
        : dates.birthday
          ? `${firstName}'s birthday`
          : `the anniversary of ${firstName}'s passing`;
    return `Keep ${what} in your calendar, every year.`;
  },
  subscribe: "Add to my calendar",
  download: "Download the dates (.ics)",
  addressLabel: "Calendar address",
  addressHint: "For Google Calendar and others that ask for an address: add a calendar “From URL” and paste this.",
  privateNotice: (name: string) =>
    `This memorial is not public, so its calendar has a private link. Anyone who has this link can see ${name}'s birthday and date of passing, without signing in. Share it only with people you trust.`,
  privateOnlyYou: "Only the owner and the people who help manage this memorial see this link here.",
  notFound: "Not found",
} as const;

/** The feed's name in a subscriber's calendar list. */
export function calendarName(name: string) {
  return `Remembering ${name}`;
}

export function birthdaySummary(name: string, year: number) {
  return `Birthday of ${name} (born ${year})`;
}

export function passingSummary(name: string, year: number) {
  return `Remembering ${name} (passed away ${year})`;
}

/** The download's file name: `ada-lovelace-anniversaries.ics` (letters and digits only, never empty). */
export function calendarFileName(name: string) {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return `${slug || "memorial"}-anniversaries.ics`;
}

/**
 * The recurrence of a yearly all-day date. A date on 29 February would, by RFC 5545 §3.3.10, happen only in
 * leap years (a rule may not make 29 February 2025, so that year is skipped), and some clients move it to
 * 1 March instead: "the last day of February" is 28 February or 29 February, every year, in every client
 * (decision 022).
 */
export function yearlyRule(date: CalendarDate) {
  return date.slice(5) === "02-29" ? "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1" : "FREQ=YEARLY";
}

export type AnniversarySubject = {
  id: string;
  firstName: string;
  lastName: string;
  dateOfBirth: CalendarDate | null;
  dateOfPassing: CalendarDate | null;
  updatedAt: Date;
};

export type AnniversaryKind = "birthday" | "passing";

/** A UID that never changes for this memorial and this kind of date (decision 022). */
export function anniversaryUid(memorialId: string, kind: AnniversaryKind, domain: string) {
  return `memorial-${memorialId}-${kind}@${domain}`;
}

/**
 * The birthday and the anniversary of passing as yearly all-day events (none for a date not given).
 * `memorialUrl` is the memorial's page; `domain` makes the UIDs globally unique (the site's host).
 */
export function anniversaryEvents(memorial: AnniversarySubject, memorialUrl: string, domain: string): CalendarEvent[] {
  const name = `${memorial.firstName} ${memorial.lastName}`.trim();
  const visit = `Visit ${memorial.firstName}'s memorial to share a memory or leave a tribute: ${memorialUrl}`;
  const events: CalendarEvent[] = [];
  const yearlyEvent = (kind: AnniversaryKind, date: CalendarDate, summary: string, said: string): CalendarEvent => ({
    uid: anniversaryUid(memorial.id, kind, domain),
    stamp: memorial.updatedAt,
    start: { date },
    rrule: yearlyRule(date),
    summary,
    description: `${said}\n\n${visit}`,
    url: memorialUrl,
    transparent: true,
  });
  if (memorial.dateOfBirth) {
    const year = Number(memorial.dateOfBirth.slice(0, 4));
    events.push(yearlyEvent("birthday", memorial.dateOfBirth, birthdaySummary(name, year), `${name} was born on ${formatLongDate(memorial.dateOfBirth)}.`));
  }
  if (memorial.dateOfPassing) {
    const year = Number(memorial.dateOfPassing.slice(0, 4));
    events.push(
      yearlyEvent("passing", memorial.dateOfPassing, passingSummary(name, year), `${name} passed away on ${formatLongDate(memorial.dateOfPassing)}.`),
    );
  }
  return events;
}

// ------------------------------------------------------------------------------------------------
// Anniversary reminders (docs/decisions/025-anniversary-reminders.md): the days are UTC
// calendar days, written YYYY-MM-DD.

/** A week before, or on the day. */
export type ReminderOccasion = "week-before" | "on-the-day";
/** The "week before" reminder goes this many days ahead. */
export const REMINDER_DAYS_AHEAD = 7;
/** A day's reminders go from this hour (UTC), not in the night. */
export const REMINDER_HOUR_UTC = 7;
/** After downtime, the job looks back at most this many missed days. */
export const REMINDER_CATCH_UP_DAYS = 7;

/** The day `n` days after `day` (before, for a negative `n`). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The day whose reminders are due at `now`: today from REMINDER_HOUR_UTC, yesterday before it. */
export function reminderDayAt(now: Date): string {
  return new Date(now.getTime() - REMINDER_HOUR_UTC * 3_600_000).toISOString().slice(0, 10);
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/**
 * The month-days (MM-DD) remembered on `day`: its own, and on 28 February of a common year also 29
 * February (a leap-day birth is remembered on the last day of February, decision 022).
 */
export function monthDaysRememberedOn(day: string): string[] {
  const monthDay = day.slice(5);
  return monthDay === "02-28" && !isLeapYear(Number(day.slice(0, 4))) ? ["02-28", "02-29"] : [monthDay];
}

/** Whether a date's anniversary is remembered on `day` (a later day, in a later year or the same one). */
export function isRememberedOn(date: string, day: string): boolean {
  return date < day && monthDaysRememberedOn(day).includes(date.slice(5));
}

/** How many years `day` is after `date` (the age they would be, or the years since their passing). */
export function yearsBetween(date: string, day: string): number {
  return Number(day.slice(0, 4)) - Number(date.slice(0, 4));
}
