import { isBuilt } from "./screens";

// Plans and their limits, in one place (memorial-core.md §6 and §9, commerce-and-accounts.md §9).
export const FREE_MEMORIAL_LIMIT = 25;
export const MEMORIAL_LIMIT_TITLE = "Memorial limit reached";
export const MEMORIAL_LIMIT_MESSAGE =
  "You've reached the 25 memorial limit for free users. Please subscribe to create unlimited memorials.";
/** memorial-core.md §9: the redirect to the plans waits 2000 ms (with JavaScript). */
export const LIMIT_REDIRECT_DELAY_MS = 2000;

/**
 * Where "See plans" leads. The spec's /subscription is a second-half screen: until it is built, the Help
 * Center's answer about the plans (issue 13: the way to the plans must not be a 404). Every link to the
 * plans uses this constant, so the screen's arrival switches them all.
 */
export const PLANS_HREF = isBuilt("/subscription") ? "/subscription" : "/help#plans";

export function isPaidPlan(plan: string | null | undefined, expiry?: Date | null, now = new Date()) {
  if (!plan || plan === "free") return false;
  return !expiry || expiry.getTime() > now.getTime();
}

/** Whether this member may not create another memorial: a free plan already holding the limit. */
export function atFreeMemorialLimit(owner: { subscriptionPlan: string | null; subscriptionExpiryDate: Date | null }, owned: number, now = new Date()) {
  return !isPaidPlan(owner.subscriptionPlan, owner.subscriptionExpiryDate, now) && owned >= FREE_MEMORIAL_LIMIT;
}
