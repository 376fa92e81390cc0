// Page numbers in addresses (?page=, ?tributes=): whole numbers from 1. Anything else was typed or
// tampered with by hand, and is answered 400 with a sentence rather than guessed at (otherwise
// `?tributes=1e20` would reach the database as an offset of 10^21 rows).

export const MAX_PAGE_NUMBER = 100_000;
export const PAGE_NUMBER_MESSAGE = "There is no such page. Page numbers are whole numbers from 1.";

/** The page asked for: 1 when none is given, null when the value is not a page number. */
export function parsePageNumber(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value === "") return 1;
  if (!/^\d{1,6}$/.test(value)) return null;
  const page = Number(value);
  return page >= 1 && page <= MAX_PAGE_NUMBER ? page : null;
}

/** The page asked for, kept within the pages there are, with its offset: for lists paged in the database. */
export function pageWindow(total: number, page: number, size: number) {
  const pages = Math.max(1, Math.ceil(total / size));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  return { pages, page: current, skip: (current - 1) * size, take: size };
}
