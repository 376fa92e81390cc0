import { prisma } from "~/services/db.server";
import { etagOf } from "~/services/etag.server";
import { publicUrl } from "~/services/env.server";
import { anniversaryEvents, calendarFileName, calendarName } from "~/utils/anniversaries";
import { toIsoDate } from "~/utils/dates";
import { writeCalendar, type CalendarEvent, type CalendarMemorial, type CalendarSite, type CalendarSource } from "~/utils/icalendar";
import { calendarKeyFor, isValidCalendarKey } from "~/services/signed-links.server";
import { memorialEventsSource } from "./events.server";
import { isRecordId } from "./access.server";
import { calendarFeedAccess, calendarLinksShown, type CalendarAccess, type MemorialRole } from "./access-rules";

// A memorial's calendar feed (docs/decisions/022-anniversary-calendar.md): its birthday
// and the anniversary of its passing as yearly all-day events, for a calendar to subscribe to or a visitor
// to download. Who may read it is calendarFeedAccess (memorials/access-rules.ts): the public address for a
// published public memorial, else only the private link, whose key is signed from the memorial's id.
// A deleted memorial is not in the `memorials` view, so its feed is simply not found.

/** UIDs must be globally unique and must never change: our own name, not the address the site runs at. */
const UID_DOMAIN = "everlight.uk";

const anniversaries: CalendarSource = (memorial, site) =>
  anniversaryEvents(
    { ...memorial, dateOfBirth: toIsoDate(memorial.dateOfBirth) || null, dateOfPassing: toIsoDate(memorial.dateOfPassing) || null },
    site.memorialUrl,
    UID_DOMAIN,
  );

/**
 * Where a memorial's calendar events come from, in the order they are written: the yearly anniversaries,
 * then the memorial's own events (funeral, service, gatherings: decision 026).
 */
export const CALENDAR_SOURCES: readonly CalendarSource[] = [anniversaries, memorialEventsSource];

/** Every event of the memorial's calendar, from every source. */
export async function collectCalendarEvents(memorial: CalendarMemorial, site: CalendarSite, sources = CALENDAR_SOURCES): Promise<CalendarEvent[]> {
  return (await Promise.all(sources.map((source) => source(memorial, site)))).flat();
}

export type MemorialCalendar = {
  access: CalendarAccess;
  ics: string;
  /** A strong validator of exactly these bytes. */
  etag: string;
  /** The latest change of anything in it. */
  lastModified: Date;
  fileName: string;
};

/**
 * The memorial's calendar for a request by its public address (`key` null) or its private link, or null
 * when there is none to show: no such memorial, a draft, or a memorial that is not public without a right key
 * (never which, so a private memorial's existence is not given away).
 */
export async function readMemorialCalendar(id: string, key: string | null): Promise<MemorialCalendar | null> {
  if (!isRecordId(id)) return null;
  const memorial = await prisma().memorial.findUnique({
    where: { id },
    select: { id: true, firstName: true, lastName: true, dateOfBirth: true, dateOfPassing: true, updatedAt: true, isPublished: true, visibility: true },
  });
  if (!memorial) return null;
  const access = calendarFeedAccess(memorial, !!key && isValidCalendarKey(memorial.id, key));
  if (!access) return null;
  const name = `${memorial.firstName} ${memorial.lastName}`.trim();
  const events = await collectCalendarEvents(memorial, { memorialUrl: `${publicUrl()}/memorials/${memorial.id}` });
  const ics = writeCalendar({
    productId: "-//Everlight//Anniversaries//EN",
    name: calendarName(name),
    description: `Dates to remember ${name} by, from Everlight.`,
    refreshInterval: "P1D",
    events,
  });
  const lastModified = new Date(Math.max(memorial.updatedAt.getTime(), ...events.map((e) => e.stamp.getTime())));
  return { access, ics, etag: etagOf(ics), lastModified, fileName: calendarFileName(name) };
}

export type CalendarLinks = {
  access: CalendarAccess;
  /** The feed's https address (for calendars that ask for one, such as Google Calendar). */
  feedUrl: string;
  /** The same address as webcal:, which opens the visitor's calendar app to subscribe. */
  subscribeUrl: string;
  /** The one-off download, on this site. */
  downloadPath: string;
};

/** The feed's path on the site, with the private link's key when the memorial is not public. */
export function calendarPath(memorialId: string, access: CalendarAccess, download = false) {
  const query = new URLSearchParams();
  if (access === "private-link") query.set("key", calendarKeyFor(memorialId));
  if (download) query.set("download", "1");
  const search = query.toString();
  return `/memorials/${memorialId}/anniversaries.ics${search ? `?${search}` : ""}`;
}

/**
 * The links the memorial page's "Remember the dates" block shows this viewer, or null for none: a memorial
 * with no dates has nothing to remember yet (its feed still answers, empty), and a memorial that is not
 * public shows its private link only to its owner and co-managers (calendarLinksShown).
 */
export function calendarLinksFor(
  memorial: { id: string; isPublished: boolean; visibility: string; dateOfBirth: Date | null; dateOfPassing: Date | null },
  role: MemorialRole,
  site = publicUrl(),
): CalendarLinks | null {
  if (!memorial.dateOfBirth && !memorial.dateOfPassing) return null;
  const access = calendarLinksShown(memorial, role);
  if (!access) return null;
  const feedUrl = `${site}${calendarPath(memorial.id, access)}`;
  return { access, feedUrl, subscribeUrl: feedUrl.replace(/^https?:/, "webcal:"), downloadPath: calendarPath(memorial.id, access, true) };
}
