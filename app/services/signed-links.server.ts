import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { publicUrl } from "~/services/env.server";
import { getSessionSecrets } from "~/services/secrets.server";
import type { NotificationKey } from "~/utils/validation/account";

// Signed links: tokens made from a row's id with the session secret (so no token is ever stored), and
// one-click links (unsubscribe, a reply to an event, a private calendar) that work without signing in.
// Checked against every current secret, so rotating the secret does not break links already sent.

function sign(purpose: string, value: string, secret = getSessionSecrets()[0]) {
  return createHmac("sha256", secret).update(`${purpose}:${value}`).digest("base64url");
}

function matchesAnySecret(purpose: string, value: string, signature: string) {
  const given = Buffer.from(signature);
  return getSessionSecrets().some((secret) => {
    const expected = Buffer.from(sign(purpose, value, secret));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** What is stored of a reset link's token: its hash only. */
export function hashResetToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

/** The token in a password-reset link: only the server, with its secret, can make it from the row's id. */
export function resetTokenFor(tokenId: string) {
  return sign("password-reset", tokenId);
}

/** The token in an invitation to co-manage a memorial: made from the invitation's id. */
export function invitationTokenFor(invitationId: string) {
  return sign("memorial-invitation", invitationId);
}

/**
 * The key in a memorial's private calendar link (decision 022): made from the memorial's id,
 * so it is never stored, and it is the same link every time the family looks. Anyone holding it sees the dates.
 */
export function calendarKeyFor(memorialId: string) {
  return sign("memorial-calendar", memorialId);
}

/** Whether a private calendar link's key is one we made for this memorial (with any current secret). */
export function isValidCalendarKey(memorialId: string, key: string) {
  return !!memorialId && !!key && matchesAnySecret("memorial-calendar", memorialId, key);
}

/** The token in a visitor's link to confirm following a memorial: made from the follow's id. */
export function followConfirmTokenFor(followId: string) {
  return sign("follow-confirm", followId);
}

/**
 * The link to a reply to a memorial's event, as it is emailed to the reply's address only: there its owner
 * confirms the reply (or a change to it) and stops the family's updates. Signed for the reply.
 */
export function replyUrlFor(rsvpId: string, site = publicUrl()) {
  return `${site}/events/reply/${rsvpId}?${new URLSearchParams({ sig: sign("event-reply", rsvpId) })}`;
}

/** Whether a reply's link is one we made for it (with any current secret). */
export function isValidReplyLink(rsvpId: string, signature: string) {
  return !!rsvpId && !!signature && matchesAnySecret("event-reply", rsvpId, signature);
}

/** The one-click unsubscribe link of a follower's emails: signed for one follow (a visitor has no account). */
export function followUnsubscribeUrlFor(followId: string, site = publicUrl()) {
  return `${site}/unsubscribe?${new URLSearchParams({ follow: followId, sig: sign("unsubscribe", `follow:${followId}`) })}`;
}

/** The "stop the anniversary reminders only" link of a reminder email: the follow stays. */
export function followRemindersOffUrlFor(followId: string, site = publicUrl()) {
  return `${site}/unsubscribe?${new URLSearchParams({ follow: followId, only: "reminders", sig: sign("unsubscribe", `follow-reminders:${followId}`) })}`;
}

/** Whether a "stop the reminders only" link is one we made. */
export function isValidRemindersOff(followId: string, signature: string) {
  return !!followId && !!signature && matchesAnySecret("unsubscribe", `follow-reminders:${followId}`, signature);
}

/** Whether a follower's unsubscribe link is one we made. */
export function isValidFollowUnsubscribe(followId: string, signature: string) {
  return !!followId && !!signature && matchesAnySecret("unsubscribe", `follow:${followId}`, signature);
}

export function unsubscribeUrlFor(userId: string, topic: NotificationKey, site = publicUrl()) {
  return `${site}/unsubscribe?${new URLSearchParams({ user: userId, topic, sig: sign("unsubscribe", `${userId}:${topic}`) })}`;
}

/** Whether an unsubscribe link is one we made (for this member and this kind of email). */
export function isValidUnsubscribe(userId: string, topic: string, signature: string) {
  return !!userId && !!signature && matchesAnySecret("unsubscribe", `${userId}:${topic}`, signature);
}
