// Dates as the site shows them: cards "Jan 5, 2020", the memorial page "January 5, 2020" (UTC: a
// date of birth is a calendar date, not an instant, and must not shift with the server's zone).

//
// Written out rather than with Intl.DateTimeFormat, which gives the same text (dates.test.ts holds them
// to it) but whose first use in a browser loads the locale data: about 70 ms of a fast machine's main
// thread, four times that on a slow phone, in the middle of the memorial page's start-up.
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

type DateLike = Date | string | null | undefined;

function toDate(value: DateLike): Date | null {
  if (!value) return null;
  const d = typeof value === "string" ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
  return Number.isNaN(d.getTime()) ? null : d;
}

export function formatLongDate(value: DateLike): string {
  const d = toDate(value);
  return d ? `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}` : "";
}

export function formatShortDate(value: DateLike): string {
  const d = toDate(value);
  return d ? `${MONTHS[d.getUTCMonth()].slice(0, 3)} ${d.getUTCDate()}, ${d.getUTCFullYear()}` : "";
}

/** YYYY-MM-DD, as the /api and date inputs use. */
export function toIsoDate(value: DateLike): string {
  const d = toDate(value);
  return d ? d.toISOString().slice(0, 10) : "";
}

/**
 * "January 5, 1930 – March 2, 2024", as the memorial page shows the dates (an unknown one as "Unknown");
 * "" when neither is known, so that a printed sheet leaves the line out rather than print "Unknown" twice.
 */
export function formatLifeDates(birth: DateLike, passing: DateLike): string {
  const [b, p] = [formatLongDate(birth), formatLongDate(passing)];
  return b || p ? `${b || "Unknown"} – ${p || "Unknown"}` : "";
}
