import { prisma } from "~/services/db.server";
import { lockMemberRow } from "~/services/transaction-locks.server";
import { hashPassword } from "~/services/password.server";
import { RESET_MESSAGES, RESET_VALID_MINUTES } from "~/utils/password-reset";
import { hashResetToken } from "~/services/signed-links.server";
import { queueMail } from "../mail/outbox.server";
import { describeRetry, hitRateLimit, RATE_LIMITS, type RateLimited } from "../rate-limit.server";
import { publicUserSelect, toPublic, type PublicUser } from "./users.server";
import { resetTokenFor } from "~/services/signed-links.server";

export { RESET_MESSAGES, RESET_VALID_MINUTES } from "~/utils/password-reset";

// "Forgot your password?". Asking gives the same answer, in the same time, whether or not an
// account exists: the request only queues an email row; the mail worker makes the link (mail/compose.server.ts,
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

/**
 * "Forgot your password?" queues a row for every address asked about, known or not, so that the answer
 * takes the same time either way; the link is made when the email is sent. Its token's id
 * is the row's id (a retry sends the same link), it is valid for an hour from the request, and making it
 * uses up every earlier link of the member. No link is made for a request older than a newer one or than
 * the last password change. Answers why nothing is to be sent, or null.
 */
export async function issueResetToken(id: string, email: string, requestedAt: Date, validMinutes: number): Promise<{ skip: string } | null> {
  return prisma().$transaction(async (tx) => {
    const found = await tx.user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true } });
    if (!found) return { skip: "no account has this address" };
    // One member's links are made one at a time (two workers, two requests), and not while the password
    // changes: the row lock orders this against changePassword and resetPassword, which update the row.
    await lockMemberRow(tx, found.id);
    const user = await tx.user.findUnique({ where: { id: found.id }, select: { id: true, passwordChangedAt: true } });
    if (!user) return { skip: "no account has this address" };
    if (await tx.passwordResetToken.findUnique({ where: { id }, select: { id: true } })) return null;
    if (await tx.passwordResetToken.count({ where: { userId: user.id, createdAt: { gt: requestedAt } } })) return { skip: "a newer link was asked for" };
    // The password changed after the request (the worker was late, or the mail server down): the member
    // has chosen a password since, and whoever reads this mailbox must not get an hour to replace it.
    if (user.passwordChangedAt && user.passwordChangedAt >= requestedAt) return { skip: "the password was changed since the link was asked for" };
    await tx.passwordResetToken.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: new Date() } });
    await tx.passwordResetToken.create({
      data: {
        id,
        userId: user.id,
        tokenHash: hashResetToken(resetTokenFor(id)),
        createdAt: requestedAt,
        expiresAt: new Date(requestedAt.getTime() + validMinutes * 60_000),
      },
    });
    return null;
  });
}
