import { prisma } from "~/services/db.server";
import { hashPassword } from "~/services/password.server";
import { RESET_MESSAGES, RESET_VALID_MINUTES } from "~/utils/password-reset";
import { hashResetToken, queueMail } from "./mail.server";
import { describeRetry, hitRateLimit, RATE_LIMITS, type RateLimited } from "./rate-limit.server";
import { publicUserSelect, toPublic, type PublicUser } from "./user.server";

export { RESET_MESSAGES, RESET_VALID_MINUTES } from "~/utils/password-reset";

// "Forgot your password?". Asking gives the same answer, in the same time, whether or not an
// account exists: the request only queues an email row; the mail worker makes the link (mail.server.ts,
// issueResetToken). The link is valid once, for an hour; only a hash of its token is stored (the token
// itself is derived from the row's id with the server's secret). A newer link, a password changed in
// Account → Security, or a reset use up every earlier link, also the ones the mail worker
// has not made yet: a request from before the user's passwordChangedAt gets no link.
// Choosing a new password ends every session of the member, tells them by email, and signs them in.

const hashToken = hashResetToken;

export type ResetRequestResult = { ok: true } | RateLimited;

/** Sends a reset link to the address if it belongs to an account; answers the same either way. */
export async function requestPasswordReset(email: string, ip: string, now = new Date()): Promise<ResetRequestResult> {
  const address = email.trim().toLowerCase();
  for (const [rule, subject] of [
    [RATE_LIMITS.resetPerIp, ip],
    [RATE_LIMITS.resetPerEmail, address],
  ] as const) {
    const limit = await hitRateLimit(rule, subject, now);
    if (!limit.allowed) {
      return {
        ok: false,
        reason: "rate-limited",
        retryAfterSeconds: limit.retryAfterSeconds,
        message: `${RESET_MESSAGES.rateLimited} ${describeRetry(limit.retryAfterSeconds)}`,
      };
    }
  }
  // The same single insert whether or not the address has an account; the mail worker makes the link.
  await queueMail(prisma(), {
    to: address,
    kind: "password-reset",
    data: { email: address, requestedAt: now.toISOString(), validMinutes: RESET_VALID_MINUTES },
  });
  return { ok: true };
}

export type ResetTokenCheck = { ok: true; userId: string } | { ok: false; reason: "invalid" | "used" | "expired"; message: string };

/** Whether a link's token may still be used (the reset page asks before showing its form). */
export async function checkResetToken(token: string, now = new Date()): Promise<ResetTokenCheck> {
  const row = token
    ? await prisma().passwordResetToken.findUnique({ where: { tokenHash: hashToken(token) }, select: { userId: true, usedAt: true, expiresAt: true } })
    : null;
  if (!row) return { ok: false, reason: "invalid", message: RESET_MESSAGES.invalid };
  if (row.usedAt) return { ok: false, reason: "used", message: RESET_MESSAGES.used };
  if (row.expiresAt <= now) return { ok: false, reason: "expired", message: RESET_MESSAGES.expired };
  return { ok: true, userId: row.userId };
}

export type ResetResult = { ok: true; user: PublicUser; deleted: boolean } | Extract<ResetTokenCheck, { ok: false }>;

/**
 * Sets the new password if the token is still good, using it up in the same statement (two tabs cannot
 * both use one link). Every session of the member ends and a "your password was changed" email goes out;
 * the caller then starts the member's new session.
 */
export async function resetPassword(token: string, newPassword: string, now = new Date()): Promise<ResetResult> {
  const checked = await checkResetToken(token, now);
  if (!checked.ok) return checked;
  const password = await hashPassword(newPassword);
  const user = await prisma().$transaction(async (tx) => {
    const used = await tx.passwordResetToken.updateMany({
      where: { tokenHash: hashToken(token), usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (used.count === 0) return null;
    const updated = await tx.user.update({
      where: { id: checked.userId },
      data: { password, passwordChangedAt: now },
      select: { ...publicUserSelect, deletedAt: true },
    });
    // Any other link still out there for this account stops working too.
    await tx.passwordResetToken.updateMany({ where: { userId: updated.id, usedAt: null }, data: { usedAt: now } });
    await tx.session.deleteMany({ where: { userId: updated.id } });
    await queueMail(tx, { to: updated.email, kind: "password-changed", data: { firstName: updated.firstName } });
    return updated;
  });
  if (!user) return { ok: false, reason: "used", message: RESET_MESSAGES.used };
  const { deletedAt, ...row } = user;
  return { ok: true, user: toPublic(row), deleted: !!deletedAt };
}
