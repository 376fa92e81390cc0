import { Prisma } from "~/generated/prisma/client";
import { getDatabase } from "~/services/db.server";
import { driverExecute, driverRows, sqlCommand, sqlQuery } from "~/services/sql-statements.server";

/** A refusal because a rate limit was hit: what every use case answers then, with when to try again. */
export type RateLimited = { ok: false; reason: "rate-limited"; retryAfterSeconds: number; message: string };

// Fixed-window rate limits kept in PostgreSQL, so they hold however many app instances share the
// database. One atomic upsert per hit: no read-then-write race between instances.

export type RateLimitRule = { name: string; limit: number; windowMs: number };

/** The limits, in one place (and shown to users in words by `describeRetry`). */
export const RATE_LIMITS = {
  /**
   * Sign-in (README "Sign-in lockout"): 5 wrong passwords for one account from one address a
   * quarter of an hour, so a stranger's guesses never lock the owner out of their own address; and a slower
   * ceiling per account from everywhere, for guessing spread over many addresses.
   */
  loginPerEmailAndIp: { name: "login-email-ip", limit: 5, windowMs: 15 * 60_000 },
  loginPerEmail: { name: "login-email", limit: 20, windowMs: 60 * 60_000 },
  loginPerIp: { name: "login-ip", limit: 20, windowMs: 15 * 60_000 },
  registerPerIp: { name: "register-ip", limit: 5, windowMs: 60 * 60_000 },
  /** Attempts to register one email address, from anywhere (a taken address is tried again and again). */
  registerPerEmail: { name: "register-email", limit: 5, windowMs: 60 * 60_000 },
  passwordChangePerUser: { name: "password-user", limit: 5, windowMs: 15 * 60_000 },
  passwordChangePerIp: { name: "password-ip", limit: 20, windowMs: 15 * 60_000 },
  /** "Forgot your password?": per address, and per email address asked about (from anywhere). */
  resetPerIp: { name: "reset-ip", limit: 10, windowMs: 60 * 60_000 },
  resetPerEmail: { name: "reset-email", limit: 3, windowMs: 60 * 60_000 },
  /** The vault's password, per member and per address. */
  vaultUnlockPerUser: { name: "vault-user", limit: 5, windowMs: 15 * 60_000 },
  vaultUnlockPerIp: { name: "vault-ip", limit: 20, windowMs: 15 * 60_000 },
  /** Anonymous tributes: a grieving family may post several, a spammer many more. */
  tributePerIp: { name: "tribute-ip", limit: 10, windowMs: 10 * 60_000 },
  /** AI writing helpers: each use costs money with a model; enough for someone drafting and redrafting. */
  aiPerUser: { name: "ai-user", limit: 20, windowMs: 60 * 60_000 },
  /** Visitors (the tribute assistant on public memorials), per address: a household may share one. */
  aiPerIp: { name: "ai-ip", limit: 30, windowMs: 60 * 60_000 },
  /** Starting a checkout asks the payment provider for a payment: plenty for a buyer, few for a script. */
  checkoutPerUser: { name: "checkout-user", limit: 30, windowMs: 60 * 60_000 },
  /** Friend search by exact email: plenty for people, too few to sweep a list of addresses. */
  friendSearchPerUser: { name: "friend-search-user", limit: 30, windowMs: 10 * 60_000 },
  /** Each invitation to co-manage a memorial emails someone: a family, not a mailing list. */
  invitePerUser: { name: "invite-user", limit: 20, windowMs: 60 * 60_000 },
  /** Each friend request emails someone: a member adding their family, not a spammer. */
  friendRequestPerUser: { name: "friend-request-user", limit: 20, windowMs: 60 * 60_000 },
  /** Contact messages: per address (visitors and members alike) and per member. */
  contactPerIp: { name: "contact-ip", limit: 5, windowMs: 60 * 60_000 },
  contactPerUser: { name: "contact-user", limit: 10, windowMs: 60 * 60_000 },
  /** Each message sends the address typed an acknowledgement: the form must not become a way to mail-bomb someone. */
  contactPerEmail: { name: "contact-email", limit: 3, windowMs: 60 * 60_000 },
  /** Following a memorial by email: each request emails the address typed a confirmation link. */
  followPerIp: { name: "follow-ip", limit: 10, windowMs: 60 * 60_000 },
  followPerEmail: { name: "follow-email", limit: 3, windowMs: 60 * 60_000 },
  /** Answering a memorial's event: each answer emails the address typed a copy. */
  rsvpPerEmail: { name: "rsvp-email", limit: 5, windowMs: 60 * 60_000 },
  rsvpPerIp: { name: "rsvp-ip", limit: 20, windowMs: 60 * 60_000 },
  /** The family's updates to those who answered an event: each one emails every one of them. */
  eventMailPerUser: { name: "event-mail-user", limit: 10, windowMs: 60 * 60_000 },
  /** New copies of memorials a member asks for (each is a ZIP of every photo and video, kept seven days). */
  exportPerUser: { name: "export-user", limit: 5, windowMs: 24 * 60 * 60_000 },
  /** However many of the family write: those who answered an event hear from it at most this often. */
  eventMailPerEvent: { name: "event-mail-event", limit: 3, windowMs: 24 * 60 * 60_000 },
} satisfies Record<string, RateLimitRule>;

/** What a person is told when a limit trips, followed by describeRetry(…). */
export const RATE_LIMIT_MESSAGES = {
  login: "Too many failed sign-in attempts.",
  register: "Too many accounts were created from your network.",
  registerEmail: "Too many attempts to register this email address.",
  passwordChange: "Too many password change attempts.",
  passwordConfirm: "Too many password attempts.",
  checkout: "Too many checkouts were started from your account.",
  invite: "Too many invitations were sent from your account.",
} as const;

export type RateLimitState = { allowed: boolean; count: number; retryAfterSeconds: number };

function key(rule: RateLimitRule, subject: string) {
  return `${rule.name}:${subject.toLowerCase()}`;
}

/** Counts one event against the rule; `allowed` is false once the count is above the limit. */
export async function hitRateLimit(rule: RateLimitRule, subject: string, now = new Date()): Promise<RateLimitState> {
  const [row] = await driverRows(getDatabase().sql, countHit(rule, subject, now));
  return rateLimitState(rule, row, now);
}

/** What counting a hit returns (rateLimitHitSql). */
export type CountedHit = { count: number; windowStart: Date };

/**
 * The statement that counts one hit, an atomic upsert RETURNING "count" and "windowStart" (CountedHit): for
 * hitRateLimit, and for a write that is refused past the limit to run it in its own statement (leaveTribute).
 */
export function rateLimitHitSql(rule: RateLimitRule, subject: string, now: Date) {
  const windowStartCutoff = new Date(now.getTime() - rule.windowMs);
  return Prisma.sql`INSERT INTO "rate_limits" ("key", "windowStart", "count") VALUES (${key(rule, subject)}, ${now}, 1)
     ON CONFLICT ("key") DO UPDATE SET
       "count" = CASE WHEN "rate_limits"."windowStart" <= ${windowStartCutoff} THEN 1 ELSE "rate_limits"."count" + 1 END,
       "windowStart" = CASE WHEN "rate_limits"."windowStart" <= ${windowStartCutoff} THEN ${now} ELSE "rate_limits"."windowStart" END
     RETURNING "count", "windowStart" AT TIME ZONE 'UTC' AS "windowStart"`;
}

const EXAMPLE_RULE: RateLimitRule = { name: "example", limit: 5, windowMs: 60_000 };

const countHit = sqlQuery({
  name: "rateLimit.hit",
  columns: { count: "int4", windowStart: "timestamptz" },
  sql: rateLimitHitSql,
  examples: [[EXAMPLE_RULE, "subject", new Date(0)]],
});

const resetHits = sqlCommand({
  name: "rateLimit.reset",
  sql: (key: string) => Prisma.sql`DELETE FROM "rate_limits" WHERE "key" = ${key}`,
  examples: [["rule:subject"]],
});

const deleteStaleHits = sqlCommand({
  name: "rateLimit.deleteStale",
  sql: (before: Date) => Prisma.sql`DELETE FROM "rate_limits" WHERE "windowStart" < ${before}`,
  examples: [[new Date(0)]],
});

const forgiveHit = sqlCommand({
  name: "rateLimit.forgive",
  sql: (key: string) => Prisma.sql`UPDATE "rate_limits" SET "count" = GREATEST("count" - 1, 0) WHERE "key" = ${key}`,
  examples: [["rule:subject"]],
});

/** Whether a counted hit is allowed, and when to try again if not. */
export function rateLimitState(rule: RateLimitRule, hit: CountedHit, now: Date): RateLimitState {
  return state(rule, hit.count, new Date(hit.windowStart), now, hit.count <= rule.limit);
}

/** Registration's two limits: per address, then per email. */
export async function hitRegistrationLimits(ip: string, email: string): Promise<RateLimitState & { message: string }> {
  const perIp = await hitRateLimit(RATE_LIMITS.registerPerIp, ip);
  if (!perIp.allowed) return { ...perIp, message: RATE_LIMIT_MESSAGES.register };
  const perEmail = await hitRateLimit(RATE_LIMITS.registerPerEmail, email);
  return { ...perEmail, message: RATE_LIMIT_MESSAGES.registerEmail };
}

export async function resetRateLimit(rule: RateLimitRule, subject: string) {
  await driverExecute(getDatabase().sql, resetHits(key(rule, subject)));
}

export async function deleteStaleRateLimits(now = new Date(), maxWindowMs = 24 * 60 * 60_000) {
  await driverExecute(getDatabase().sql, deleteStaleHits(new Date(now.getTime() - maxWindowMs)));
}

function state(rule: RateLimitRule, count: number, windowStart: Date, now: Date, allowed: boolean): RateLimitState {
  const retryAfterSeconds = allowed ? 0 : Math.max(1, Math.ceil((windowStart.getTime() + rule.windowMs - now.getTime()) / 1000));
  return { allowed, count, retryAfterSeconds };
}

/** "Please try again in 14 minutes." */
export function describeRetry(seconds: number) {
  if (seconds < 60) return `Please try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 90) return `Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  // A window of a day: hours, as a person would say it.
  const hours = Math.ceil(minutes / 60);
  return `Please try again in ${hours} hours.`;
}

/**
 * Counts one check of a member's own password (changing it, confirming an account deletion) against
 * the member and the address, before the check: a stolen session must not become a guessing oracle.
 */
export async function hitPasswordCheckLimits(userId: string, ip: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
  const [byUser, byIp] = await Promise.all([hitRateLimit(RATE_LIMITS.passwordChangePerUser, userId), hitRateLimit(RATE_LIMITS.passwordChangePerIp, ip)]);
  if (byUser.allowed && byIp.allowed) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(byUser.retryAfterSeconds, byIp.retryAfterSeconds) };
}

/** Takes back one counted event (a sign-in that succeeded is not an attempt against the address). */
export async function forgiveRateLimitHit(rule: RateLimitRule, subject: string) {
  await driverExecute(getDatabase().sql, forgiveHit(key(rule, subject)));
}

const accountAtAddress = (email: string, ip: string) => `${email}|${ip}`;

/**
 * Counts one sign-in attempt against the account from this address, the account from anywhere (a slower
 * ceiling) and the address, before any password work (counting after the check let 29 parallel
 * guesses through). Refused once any is over its limit.
 */
export async function hitLoginLimits(email: string, ip: string): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number; message: string }> {
  const hits = await Promise.all([
    hitRateLimit(RATE_LIMITS.loginPerEmailAndIp, accountAtAddress(email, ip)),
    hitRateLimit(RATE_LIMITS.loginPerEmail, email),
    hitRateLimit(RATE_LIMITS.loginPerIp, ip),
  ]);
  if (hits.every((h) => h.allowed)) return { allowed: true };
  const retryAfterSeconds = Math.max(...hits.map((h) => h.retryAfterSeconds));
  return { allowed: false, retryAfterSeconds, message: `${RATE_LIMIT_MESSAGES.login} ${describeRetry(retryAfterSeconds)}` };
}

/** After a successful sign-in: the account's failures are forgotten and this attempt does not count. */
export async function recordLoginSuccess(email: string, ip: string) {
  await Promise.all([
    resetRateLimit(RATE_LIMITS.loginPerEmailAndIp, accountAtAddress(email, ip)),
    resetRateLimit(RATE_LIMITS.loginPerEmail, email),
    forgiveRateLimitHit(RATE_LIMITS.loginPerIp, ip),
  ]);
}
