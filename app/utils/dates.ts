// Dates as the spec shows them: cards "Jan 5, 2020", the memorial page "January 5, 2020" (UTC: a
// date of birth is a calendar date, not an instant, and must not shift with the server's zone).

const long = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
const short = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });

type DateLike = Date | string | null | undefined;

function toDate(value: DateLike): Date | null {
  if (!value) return null;
  const d = typeof value === "string" ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
  return Number.isNaN(d.getTime()) ? null : d;
}

export function formatLongDate(value: DateLike): string {
  const d = toDate(value);
  return d ? long.format(d) : "";
}

export function formatShortDate(value: DateLike): string {
  const d = toDate(value);
  return d ? short.format(d) : "";
}

/** YYYY-MM-DD, as the /api and date inputs use. */
export function toIsoDate(value: DateLike): string {
  const d = toDate(value);
  return d ? d.toISOString().slice(0, 10) : "";
}
