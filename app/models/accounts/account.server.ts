import { prisma } from "~/services/db.server";
import { hashPassword } from "~/services/password.server";
import { MESSAGES } from "~/utils/validation/account";
import { cancelPlan } from "../commerce/plan-instalments.server";
import type { Member } from "../commerce/plan-subscription.server";
import { closeAccount } from "../memorials/deletion.server";
import { checkChoices, successionPlanFor, SuccessionChangedError, type DeletionChoices } from "../memorials/succession.server";
import { purgeDateOf } from "~/utils/deletion";
import { describeRetry, hitPasswordCheckLimits, hitRegistrationLimits, RATE_LIMIT_MESSAGES, type RateLimited } from "../rate-limit.server";
import { queueMail } from "../mail/outbox.server";
import { checkPassword, createUser, EmailTakenError, type PublicUser } from "./users.server";

// The account flows, each one use case shared by its screen and its /api call: the route
// only turns the result into a redirect with a toast, a form with its errors, or JSON. Sign-in is
// signIn in users.server.ts. Every limit is counted before the expensive work (rate-limit.server.ts).

export type { RateLimited } from "../rate-limit.server";
type FieldErrors<F extends string> = Partial<Record<F, string[]>>;

export type RegisterResult = { ok: true; user: PublicUser } | RateLimited | { ok: false; reason: "email-taken"; fieldErrors: FieldErrors<"email"> };

/** Creates an account (the caller then starts its session): limited per address and per email address. */
export async function registerAccount(input: { email: string; password: string; firstName: string; lastName: string }, ip: string): Promise<RegisterResult> {
  const limit = await hitRegistrationLimits(ip, input.email);
  if (!limit.allowed)
    return {
      ok: false,
      reason: "rate-limited",
      retryAfterSeconds: limit.retryAfterSeconds,
      message: `${limit.message} ${describeRetry(limit.retryAfterSeconds)}`,
    };
  try {
    return { ok: true, user: await createUser(input) };
  } catch (error) {
    if (error instanceof EmailTakenError) return { ok: false, reason: "email-taken", fieldErrors: { email: [MESSAGES.emailTaken] } };
    throw error;
  }
}

export type ChangePasswordResult = { ok: true } | RateLimited | { ok: false; reason: "wrong-current"; fieldErrors: FieldErrors<"currentPassword"> };

/** Changes the member's password after checking the current one; every other session of theirs ends. */
export async function changePassword(
  user: Pick<PublicUser, "id" | "email" | "firstName">,
  input: { currentPassword: string; newPassword: string },
  context: { ip: string; keepSessionId: string | undefined },
): Promise<ChangePasswordResult> {
  const limit = await hitPasswordCheckLimits(user.id, context.ip);
  if (!limit.allowed) return rateLimited(RATE_LIMIT_MESSAGES.passwordChange, limit.retryAfterSeconds);
  if (!(await checkPassword(user.id, input.currentPassword))) {
    return { ok: false, reason: "wrong-current", fieldErrors: { currentPassword: [MESSAGES.currentPasswordIncorrect] } };
  }
  const password = await hashPassword(input.newPassword);
  const now = new Date();
  await prisma().$transaction(async (tx) => {
    // passwordChangedAt: a reset asked for before now gets no link, even one the mail worker has not made yet.
    await tx.user.update({ where: { id: user.id }, data: { password, passwordChangedAt: now } });
    await tx.session.deleteMany({ where: { userId: user.id, ...(context.keepSessionId ? { NOT: { sid: context.keepSessionId } } : {}) } });
    // A reset link asked for earlier dies with the old password: it would be an hour's way in.
    await tx.passwordResetToken.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } });
    // Always sent, whatever the member's choices: a change they did not make must not go unnoticed.
    await queueMail(tx, { to: user.email, kind: "password-changed", data: { firstName: user.firstName } });
  });
  return { ok: true };
}

export const PASSWORD_INCORRECT = "Password is incorrect";

export type DeleteAccountResult =
  | { ok: true; purgeAt: Date }
  | RateLimited
  | { ok: false; reason: "wrong-password"; fieldErrors: FieldErrors<"password"> }
  | { ok: false; reason: "payments"; message: string }
  | { ok: false; reason: "choices"; choiceErrors: Record<string, string> }
  | { ok: false; reason: "changed"; message: string };

/**
 * Deletes the account after the password is given again (UK GDPR right to erasure), keeping it for the
 * 30 days our pages promise (closeAccount, memorials/deletion.server.ts): hidden and signed out at once,
 * restorable by signing in, then purged with its files. Monthly plan payments stop first: a deleted
 * account is never charged (stopPaymentsOf).
 */
export async function deleteAccount(user: PublicUser, password: string, ip: string, choices: DeletionChoices = {}): Promise<DeleteAccountResult> {
  // What happens to each memorial without a successor is the member's choice (memorials/succession.server.ts):
  // asked before anything else, so that a missing answer never costs a password attempt.
  const choiceErrors = checkChoices(await successionPlanFor(user.id), choices);
  if (Object.keys(choiceErrors).length) return { ok: false, reason: "choices", choiceErrors };
  const limit = await hitPasswordCheckLimits(user.id, ip);
  if (!limit.allowed) return rateLimited(RATE_LIMIT_MESSAGES.passwordConfirm, limit.retryAfterSeconds);
  if (!(await checkPassword(user.id, password))) return { ok: false, reason: "wrong-password", fieldErrors: { password: [PASSWORD_INCORRECT] } };
  const stopped = await stopPaymentsOf(user);
  if (!stopped.ok) return stopped;
  const now = new Date();
  try {
    await closeAccount(user, { ...user, ip }, undefined, now, choices);
  } catch (error) {
    if (error instanceof SuccessionChangedError) return { ok: false, reason: "changed", message: error.message };
    throw error;
  }
  return { ok: true, purgeAt: purgeDateOf(now) };
}

/**
 * Cancels the member's monthly plan, if one is running, before their account is deleted: the payments
 * stop, what was paid stays paid (the plan-cancelled email says so). Refused when the payment provider
 * cannot be told, so that the account is not deleted while its payments go on.
 */
export async function stopPaymentsOf(user: Member): Promise<{ ok: true } | { ok: false; reason: "payments"; message: string }> {
  const result = await cancelPlan(user);
  if (!result.ok && result.reason === "provider") return { ok: false, reason: "payments", message: MESSAGES.deleteAccountPaymentsFailed };
  return { ok: true };
}

function rateLimited(message: string, retryAfterSeconds: number): RateLimited {
  return { ok: false, reason: "rate-limited", retryAfterSeconds, message: `${message} ${describeRetry(retryAfterSeconds)}` };
}
