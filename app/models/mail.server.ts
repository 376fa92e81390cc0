import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { EmailKind, EmailPropsByKind } from "~/emails";
import { Prisma, type PrismaClient } from "~/generated/prisma/client";
import { getDatabase, prisma } from "~/services/db.server";
import { getEnv, publicUrl } from "~/services/env.server";
import { getSessionSecrets } from "~/services/secrets.server";
import { countryName } from "~/utils/countries";
import { formatLongDate } from "~/utils/dates";
import { purgeDateOf } from "~/utils/deletion";
import { formatPence } from "~/utils/money";
import { PLANS } from "~/utils/plans";
import { orderNumber, SHOP_MESSAGES, TAX_LABEL, WHATS_NEXT_EMAIL } from "~/utils/shop";
import { SUPPORT_HOURS, SUPPORT_REPLY_TIME } from "~/utils/site";
import { digestFacts, followConfirmFacts, anniversaryReminderFacts } from "./follow.server";
import { eventUpdateFacts, replyConfirmFacts, rsvpMailFacts } from "./memorial-events.server";
import { exportReadyFacts } from "./memorial-export.server";
import { invitationMailFacts } from "./memorial-managers.server";
import { reminderFacts } from "./succession.server";
import { DEFAULT_NOTIFICATIONS, type NotificationKey, type NotificationPreferences } from "~/utils/validation/account";

// The email outbox. A message is a row written in the same
// transaction as what caused it (a tribute, a password change), so it is never lost and never sent for
// something that did not happen. The worker in the server process (server/mail-worker.ts) claims due rows
// with FOR UPDATE SKIP LOCKED (several instances never take the same one), asks composeMail for what the
// email says at that moment, renders it (app/emails) and sends it (app/services/mail.server.ts); a
// failure is retried later with back-off, so a mail server that is down only delays mail.

type Db = PrismaClient | Prisma.TransactionClient;

export type QueuedMail = {
  to: string;
  kind: EmailKind;
  /** The facts the email is built from when it is sent (ids, names); never a secret or a token. */
  data: Record<string, string | number | boolean | null>;
  /** At most one message of a group waits at a time: a second one joins the first. */
  groupKey?: string;
  /** Not before this moment (the hourly limit of tribute notifications). */
  notBefore?: Date;
};

/** Writes a message to the outbox, inside the caller's transaction when given one. */
export async function queueMail(db: Db, mail: QueuedMail) {
  await db.mailOutbox.createMany({
    data: [{ to: mail.to, kind: mail.kind, data: mail.data, groupKey: mail.groupKey ?? null, nextAttemptAt: mail.notBefore ?? new Date() }],
    // A message of the same group already waiting: this one is folded into it (it lists what is waiting when sent).
    skipDuplicates: true,
  });
}

/**
 * In SQL, when a message of a group may go: `soonest`, or `intervalMs` after the group's last one sent if
 * that is later (the statements that queue a group's messages in SQL: tributes waiting, follow digests).
 */
export function notBeforeSql(groupKey: Prisma.Sql, soonest: Date, intervalMs: number) {
  return Prisma.sql`GREATEST(${soonest}::timestamp,
    (SELECT max(o."sentAt") FROM "mail_outbox" o WHERE o."groupKey" = ${groupKey} AND o."status" = 'sent') + ${intervalMs} * interval '1 millisecond')`;
}

/** Writes several messages at once (a memorial's followers' digests), each folded into its group's waiting one. */
export async function queueMails(db: Db, mails: QueuedMail[]) {
  if (!mails.length) return;
  await db.mailOutbox.createMany({
    data: mails.map((mail) => ({
      to: mail.to,
      kind: mail.kind,
      data: mail.data,
      groupKey: mail.groupKey ?? null,
      nextAttemptAt: mail.notBefore ?? new Date(),
    })),
    skipDuplicates: true,
  });
}

export type OutboxRow = { id: string; to: string; kind: string; data: Record<string, unknown>; attempts: number; groupKey: string | null };

/** How long a claimed message is the claimer's before another worker may take it (a crashed worker's). */
export const MAIL_LEASE_MS = 5 * 60_000;
/** After these many failed attempts a message is given up (about two days of retries). */
export const MAIL_MAX_ATTEMPTS = 10;
const BACKOFF_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000, 2 * 3600_000, 4 * 3600_000, 8 * 3600_000, 12 * 3600_000, 24 * 3600_000];

/** Takes up to `limit` due messages for this worker alone, in the order they became due. */
export async function claimDueMail(now: Date, limit = 10): Promise<OutboxRow[]> {
  return getDatabase().sql.query<OutboxRow>(
    `UPDATE "mail_outbox" SET "lockedUntil" = $2, "attempts" = "attempts" + 1
     WHERE "id" IN (
       SELECT "id" FROM "mail_outbox"
       WHERE "status" = 'pending' AND "nextAttemptAt" <= $1 AND ("lockedUntil" IS NULL OR "lockedUntil" <= $1)
       ORDER BY "nextAttemptAt" LIMIT $3
       FOR UPDATE SKIP LOCKED)
     RETURNING "id", "to", "kind", "data", "attempts", "groupKey"`,
    [now, new Date(now.getTime() + MAIL_LEASE_MS), limit],
  );
}

export async function markMailSent(id: string, now: Date) {
  await prisma().mailOutbox.update({ where: { id }, data: { status: "sent", sentAt: now, lockedUntil: null, lastError: null } });
}

/** Nothing to send any more (the tributes were moderated meanwhile, the member said no): done, not sent. */
export async function markMailSkipped(id: string, reason: string) {
  await prisma().mailOutbox.update({ where: { id }, data: { status: "skipped", lockedUntil: null, lastError: reason } });
}

/** A failed attempt: tried again after a growing pause, given up after MAIL_MAX_ATTEMPTS. */
export async function markMailFailed(row: Pick<OutboxRow, "id" | "attempts">, error: unknown, now: Date) {
  const message = error instanceof Error ? error.message : String(error);
  const giveUp = row.attempts >= MAIL_MAX_ATTEMPTS;
  await prisma().mailOutbox.update({
    where: { id: row.id },
    data: {
      status: giveUp ? "failed" : "pending",
      lockedUntil: null,
      lastError: message.slice(0, 1000),
      nextAttemptAt: new Date(now.getTime() + BACKOFF_MS[Math.min(row.attempts - 1, BACKOFF_MS.length - 1)]),
    },
  });
}

// ------------------------------------------------------------------------------------------------
// What each email says, composed when it is sent from the facts in the row and the data as it is then.

export type ComposedMail<K extends EmailKind = EmailKind> = { to: string; kind: K; props: EmailPropsByKind[K]; headers?: Record<string, string> };

/** The email a row stands for now, or null when there is no longer anything to say. */
export async function composeMail(row: OutboxRow): Promise<ComposedMail | { skip: string }> {
  const data = row.data;
  const site = publicUrl();
  switch (row.kind) {
    case "password-reset": {
      // Rows queued before issue 25 carry the token's id; now the link is made here (issueResetToken).
      const tokenId = data.tokenId ? String(data.tokenId) : row.id;
      if (!data.tokenId) {
        const issued = await issueResetToken(row.id, String(data.email ?? row.to), new Date(String(data.requestedAt)), Number(data.validMinutes));
        if (issued) return issued;
      }
      const token = await prisma().passwordResetToken.findUnique({
        where: { id: tokenId },
        select: { usedAt: true, expiresAt: true, user: { select: { firstName: true } } },
      });
      if (!token || token.usedAt || token.expiresAt <= new Date()) return { skip: "the link is no longer valid" };
      const resetUrl = `${site}/reset-password?${new URLSearchParams({ token: resetTokenFor(tokenId) })}`;
      return { to: row.to, kind: "password-reset", props: { firstName: token.user.firstName, resetUrl, validMinutes: Number(data.validMinutes) } };
    }
    case "password-changed":
      return { to: row.to, kind: "password-changed", props: { firstName: String(data.firstName), forgotUrl: `${site}/forgot-password` } };
    case "account-deleted": {
      // Queued before the 30-day window existed, with no date: counted from now, which is never too early.
      const purgeAt = typeof data.purgeAt === "string" ? data.purgeAt : purgeDateOf(new Date()).toISOString();
      const props = { firstName: String(data.firstName), supportEmail: getEnv().SUPPORT_EMAIL, purgeDate: formatLongDate(purgeAt), loginUrl: `${site}/login` };
      return { to: row.to, kind: "account-deleted", props };
    }
    case "account-restored":
      return {
        to: row.to,
        kind: "account-restored",
        props: {
          firstName: String(data.firstName),
          byAdmin: data.byAdmin === true,
          myMemorialsUrl: `${site}/my-memorials`,
          supportEmail: getEnv().SUPPORT_EMAIL,
        },
      };
    case "purge-notice": {
      const what = data.what === "account" ? "account" : "memorial";
      const props = {
        firstName: String(data.firstName),
        what,
        title: typeof data.title === "string" ? data.title : null,
        purgeDate: formatLongDate(String(data.purgeAt)),
        restoreUrl: `${site}${what === "account" ? "/login" : "/my-memorials"}`,
      } as const;
      return { to: row.to, kind: "purge-notice", props };
    }
    case "tributes-waiting":
      return composeTributesWaiting(row, site);
    case "order-confirmation":
      return composeOrderConfirmation(row, site);
    case "order-cancelled":
    case "order-shipped":
      return composeOrderNews(row, site);
    case "payment-refunded":
      return composePaymentRefunded(row, site);
    case "instalment-missed": {
      const planName = PLANS[data.planId === "forever_plus" ? "forever_plus" : "forever"].name;
      const props = {
        firstName: String(data.firstName),
        planName,
        amount: formatPence(Number(data.amount)),
        number: Number(data.number),
        count: Number(data.count),
      };
      return {
        to: row.to,
        kind: "instalment-missed",
        props: { ...props, accessUntil: formatLongDate(String(data.accessUntil)), subscriptionUrl: `${site}/subscription` },
      };
    }
    case "plan-lapsed":
    case "plan-ended": {
      const planName = PLANS[data.planId === "forever_plus" ? "forever_plus" : "forever"].name;
      return { to: row.to, kind: row.kind, props: { firstName: String(data.firstName), planName, subscriptionUrl: `${site}/subscription` } };
    }
    case "plan-receipt":
    case "plan-refund":
    case "plan-cancelled":
    case "plan-resumed":
      return composePlanMail(row, site);
    case "friend-request":
      return composeFriendRequest(row, site);
    case "contact-received":
    case "contact-copy":
      return composeContactMail(row, site);
    case "memorial-export-ready":
      return composeExportReady(row, site);
    case "memorial-invitation":
      return composeInvitation(row, site);
    case "co-manager-removed":
      return {
        to: row.to,
        kind: "co-manager-removed",
        props: { name: String(data.name), removedBy: String(data.removedBy), supportEmail: getEnv().SUPPORT_EMAIL },
      };
    case "successor-named":
      return {
        to: row.to,
        kind: "successor-named",
        props: {
          firstName: String(data.firstName),
          name: String(data.name),
          owner: String(data.owner),
          managersUrl: `${site}/memorials/${data.memorialId}/managers`,
        },
      };
    case "inactivity-reminder": {
      const facts = await reminderFacts(String(data.userId), Number(data.stage));
      if (!facts) return { skip: "the member has been seen since, or has nothing to hand on" };
      const props = {
        firstName: facts.firstName,
        final: Number(data.stage) === 2,
        lastSeen: formatLongDate(String(data.lastSeen)),
        handOverDate: formatLongDate(String(data.handOverAt)),
        memorials: facts.memorials,
        loginUrl: `${site}/login`,
        settingsUrl: `${site}/account/manage`,
      };
      return { to: row.to, kind: "inactivity-reminder", props };
    }
    case "follow-confirm":
      return composeFollowConfirm(row, site);
    case "follow-digest":
      return composeFollowDigest(row, site);
    case "anniversary-reminder":
      return composeAnniversaryReminder(row, site);
    case "event-rsvp":
    case "event-rsvp-confirm":
    case "event-update":
      return composeEventMail(row, site);
    case "memorial-handed-over": {
      const memorialUrl = `${site}/memorials/${data.memorialId}`;
      const common = { firstName: String(data.firstName), name: String(data.name), memorialUrl };
      const props =
        data.audience === "previous-owner"
          ? { ...common, audience: "previous-owner" as const, successor: String(data.successor) }
          : {
              ...common,
              audience: "successor" as const,
              previousOwner: String(data.previousOwner),
              reason: data.reason === "absent" ? ("absent" as const) : ("account-deleted" as const),
            };
      return { to: row.to, kind: "memorial-handed-over", props };
    }
    case "backup-alert":
      return {
        to: row.to,
        kind: "backup-alert",
        props: {
          reason: data.reason === "stale" ? "stale" : "failed",
          error: typeof data.error === "string" ? data.error : null,
          lastSuccess: typeof data.lastSuccess === "string" ? formatLongDate(data.lastSuccess) : null,
          adminUrl: `${site}/admin`,
        },
      };
    default:
      return { skip: `no email of kind ${row.kind}` };
  }
}

/** An invitation to co-manage a memorial: skipped once it was answered, revoked or has expired. */
async function composeInvitation(row: OutboxRow, site: string): Promise<ComposedMail<"memorial-invitation"> | { skip: string }> {
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
async function composeEventMail(row: OutboxRow, site: string): Promise<ComposedMail<"event-rsvp" | "event-rsvp-confirm" | "event-update"> | { skip: string }> {
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

/** A visitor's link to confirm following a memorial: skipped once used or expired. */
async function composeFollowConfirm(row: OutboxRow, site: string): Promise<ComposedMail<"follow-confirm"> | { skip: string }> {
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
async function composeFollowDigest(row: OutboxRow, site: string): Promise<ComposedMail<"follow-digest"> | { skip: string }> {
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
async function composeAnniversaryReminder(row: OutboxRow, site: string): Promise<ComposedMail<"anniversary-reminder"> | { skip: string }> {
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

/** A memorial's copy is ready: skipped once it has expired or its memorial is gone. */
async function composeExportReady(row: OutboxRow, site: string): Promise<ComposedMail<"memorial-export-ready"> | { skip: string }> {
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

/** Paid so far, left of the price, and the plan's reference, for the cancel and resume emails (older rows had none). */
function planAccount(data: OutboxRow["data"]) {
  const count = Number(data.paidCount ?? 0);
  return {
    paid: `${formatPence(Number(data.paid ?? 0))} (${count} monthly ${count === 1 ? "payment" : "payments"})`,
    left: formatPence(Number(data.left ?? 0)),
    purchaseRef: String(data.purchaseRef ?? "not recorded"),
  };
}

/** The plan's money emails: a receipt, a refund, payments cancelled or resumed. */
function composePlanMail(row: OutboxRow, site: string): ComposedMail | { skip: string } {
  const data = row.data;
  const planName = PLANS[data.planId === "forever_plus" ? "forever_plus" : "forever"].name;
  const common = { firstName: String(data.firstName), planName, subscriptionUrl: `${site}/subscription` };
  switch (row.kind) {
    case "plan-receipt": {
      const monthly = data.paymentType === "monthly";
      const next = data.nextDueAt ? `Payment ${Number(data.number) + 1} of ${Number(data.count)} is due on ${formatLongDate(String(data.nextDueAt))}.` : null;
      const props = {
        ...common,
        amount: formatPence(Number(data.amount)),
        what: monthly ? `Monthly payment ${Number(data.number)} of ${Number(data.count)}` : "Paid in full, one time",
        paidOn: formatLongDate(String(data.paidAt)),
        paymentRef: String(data.paymentRef),
        next,
      };
      return { to: row.to, kind: "plan-receipt", props };
    }
    case "plan-refund": {
      const why =
        typeof data.why === "string" && data.why
          ? data.why
          : data.reason === "excess"
            ? `You had already paid part of your ${planName} plan, so we have given back the part of your payment above what it cost you.`
            : `Your ${planName} plan was already paid, so your second payment was not needed.`;
      const props = { ...common, amount: formatPence(Number(data.amount)), why, paymentRef: String(data.paymentRef), refundRef: String(data.refundRef) };
      return { to: row.to, kind: "plan-refund", props };
    }
    case "plan-cancelled":
      return { to: row.to, kind: "plan-cancelled", props: { ...common, ...planAccount(data), accessUntil: formatLongDate(String(data.accessUntil)) } };
    case "plan-resumed": {
      const next = `Payment ${Number(data.number)} of ${Number(data.count)} (${formatPence(Number(data.amount))}) is due on ${formatLongDate(String(data.nextDueAt))}.`;
      return { to: row.to, kind: "plan-resumed", props: { ...common, ...planAccount(data), next } };
    }
    default:
      return { skip: `no plan email of kind ${row.kind}` };
  }
}

async function composeTributesWaiting(row: OutboxRow, site: string): Promise<ComposedMail<"tributes-waiting"> | { skip: string }> {
  const memorial = await prisma().memorial.findUnique({
    where: { id: String(row.data.memorialId) },
    select: { id: true, firstName: true, lastName: true, user: { select: { id: true, email: true, firstName: true, notificationPreferences: true } } },
  });
  if (!memorial) return { skip: "the memorial was deleted" };
  if (!wants(memorial.user.notificationPreferences, "tributes")) return { skip: "the member turned these emails off" };
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

// Transactional: sent whatever the member chose under Notifications, as a receipt is.
async function composeOrderConfirmation(row: OutboxRow, site: string): Promise<ComposedMail<"order-confirmation"> | { skip: string }> {
  const order = await prisma().order.findUnique({
    where: { id: String(row.data.orderId) },
    include: { items: { orderBy: { createdAt: "asc" }, omit: { book: true } } },
  });
  if (!order) return { skip: "the order was deleted" };
  const address = (order.shippingAddress ?? {}) as Partial<Record<"address" | "city" | "state" | "zipCode" | "country", string>>;
  return {
    to: row.to,
    kind: "order-confirmation",
    props: {
      customerName: order.customerName ?? "customer",
      orderNumber: orderNumber(order.id),
      paymentId: order.paymentIntentId ?? "",
      isTest: order.isTest,
      lines: order.items.map((i) => ({ name: i.name, quantity: i.quantity, lineTotal: formatPence(i.price * i.quantity) })),
      subtotal: formatPence(order.subtotalAmount),
      taxLabel: TAX_LABEL,
      tax: formatPence(order.taxAmount),
      total: formatPence(order.totalAmount),
      shipping: [address.address, address.city, address.state, address.zipCode, address.country ? countryName(address.country) : undefined].filter(
        (s): s is string => !!s,
      ),
      whatsNext: WHATS_NEXT_EMAIL,
      ordersUrl: `${site}/orders`,
    },
  };
}

const addressOf = (shippingAddress: unknown) => {
  const a = (shippingAddress ?? {}) as Partial<Record<"address" | "city" | "state" | "zipCode" | "country", string>>;
  return [a.address, a.city, a.state, a.zipCode, a.country ? countryName(a.country) : undefined].filter((s): s is string => !!s);
};

// An order cancelled (and refunded) or shipped, with its items, amount and payment reference.
async function composeOrderNews(row: OutboxRow, site: string): Promise<ComposedMail<"order-cancelled" | "order-shipped"> | { skip: string }> {
  const order = await prisma().order.findUnique({
    where: { id: String(row.data.orderId) },
    include: { items: { orderBy: { createdAt: "asc" }, omit: { book: true } } },
  });
  if (!order) return { skip: "the order was deleted" };
  const common = {
    customerName: order.customerName ?? "customer",
    orderNumber: orderNumber(order.id),
    paymentId: order.paymentIntentId ?? "",
    isTest: order.isTest,
    lines: order.items.map((i) => ({ name: i.name, quantity: i.quantity, lineTotal: formatPence(i.price * i.quantity) })),
    total: formatPence(order.totalAmount),
    ordersUrl: `${site}/orders`,
  };
  if (row.kind === "order-cancelled") {
    if (order.status !== "cancelled") return { skip: "the order is not cancelled" };
    return {
      to: row.to,
      kind: "order-cancelled",
      props: { ...common, refunded: order.refundId ? formatPence(order.totalAmount) : null, supportEmail: getEnv().SUPPORT_EMAIL },
    };
  }
  // What was shipped, as the row recorded it (an order cancelled since was still shipped: the cancellation
  // email follows). Corrected tracking details are emailed again, and an email for details since replaced says nothing.
  const carrier = String(row.data.carrier ?? order.carrier ?? "");
  const trackingNumber = String(row.data.trackingNumber ?? order.trackingNumber ?? "");
  if (!carrier || !trackingNumber) return { skip: "the order has no tracking details" };
  if (order.status === "shipped" && order.trackingNumber !== trackingNumber) return { skip: "the tracking details were corrected since" };
  return { to: row.to, kind: "order-shipped", props: { ...common, carrier, trackingNumber, shipping: addressOf(order.shippingAddress) } };
}

// A payment the shop refunded instead of making an order (sold out while paying, a basket already ordered).
async function composePaymentRefunded(row: OutboxRow, site: string): Promise<ComposedMail<"payment-refunded"> | { skip: string }> {
  const checkout = await prisma().checkout.findUnique({ where: { id: String(row.data.checkoutId) } });
  if (!checkout || checkout.status !== "refunded") return { skip: "the payment was not refunded" };
  const items = checkout.items as unknown as { name: string; quantity: number; unitPrice: number }[];
  const shipping = checkout.shipping as unknown as { firstName?: string; lastName?: string };
  const refunded = formatPence(checkout.totalAmount);
  const duplicate = checkout.refundReason === "duplicate";
  const reason =
    checkout.refundReason === "sold-out"
      ? SHOP_MESSAGES.soldOut(checkout.soldOutItems || "an item", refunded)
      : duplicate
        ? SHOP_MESSAGES.duplicatePayment(refunded)
        : `Your payment of ${refunded} has been refunded in full and no order was placed.`;
  return {
    to: row.to,
    kind: "payment-refunded",
    props: {
      customerName: `${shipping.firstName ?? ""} ${shipping.lastName ?? ""}`.trim() || "customer",
      reason,
      refunded,
      paymentId: checkout.paymentId ?? checkout.sessionId ?? "",
      isTest: checkout.provider === "test",
      lines: items.map((i) => ({ name: i.name, quantity: i.quantity, lineTotal: formatPence(i.unitPrice * i.quantity) })),
      total: refunded,
      linkUrl: duplicate ? `${site}/orders` : `${site}/basket`,
      linkLabel: duplicate ? "See your orders" : "See your basket",
      supportEmail: getEnv().SUPPORT_EMAIL,
    },
  };
}

async function composeFriendRequest(row: OutboxRow, site: string): Promise<ComposedMail<"friend-request"> | { skip: string }> {
  const request = await prisma().friendRequest.findUnique({
    where: { id: String(row.data.requestId) },
    select: {
      status: true,
      sender: { select: { firstName: true, lastName: true } },
      receiver: { select: { id: true, email: true, firstName: true, notificationPreferences: true } },
    },
  });
  if (!request || request.status !== "pending") return { skip: "the request was answered or cancelled meanwhile" };
  if (!wants(request.receiver.notificationPreferences, "friendRequests")) return { skip: "the member turned these emails off" };
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
async function composeContactMail(row: OutboxRow, site: string): Promise<ComposedMail<"contact-received" | "contact-copy"> | { skip: string }> {
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

function wants(preferences: unknown, topic: NotificationKey) {
  return { ...DEFAULT_NOTIFICATIONS, ...((preferences ?? {}) as Partial<NotificationPreferences>) }[topic];
}

// ------------------------------------------------------------------------------------------------
// Notifications a family expects, queued in the caller's transaction.

/** The hourly limit of waiting-tribute emails per memorial. */
export const TRIBUTE_NOTICE_INTERVAL_MS = 60 * 60_000;

/**
 * A tribute is waiting on a memorial: its owner hears of it, at most once an hour per memorial (a second
 * tribute within the hour joins the email already waiting, which lists every author when it goes).
 * The statement that queues it, for the tribute's own statement to run with it (leaveTribute: one round
 * trip): the owner's address and wish, the hour since the group's last email, and the message folded into
 * one already waiting (as queueMail's skipDuplicates does).
 */
export function tributeNotificationInsert(memorialId: string, now = new Date(), onlyIf: Prisma.Sql = Prisma.sql`true`) {
  const groupKey = Prisma.sql`${`tributes-waiting:${memorialId}`}`;
  return Prisma.sql`
    INSERT INTO "mail_outbox" ("to", "kind", "data", "groupKey", "nextAttemptAt")
    SELECT u."email", ${"tributes-waiting" satisfies EmailKind}, jsonb_build_object('memorialId', m."id"), ${groupKey},
           ${notBeforeSql(groupKey, now, TRIBUTE_NOTICE_INTERVAL_MS)}
      FROM "memorials" m JOIN "users" u ON u."id" = m."userId"
     WHERE m."id" = ${memorialId} AND COALESCE((u."notificationPreferences"->>'tributes')::boolean, ${DEFAULT_NOTIFICATIONS.tributes}) AND ${onlyIf}
    ON CONFLICT DO NOTHING`;
}

/** A friend request waits: its receiver hears of it, if they want to (Account → Notifications). */
export async function queueFriendRequestMail(db: Db, requestId: string) {
  const request = await db.friendRequest.findUnique({
    where: { id: requestId },
    select: { receiver: { select: { email: true, notificationPreferences: true } } },
  });
  if (!request || !wants(request.receiver.notificationPreferences, "friendRequests")) return;
  await queueMail(db, { to: request.receiver.email, kind: "friend-request", data: { requestId } });
}

/** A contact message was stored: its sender gets an acknowledgement and the support address a copy. */
export async function queueContactMail(db: Db, message: { id: string; email: string }) {
  await queueMail(db, { to: message.email, kind: "contact-received", data: { messageId: message.id } });
  await queueMail(db, { to: getEnv().SUPPORT_EMAIL, kind: "contact-copy", data: { messageId: message.id } });
}

// ------------------------------------------------------------------------------------------------
// Signed links: password-reset tokens derived from their row's id (so no token is ever stored), and
// one-click unsubscribe links that work without signing in.

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

/**
 * "Forgot your password?" queues a row for every address asked about, known or not, so that the answer
 * takes the same time either way; the link is made when the email is sent. Its token's id
 * is the row's id (a retry sends the same link), it is valid for an hour from the request, and making it
 * uses up every earlier link of the member. No link is made for a request older than a newer one or than
 * the last password change. Answers why nothing is to be sent, or null.
 */
async function issueResetToken(id: string, email: string, requestedAt: Date, validMinutes: number): Promise<{ skip: string } | null> {
  return prisma().$transaction(async (tx) => {
    const found = await tx.user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true } });
    if (!found) return { skip: "no account has this address" };
    // One member's links are made one at a time (two workers, two requests), and not while the password
    // changes: the row lock orders this against changePassword and resetPassword, which update the row.
    await tx.$executeRaw`SELECT 1 FROM "users" WHERE "id" = ${found.id} FOR UPDATE`;
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
