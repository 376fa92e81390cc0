import { formatLongDate } from "./dates";
import type { CalendarDate, CalendarEvent } from "./icalendar";

// Anniversaries in the calendar (issue 28 item 2, docs/decisions/022-anniversary-calendar.md): what the
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
