// Rules every text field shares, without a schema library (the memorial page's forms use them in the
// browser; text.ts builds the zod versions on them). Input that PostgreSQL cannot store,
// or that would silently become another date, is refused with a message next to its field.

export const TEXT_MESSAGES = {
  control: "This text contains a hidden character we cannot save. Please retype it.",
  dateFormat: "Enter a date as YYYY-MM-DD",
  dateImpossible: "This date does not exist. Please check the day and the month.",
  earliestYear: "Enter a year from 1000 onwards",
} as const;

/** The earliest year a date may have: PostgreSQL has no year 0, and nobody we remember was born earlier. */
export const EARLIEST_YEAR = 1000;

/** C0 control characters but tab, line feed and carriage return, and DEL: never typed, never wanted. */
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export function hasControlCharacters(value: string): boolean {
  return CONTROL_CHARACTER.test(value);
}

/** Whether any string inside a JSON value (keys too) holds a control character (jsonb refuses \u0000). */
export function jsonHasControlCharacters(value: unknown): boolean {
  if (typeof value === "string") return hasControlCharacters(value);
  if (Array.isArray(value)) return value.some(jsonHasControlCharacters);
  if (value && typeof value === "object") return Object.entries(value).some(([k, v]) => hasControlCharacters(k) || jsonHasControlCharacters(v));
  return false;
}

/**
 * Why a YYYY-MM-DD value is not a date we can keep (its message), or null when it is one: 2023-02-29
 * does not exist (JavaScript would quietly make it 1 March), and years before EARLIEST_YEAR are refused.
 */
export function checkCalendarDate(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return TEXT_MESSAGES.dateFormat;
  const [year, month, day] = match.slice(1).map(Number);
  // setUTCFullYear, not Date.UTC, which reads years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return TEXT_MESSAGES.dateImpossible;
  return year < EARLIEST_YEAR ? TEXT_MESSAGES.earliestYear : null;
}
