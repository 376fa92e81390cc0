// Small text helpers shared by cards and listings. Pure functions: safe on server and client.

const ELLIPSIS = "…";
// Cutting after these would leave an excerpt ending "…,…" or "(…"; they are dropped before the ellipsis.
const TRAILING_JUNK = /[\s.,;:!?…\-–—/([{'"‘“]+$/u;
const WHITESPACE = /\s/u;

/**
 * Shortens `text` to at most `max` characters for an excerpt.
 * Empty or whitespace-only input gives "". Surrounding whitespace is dropped; text that then fits
 * is returned as it is. Otherwise it is cut at the last word boundary within the first `max - 1`
 * characters (leaving room for the ellipsis), or mid-word when a single word is longer than that,
 * and "…" is appended. The result is never longer than `max`.
 */
export function truncate(text: string | null | undefined, max: number): string {
  const trimmed = text?.trim() ?? "";
  if (trimmed === "" || max <= 0) return "";
  if (trimmed.length <= max) return trimmed;
  if (max === 1) return ELLIPSIS;

  const budget = max - 1;
  // A space at index `budget` also counts: the word before it ends exactly on the budget.
  let cut = -1;
  for (let i = budget; i > 0; i--) {
    if (WHITESPACE.test(trimmed[i])) {
      cut = i;
      break;
    }
  }

  let head = (cut > 0 ? trimmed.slice(0, cut) : hardCut(trimmed, budget)).replace(TRAILING_JUNK, "");
  // Only punctuation before the cut: fall back to a plain cut rather than a lone "…".
  if (head === "") head = hardCut(trimmed, budget);
  return head + ELLIPSIS;
}

// Never leaves half of a surrogate pair (e.g. an emoji) dangling at the end.
function hardCut(text: string, length: number): string {
  const last = text.charCodeAt(length - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? length - 1 : length;
  return text.slice(0, end);
}

/** "Margaret Ellis"; tolerates a missing or padded part without doubling spaces. */
export function fullName(p: { firstName: string; lastName: string }): string {
  return [p.firstName.trim(), p.lastName.trim()].filter(Boolean).join(" ");
}

/**
 * A whole number with commas between thousands ("5,000"), as `toLocaleString("en-GB")` writes it,
 * without Intl: its first use in a browser loads locale data, a long task on a slow phone.
 */
export function withThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
