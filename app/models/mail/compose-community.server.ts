import { prisma } from "~/services/db.server";
import { formatLongDate } from "~/utils/dates";
import { SUPPORT_HOURS, SUPPORT_REPLY_TIME } from "~/utils/site";
import { digestFacts, followConfirmFacts } from "../community/follows.server";
import { anniversaryReminderFacts } from "../community/anniversary-reminders.server";
import type { ComposedMail, OutboxRow } from "./outbox.server";
import { followUnsubscribeUrlFor, followRemindersOffUrlFor, unsubscribeUrlFor } from "~/services/signed-links.server";
import { wantsEmail } from "~/utils/validation/account";

// The emails to followers, friends and people who wrote to us.

/** A visitor's link to confirm following a memorial: skipped once used or expired. */
export async function composeFollowConfirm(row: OutboxRow, site: string): Promise<ComposedMail<"follow-confirm"> | { skip: string }> {
  const facts = await followConfirmFacts(String(row.data.followId));
  if (!facts) return { skip: "the follow was confirmed, or its link expired" };
  return {
    to: facts.email,
    kind: "follow-confirm",
    props: {
      name: facts.memorialName,
      confirmUrl: `${site}/follow/${encodeURIComponent(facts.token)}`,
      expiresOn: formatLongDate(facts.expiresAt.toISOString()),
    },
  };
}

/** A follower's digest of what is new on a memorial, written now from what is new since the last. */
export async function composeFollowDigest(row: OutboxRow, site: string): Promise<ComposedMail<"follow-digest"> | { skip: string }> {
  const followId = String(row.data.followId);
  const facts = await digestFacts(followId);
  if ("skip" in facts) return facts;
  const unsubscribeUrl = followUnsubscribeUrlFor(followId, site);
  const memorialUrl = `${site}/memorials/${facts.memorialId}`;
  return {
    to: facts.to,
    kind: "follow-digest",
    props: {
      firstName: facts.firstName,
      memorialName: facts.memorialName,
      tributes: facts.tributes,
      tributeCount: facts.tributeCount,
      photoCount: facts.photoCount,
      memorialUrl,
      tributeUrl: `${memorialUrl}#tributes`,
      unsubscribeUrl,
    },
    headers: { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

/** A follower's anniversary reminder, checked again when it is sent. */
export async function composeAnniversaryReminder(row: OutboxRow, site: string): Promise<ComposedMail<"anniversary-reminder"> | { skip: string }> {
  const followId = String(row.data.followId);
  const kind = row.data.kind === "passing" ? "passing" : "birthday";
  const occasion = row.data.occasion === "on-the-day" ? "on-the-day" : "week-before";
  const facts = await anniversaryReminderFacts(followId, kind, String(row.data.occursOn), occasion);
  if ("skip" in facts) return facts;
  const unsubscribeUrl = followUnsubscribeUrlFor(followId, site);
  const memorialUrl = `${site}/memorials/${facts.memorialId}`;
  return {
    to: facts.to,
    kind: "anniversary-reminder",
    props: {
      firstName: facts.firstName,
      memorialName: facts.memorialName,
      kind: facts.kind,
      occasion: facts.occasion,
      date: formatLongDate(facts.occursOn),
      years: facts.years,
      memorialUrl,
      tributeUrl: `${memorialUrl}#leave-tribute`,
      unsubscribeUrl,
      stopRemindersUrl: followRemindersOffUrlFor(followId, site),
    },
    headers: { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

export async function composeFriendRequest(row: OutboxRow, site: string): Promise<ComposedMail<"friend-request"> | { skip: string }> {
  const request = await prisma().friendRequest.findUnique({
    where: { id: String(row.data.requestId) },
    select: {
      status: true,
      sender: { select: { firstName: true, lastName: true } },
      receiver: { select: { id: true, email: true, firstName: true, notificationPreferences: true } },
    },
  });
  if (!request || request.status !== "pending") return { skip: "the request was answered or cancelled meanwhile" };
  if (!wantsEmail(request.receiver.notificationPreferences, "friendRequests")) return { skip: "the member turned these emails off" };
  const unsubscribeUrl = unsubscribeUrlFor(request.receiver.id, "friendRequests", site);
  return {
    to: request.receiver.email,
    kind: "friend-request",
    props: {
      firstName: request.receiver.firstName,
      senderName: `${request.sender.firstName} ${request.sender.lastName}`.trim(),
      requestsUrl: `${site}/friends/requests`,
      unsubscribeUrl,
    },
    headers: { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

/** The acknowledgement to the sender and the copy for the support address, from the stored message. */
export async function composeContactMail(row: OutboxRow, site: string): Promise<ComposedMail<"contact-received" | "contact-copy"> | { skip: string }> {
  const message = await prisma().contactMessage.findUnique({ where: { id: String(row.data.messageId) }, include: { user: { select: { email: true } } } });
  if (!message) return { skip: "the message was deleted" };
  if (row.kind === "contact-received") {
    // Quoted back only to a member's own account address: to any other address the form would be a relay.
    const own = message.user?.email.toLowerCase() === message.email.toLowerCase();
    return {
      to: row.to,
      kind: "contact-received",
      props: {
        quoted: own ? { name: message.name, subject: message.subject, message: message.message } : null,
        supportHours: SUPPORT_HOURS,
        replyTime: SUPPORT_REPLY_TIME,
        helpUrl: `${site}/help`,
      },
    };
  }
  return {
    to: row.to,
    kind: "contact-copy",
    props: {
      name: message.name,
      email: message.email,
      subject: message.subject,
      message: message.message,
      type: message.type,
      member: message.userId !== null,
      receivedAt: message.createdAt.toISOString().replace("T", " ").slice(0, 16) + " UTC",
    },
    // Replying to the copy answers the person who wrote.
    headers: { "Reply-To": message.email },
  };
}
