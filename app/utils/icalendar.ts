// An iCalendar (RFC 5545) writer: just what Everlight's calendar feeds need
// (docs/decisions/022-anniversary-calendar.md), written out rather than taken from a library so that every
// line is ours to test. Lines end in CRLF and are folded at 75 octets without splitting a UTF-8
// character; TEXT values escape backslashes, semicolons, commas and newlines.

/** A calendar date, YYYY-MM-DD. */
export type CalendarDate = string;

/**
 * When an event starts: an all-day date (VALUE=DATE, the same day wherever the reader lives: no time
 * zone can move a birthday), or an instant written in UTC (for timed events such as a funeral, whose
 * readers each see it in their own zone).
 */
export type EventStart = { date: CalendarDate } | { at: Date };

export type CalendarEvent = {
  /** Stable across requests: a calendar recognises an event it already has by its UID. */
  uid: string;
  /** When the event's information last changed (as no METHOD is given). */
  stamp: Date;
  start: EventStart;
  /** An all-day event lasts one day unless `end` says otherwise; a timed event needs an end. */
  end?: EventStart;
  /** The recurrence rule's value, e.g. "FREQ=YEARLY". */
  rrule?: string;
  summary: string;
  description?: string;
  url?: string;
  location?: string;
  /** Shown as free time: an anniversary does not block the day. */
  transparent?: boolean;
};

export type Calendar = {
  /** PRODID, e.g. "-//Everlight//Anniversaries//EN". */
  productId: string;
  /** The name a subscribing calendar shows (RFC 7986 NAME, and X-WR-CALNAME for the clients that read only that). */
  name: string;
  description?: string;
  /** How often a subscriber should ask again, as an ISO duration (RFC 7986 REFRESH-INTERVAL), e.g. "P1D". */
  refreshInterval?: string;
  events: CalendarEvent[];
};

const CRLF = "\r\n";
const MAX_OCTETS = 75;

/** A TEXT value: backslash, semicolon, comma and newlines escaped; other control characters dropped. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\r\n?/g, "\n")
      // TEXT allows no control characters but HTAB (§3.3.11 TSAFE-CHAR).
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
      .replace(/[\\;,]/g, (c) => `\\${c}`)
      .replace(/\n/g, "\\n")
  );
}

/**
 * One content line folded into lines of at most 75 octets: each continuation starts with a
 * space, which counts toward its 75. A multi-byte character is never split across lines.
 */
export function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const lines: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > MAX_OCTETS) {
      lines.push(current);
      current = " ";
      octets = 1;
    }
    current += char;
    octets += size;
  }
  lines.push(current);
  return lines.join(CRLF);
}

/** YYYYMMDD from a calendar date, after checking it is one. */
function dateValue(date: CalendarDate): string {
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(date) ? new Date(`${date}T00:00:00Z`) : null;
  // A day that does not exist (30 February) either fails to parse or comes back as another day.
  if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) throw new Error(`Not a calendar date: ${date}`);
  return date.replace(/-/g, "");
}

/** A UTC DATE-TIME (form #2), to the second. */
function utcValue(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
}

/** The day after a calendar date (the exclusive end of an all-day event). */
export function nextDay(date: CalendarDate): CalendarDate {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function timeProperty(name: "DTSTART" | "DTEND", value: EventStart): string {
  return "date" in value ? `${name};VALUE=DATE:${dateValue(value.date)}` : `${name}:${utcValue(value.at)}`;
}

function eventLines(event: CalendarEvent): string[] {
  const end = event.end ?? ("date" in event.start ? { date: nextDay(event.start.date) } : undefined);
  if (!end) throw new Error(`A timed event needs an end: ${event.uid}`);
  return [
    "BEGIN:VEVENT",
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${utcValue(event.stamp)}`,
    timeProperty("DTSTART", event.start),
    timeProperty("DTEND", end),
    ...(event.rrule ? [`RRULE:${event.rrule}`] : []),
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    // A URI value is not TEXT: it is written as it is, never backslash-escaped.
    ...(event.url ? [`URL:${event.url}`] : []),
    ...(event.transparent ? ["TRANSP:TRANSPARENT"] : []),
    "END:VEVENT",
  ];
}

/** The whole iCalendar object: CRLF line endings, every line folded, ending with a CRLF. */
export function writeCalendar(calendar: Calendar): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:${escapeText(calendar.productId)}`,
    "CALSCALE:GREGORIAN",
    `NAME:${escapeText(calendar.name)}`,
    `X-WR-CALNAME:${escapeText(calendar.name)}`,
    ...(calendar.description ? [`DESCRIPTION:${escapeText(calendar.description)}`, `X-WR-CALDESC:${escapeText(calendar.description)}`] : []),
    ...(calendar.refreshInterval ? [`REFRESH-INTERVAL;VALUE=DURATION:${calendar.refreshInterval}`, `X-PUBLISHED-TTL:${calendar.refreshInterval}`] : []),
    ...calendar.events.flatMap(eventLines),
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}

/** What a calendar source is given about the memorial. */
export type CalendarMemorial = {
  id: string;
  firstName: string;
  lastName: string;
  dateOfBirth: Date | null;
  dateOfPassing: Date | null;
  updatedAt: Date;
};

/** The site's facts a source needs to write its events. */
export type CalendarSite = {
  /** The memorial's page, for the events' links. */
  memorialUrl: string;
};

/** One kind of event in a memorial's calendar. */
export type CalendarSource = (memorial: CalendarMemorial, site: CalendarSite) => CalendarEvent[] | Promise<CalendarEvent[]>;
