import { prisma } from "~/services/db.server";
import { formatLongDate } from "~/utils/dates";
import { eventUpdateFacts, replyConfirmFacts, rsvpMailFacts } from "../memorials/events.server";
import { exportReadyFacts } from "../memorials/export.server";
import { invitationMailFacts } from "../memorials/managers.server";
import type { ComposedMail, OutboxRow } from "./outbox.server";
import { replyUrlFor, unsubscribeUrlFor } from "~/services/signed-links.server";
import { wantsEmail } from "~/utils/validation/account";

// The emails about a memorial's family side: invitations, events, a copy ready, tributes waiting.

/** An invitation to co-manage a memorial: skipped once it was answered, revoked or has expired. */
export async function composeInvitation(row: OutboxRow, site: string): Promise<ComposedMail<"memorial-invitation"> | { skip: string }> {
  const facts = await invitationMailFacts(String(row.data.invitationId));
  if (!facts) return { skip: "the invitation can no longer be used" };
  return {
    to: facts.email,
    kind: "memorial-invitation",
    props: {
      name: facts.memorialName,
      invitedBy: facts.invitedBy,
      role: facts.role,
      asSuccessor: facts.asSuccessor,
      invitationUrl: `${site}/invitations/${encodeURIComponent(facts.token)}`,
      expiresOn: formatLongDate(facts.expiresAt.toISOString()),
    },
  };
}

/** A visitor's copy of their answer to an event, the link confirming it, or the family's update to those who answered. */
export async function composeEventMail(
  row: OutboxRow,
  site: string,
): Promise<ComposedMail<"event-rsvp" | "event-rsvp-confirm" | "event-update"> | { skip: string }> {
  if (row.kind === "event-rsvp-confirm") {
    const rsvpId = String(row.data.rsvpId);
    const facts = await replyConfirmFacts(rsvpId);
    if (!facts) return { skip: "nothing waits to be confirmed" };
    const { memorialId, email, ...props } = facts;
    return {
      to: email,
      kind: "event-rsvp-confirm",
      props: { ...props, confirmUrl: replyUrlFor(rsvpId, site), memorialUrl: `${site}/memorials/${memorialId}` },
    };
  }
  if (row.kind === "event-rsvp") {
    const facts = await rsvpMailFacts(String(row.data.rsvpId));
    if (!facts) return { skip: "the reply or its event is gone" };
    const { memorialId, email, ...props } = facts;
    return { to: email, kind: "event-rsvp", props: { ...props, memorialUrl: `${site}/memorials/${memorialId}` } };
  }
  const rsvpId = typeof row.data.rsvpId === "string" ? row.data.rsvpId : null;
  const facts = await eventUpdateFacts(String(row.data.eventId), rsvpId);
  if (!facts) return { skip: "the event is gone, or the person asked for no more updates" };
  const { memorialId, ...props } = facts;
  return {
    to: row.to,
    kind: "event-update",
    props: {
      ...props,
      subject: String(row.data.subject),
      body: String(row.data.body),
      from: typeof row.data.from === "string" ? row.data.from : "The family",
      manageUrl: rsvpId ? replyUrlFor(rsvpId, site) : null,
      memorialUrl: `${site}/memorials/${memorialId}`,
    },
  };
}

/** A memorial's copy is ready: skipped once it has expired or its memorial is gone. */
export async function composeExportReady(row: OutboxRow, site: string): Promise<ComposedMail<"memorial-export-ready"> | { skip: string }> {
  const facts = await exportReadyFacts(String(row.data.exportId));
  if (!facts) return { skip: "the copy is no longer there" };
  return {
    to: facts.user.email,
    kind: "memorial-export-ready",
    props: {
      firstName: facts.user.firstName,
      name: `${facts.memorial.firstName} ${facts.memorial.lastName}`,
      exportUrl: `${site}/memorials/${facts.memorial.id}/export`,
      availableUntil: formatLongDate(facts.expiresAt),
    },
  };
}

export async function composeTributesWaiting(row: OutboxRow, site: string): Promise<ComposedMail<"tributes-waiting"> | { skip: string }> {
  const memorial = await prisma().memorial.findUnique({
    where: { id: String(row.data.memorialId) },
    select: { id: true, firstName: true, lastName: true, user: { select: { id: true, email: true, firstName: true, notificationPreferences: true } } },
  });
  if (!memorial) return { skip: "the memorial was deleted" };
  if (!wantsEmail(memorial.user.notificationPreferences, "tributes")) return { skip: "the member turned these emails off" };
  const [count, newest] = await Promise.all([
    prisma().tribute.count({ where: { memorialId: memorial.id, isApproved: false } }),
    prisma().tribute.findMany({ where: { memorialId: memorial.id, isApproved: false }, orderBy: { createdAt: "desc" }, take: 3, select: { authorName: true } }),
  ]);
  if (count === 0) return { skip: "every tribute was moderated meanwhile" };
  const unsubscribeUrl = unsubscribeUrlFor(memorial.user.id, "tributes", site);
  return {
    to: memorial.user.email,
    kind: "tributes-waiting",
    props: {
      firstName: memorial.user.firstName,
      memorialName: `${memorial.firstName} ${memorial.lastName}`.trim(),
      authors: newest.map((t) => t.authorName),
      count,
      approveUrl: `${site}/memorials/${memorial.id}#tributes`,
      unsubscribeUrl,
    },
    // RFC 8058: mail programs show an Unsubscribe button that posts to this address without opening it.
    headers: { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
