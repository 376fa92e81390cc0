// Plans and their limits, in one place (memorial-core.md §6 and §9, commerce-and-accounts.md §9).
export const FREE_MEMORIAL_LIMIT = 25;
export const MEMORIAL_LIMIT_TITLE = "Memorial limit reached";
export const MEMORIAL_LIMIT_MESSAGE =
  "You've reached the 25 memorial limit for free users. Please subscribe to create unlimited memorials.";
/** memorial-core.md §9: the redirect to /subscription waits 2000 ms (with JavaScript). */
export const LIMIT_REDIRECT_DELAY_MS = 2000;

export function isPaidPlan(plan: string | null | undefined, expiry?: Date | null, now = new Date()) {
  if (!plan || plan === "free") return false;
  return !expiry || expiry.getTime() > now.getTime();
}
