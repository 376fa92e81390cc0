import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { queryRows, sqlQuery } from "~/services/sql-statements.server";
import { holdAdvisoryLock } from "~/services/transaction-locks.server";
import {
  EVENT_KIND_LABELS,
  EVENT_MAX_PER_MEMORIAL,
  EVENT_MESSAGES,
  eventOverAt,
  formatEventWhen,
  isPastEvent,
  mapLink,
  type EventInput,
  type EventKind,
  type EventMailInput,
  type RsvpInput,
} from "~/utils/events";
import type { CalendarSource } from "~/utils/icalendar";
import type { Actor } from "../audit.server";
import { queueMail, queueMails } from "../mail/outbox.server";
import type { Viewer } from "./access-rules";
import { auditCoEdit, contentEditorRole, findMemorialForViewer, isRecordId } from "./access.server";
import { describeRetry, hitRateLimit, RATE_LIMITS, type RateLimited } from "../rate-limit.server";

// A memorial's events (docs/decisions/026-memorial-events.md). The rules, kept here once:
// - the owner and co-managers (canEditContent) add, edit and delete events, see the answers and email those
//   who answered; anyone else, administrators included, gets "not-found";
// - anyone who may see the memorial (findMemorialForViewer, the one access rule) may answer an event that is
//   not over yet, once per email address. Anyone can type any address, so an answer counts, and hears from the
//   family, only once that address confirmed it through the link emailed to it (a member answering with their
//   own account's address needs no link); an answer for an address that already answered waits for that
//   address to confirm it, and changes nothing until then. The email sent to an address that has not confirmed
//   carries nothing the person who typed it wrote;
// - the family's updates go to confirmed answers only, a bounded number per event and per day, saying who sent
//   them and how to stop them;
// - an event is over at its end, or EVENT_DEFAULT_DURATION_MS after its start: it then shows under
//   "Past events" and takes no more answers;
// - answers are counted per email address and per network address, the family's updates per member;
// - the public page's version moves with every change of an event by a trigger (migration 20261127110000).

export type EventResult = { ok: true; id: string } | { ok: false; reason: "not-found" | "full" | "gone" };

const eventSelect = {
  id: true,
  memorialId: true,
  kind: true,
  title: true,
  startDate: true,
  startTime: true,
  endTime: true,
  timeZone: true,
  startsAt: true,
  endsAt: true,
  placeName: true,
  address: true,
  livestreamUrl: true,
  note: true,
  updatedAt: true,
} satisfies Prisma.MemorialEventSelect;

export type MemorialEventRow = Prisma.MemorialEventGetPayload<{ select: typeof eventSelect }>;

/** Which of a memorial's events a list reads: all of them (at most EVENT_MAX_PER_MEMORIAL), in time order. */
const eventsOf = (memorialId: string) =>
  ({
    where: { memorialId },
    orderBy: [{ startsAt: "asc" }, { createdAt: "asc" }],
    take: EVENT_MAX_PER_MEMORIAL,
  }) satisfies Prisma.MemorialEventFindManyArgs;

/** A memorial's events in time order. The caller has checked who may see them. */
export function listEvents(memorialId: string): Promise<MemorialEventRow[]> {
  return prisma().memorialEvent.findMany({ ...eventsOf(memorialId), select: eventSelect });
}

/** How many replied to an event and how many people they said would come, as the family's replies page counts them. */
export type ReplyTotals = { replies: number; people: number };

/**
 * A memorial's events in time order (bounded like listEvents), each with its reply totals, for the memorial's
 * copy (app/models/memorials/export.server.ts): two queries, the totals counted in the database. Only the
 * counts: the names, addresses and messages of those who replied stay on the family's replies page. The
 * caller has checked who may take the copy.
 */
export async function listEventsWithReplyTotals(memorialId: string) {
  const events = await prisma().memorialEvent.findMany({ ...eventsOf(memorialId), select: { ...eventSelect, createdAt: true } });
  if (!events.length) return [];
  const counted = await prisma().eventRsvp.groupBy({
    by: ["eventId"],
    where: { eventId: { in: events.map((e) => e.id) }, confirmedAt: { not: null } },
    _count: { _all: true },
    _sum: { partySize: true },
  });
  const totals = new Map(counted.map((c) => [c.eventId, { replies: c._count._all, people: c._sum.partySize ?? 0 } satisfies ReplyTotals]));
  return events.map((e) => ({ ...e, replyTotals: totals.get(e.id) ?? { replies: 0, people: 0 } }));
}

/** What the pages show of an event (dates as the family gave them, in the event's own zone). */
export function describeEvent(e: MemorialEventRow, now = new Date()) {
  return {
    id: e.id,
    kind: EVENT_KIND_LABELS[e.kind as EventKind] ?? e.kind,
    title: e.title,
    when: formatEventWhen(e),
    startsAt: e.startsAt.toISOString(),
    placeName: e.placeName,
    address: e.address,
    mapUrl: mapLink(e),
    livestreamUrl: e.livestreamUrl,
    note: e.note,
    past: isPastEvent(e, now),
  };
}

function columns(input: EventInput) {
  return {
    kind: input.kind,
    title: input.title,
    startDate: new Date(`${input.date}T00:00:00Z`),
    startTime: input.startTime,
    endTime: input.endTime,
    timeZone: input.timeZone,
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    placeName: input.placeName,
    address: input.address,
    livestreamUrl: input.livestreamUrl,
    note: input.note,
  };
}

/** Adds an event to the memorial. */
export async function addEvent(memorialId: string, actor: Actor, input: EventInput): Promise<EventResult> {
  const role = await contentEditorRole(memorialId, actor);
  if (!role) return { ok: false, reason: "not-found" };
  return prisma().$transaction(async (tx) => {
    await holdAdvisoryLock(tx, `events:${memorialId}`);
    if ((await tx.memorialEvent.count({ where: { memorialId } })) >= EVENT_MAX_PER_MEMORIAL) return { ok: false, reason: "full" } as const;
    const created = await tx.memorialEvent.create({ data: { memorialId, ...columns(input) }, select: { id: true } });
    await auditCoEdit(tx, role, actor, memorialId, `added the event "${input.title}"`);
    return { ok: true, id: created.id } as const;
  });
}

/** Changes one of the memorial's events. */
export async function updateEvent(memorialId: string, eventId: string, actor: Actor, input: EventInput): Promise<EventResult> {
  const role = await contentEditorRole(memorialId, actor);
  if (!role) return { ok: false, reason: "not-found" };
  if (!isRecordId(eventId)) return { ok: false, reason: "gone" };
  return prisma().$transaction(async (tx) => {
    const { count } = await tx.memorialEvent.updateMany({ where: { id: eventId, memorialId }, data: columns(input) });
    if (!count) return { ok: false, reason: "gone" } as const;
    await auditCoEdit(tx, role, actor, memorialId, `edited the event "${input.title}"`);
    return { ok: true, id: eventId } as const;
  });
}

/** Deletes one of the memorial's events, and its answers. */
export async function removeEvent(memorialId: string, eventId: string, actor: Actor): Promise<EventResult> {
  const role = await contentEditorRole(memorialId, actor);
  if (!role) return { ok: false, reason: "not-found" };
  if (!isRecordId(eventId)) return { ok: false, reason: "gone" };
  return prisma().$transaction(async (tx) => {
    const event = await tx.memorialEvent.findFirst({ where: { id: eventId, memorialId }, select: { title: true } });
    if (!event) return { ok: false, reason: "gone" } as const;
    await tx.memorialEvent.delete({ where: { id: eventId } });
    await auditCoEdit(tx, role, actor, memorialId, `deleted the event "${event.title}"`);
    return { ok: true, id: eventId } as const;
  });
}

/** One event with its answers, for the family (null for anyone else, or no such event). */
export async function eventWithAnswers(memorialId: string, eventId: string, actor: Actor) {
  if (!(await contentEditorRole(memorialId, actor)) || !isRecordId(eventId)) return null;
  const event = await prisma().memorialEvent.findFirst({
    where: { id: eventId, memorialId },
    select: {
      ...eventSelect,
      rsvps: {
        where: { confirmedAt: { not: null } },
        orderBy: { createdAt: "asc" },
        select: { id: true, name: true, email: true, partySize: true, message: true, updatedAt: true },
      },
    },
  });
  if (!event) return null;
  const { rsvps, ...row } = event;
  return { event: row, rsvps, totals: { replies: rsvps.length, people: rsvps.reduce((sum, r) => sum + r.partySize, 0) } };
}

/** `confirmed`: the reply counts now (a member with their own address); `check-email`: a link went to the address. */
export type RsvpResult = { ok: true; rsvpId: string; status: "confirmed" | "check-email" } | { ok: false; reason: "not-found" | "past" } | RateLimited;

/**
 * A visitor (or member) answers an event of a memorial they may see. A member answering with their own
 * account's address is confirmed at once (and changes their answer the same way); anyone else's answer waits
 * for the address to confirm it through the emailed link, and an answer for an address that already answered
 * is kept aside until that address confirms it. Counted per address (the link goes there) and per network.
 */
export async function rsvpToEvent(memorialId: string, eventId: string, viewer: Viewer, input: RsvpInput, ip: string, now = new Date()): Promise<RsvpResult> {
  if (!isRecordId(memorialId) || !isRecordId(eventId)) return { ok: false, reason: "not-found" };
  if ((await findMemorialForViewer(memorialId, viewer)).status !== "ok") return { ok: false, reason: "not-found" };
  const event = await prisma().memorialEvent.findFirst({ where: { id: eventId, memorialId }, select: { startsAt: true, endsAt: true } });
  if (!event) return { ok: false, reason: "not-found" };
  if (eventOverAt(event) <= now) return { ok: false, reason: "past" };
  const hits = await Promise.all([hitRateLimit(RATE_LIMITS.rsvpPerEmail, input.email, now), hitRateLimit(RATE_LIMITS.rsvpPerIp, ip, now)]);
  if (hits.some((h) => !h.allowed)) {
    const retryAfterSeconds = Math.max(...hits.map((h) => h.retryAfterSeconds));
    return { ok: false, reason: "rate-limited", retryAfterSeconds, message: `${EVENT_MESSAGES.rsvpRateLimited} ${describeRetry(retryAfterSeconds)}` };
  }
  const member = viewer ? await prisma().user.findUnique({ where: { id: viewer.id }, select: { email: true } }) : null;
  const ownAddress = !!member && member.email.toLowerCase() === input.email.toLowerCase();
  const answer = { name: input.name, partySize: input.partySize, message: input.message };
  return prisma().$transaction(async (tx) => {
    const key = { eventId_email: { eventId, email: input.email } };
    if (ownAddress) {
      const cleared = { ...answer, confirmedAt: now, userId: viewer!.id, pendingName: null, pendingPartySize: null, pendingMessage: null };
      const row = await tx.eventRsvp.upsert({ where: key, create: { eventId, email: input.email, ...cleared }, update: cleared, select: { id: true } });
      await queueMail(tx, { to: input.email, kind: "event-rsvp", data: { rsvpId: row.id } });
      return { ok: true, rsvpId: row.id, status: "confirmed" } as const;
    }
    const before = await tx.eventRsvp.findUnique({ where: key, select: { id: true } });
    const row = before
      ? await tx.eventRsvp.update({
          where: key,
          data: { pendingName: answer.name, pendingPartySize: answer.partySize, pendingMessage: answer.message },
          select: { id: true },
        })
      : await tx.eventRsvp.create({ data: { eventId, email: input.email, ...answer }, select: { id: true } });
    // One link waits at a time for an address: a second answer before the first link was sent joins it.
    await queueMail(tx, { to: input.email, kind: "event-rsvp-confirm", data: { rsvpId: row.id }, groupKey: `event-reply:${row.id}` });
    return { ok: true, rsvpId: row.id, status: "check-email" } as const;
  });
}

/** A reply as its emailed link shows it: the answer to confirm (one waiting, or the reply not yet confirmed), and its event. */
export async function replyByLink(rsvpId: string, now = new Date()) {
  if (!isRecordId(rsvpId)) return null;
  const r = await prisma().eventRsvp.findUnique({
    where: { id: rsvpId },
    select: {
      id: true,
      name: true,
      partySize: true,
      message: true,
      confirmedAt: true,
      pendingName: true,
      pendingPartySize: true,
      pendingMessage: true,
      updatesStoppedAt: true,
      eventId: true,
    },
  });
  const event = r && (await eventFacts(r.eventId));
  if (!r || !event) return null;
  const waiting =
    r.pendingPartySize !== null
      ? { name: r.pendingName ?? r.name, partySize: r.pendingPartySize, message: r.pendingMessage }
      : r.confirmedAt
        ? null
        : { name: r.name, partySize: r.partySize, message: r.message };
  const eventRow = await prisma().memorialEvent.findUnique({ where: { id: r.eventId }, select: { startsAt: true, endsAt: true } });
  return {
    id: r.id,
    event,
    current: r.confirmedAt ? { name: r.name, partySize: r.partySize, message: r.message } : null,
    waiting,
    past: !eventRow || eventOverAt(eventRow) <= now,
    updatesStopped: !!r.updatesStoppedAt,
  };
}

const confirmPendingReply = sqlQuery({
  name: "events.confirmPendingReply",
  columns: { id: "text", email: "varchar" },
  sql: (rsvpId: string, now: Date) => Prisma.sql`
      UPDATE "event_rsvps" SET
        "name" = COALESCE("pendingName", "name"), "partySize" = COALESCE("pendingPartySize", "partySize"),
        "message" = CASE WHEN "pendingPartySize" IS NULL THEN "message" ELSE "pendingMessage" END,
        "pendingName" = NULL, "pendingPartySize" = NULL, "pendingMessage" = NULL,
        "confirmedAt" = COALESCE("confirmedAt", ${now}), "updatedAt" = ${now}
      WHERE "id" = ${rsvpId} AND ("confirmedAt" IS NULL OR "pendingPartySize" IS NOT NULL)
      RETURNING "id", "email"`,
  examples: [["reply", new Date(0)]],
});

/** The address's owner confirms their reply, or the answer waiting for it: it counts from now. False when there is nothing to confirm. */
export async function confirmReply(rsvpId: string, now = new Date()): Promise<boolean> {
  if (!isRecordId(rsvpId)) return false;
  return prisma().$transaction(async (tx) => {
    const [row] = await queryRows(tx, confirmPendingReply(rsvpId, now));
    if (!row) return false;
    await queueMail(tx, { to: row.email, kind: "event-rsvp", data: { rsvpId: row.id } });
    return true;
  });
}

/** No more of the family's updates about this event for this reply (the link in every update). */
export async function stopReplyUpdates(rsvpId: string, now = new Date()): Promise<boolean> {
  if (!isRecordId(rsvpId)) return false;
  const { count } = await prisma().eventRsvp.updateMany({ where: { id: rsvpId, updatesStoppedAt: null }, data: { updatesStoppedAt: now } });
  return count > 0;
}

export type EventMailResult = { ok: true; sent: number } | { ok: false; reason: "not-found" | "nobody" } | RateLimited;

/**
 * The family emails everyone who confirmed their answer to an event (through the outbox), saying who writes;
 * a bounded number of updates per event and per member. Says how many.
 */
export async function emailAttendees(memorialId: string, eventId: string, actor: Actor, input: EventMailInput, now = new Date()): Promise<EventMailResult> {
  const role = await contentEditorRole(memorialId, actor);
  if (!role || !isRecordId(eventId)) return { ok: false, reason: "not-found" };
  const event = await prisma().memorialEvent.findFirst({
    where: { id: eventId, memorialId },
    select: { id: true, title: true, rsvps: { where: { confirmedAt: { not: null }, updatesStoppedAt: null }, select: { id: true, email: true } } },
  });
  if (!event) return { ok: false, reason: "not-found" };
  if (!event.rsvps.length) return { ok: false, reason: "nobody" };
  const hits = await Promise.all([hitRateLimit(RATE_LIMITS.eventMailPerUser, actor.id, now), hitRateLimit(RATE_LIMITS.eventMailPerEvent, eventId, now)]);
  if (hits.some((h) => !h.allowed)) {
    const retryAfterSeconds = Math.max(...hits.map((h) => h.retryAfterSeconds));
    return { ok: false, reason: "rate-limited", retryAfterSeconds, message: `${EVENT_MESSAGES.mailRateLimited} ${describeRetry(retryAfterSeconds)}` };
  }
  const sender = await prisma().user.findUnique({ where: { id: actor.id }, select: { firstName: true, lastName: true } });
  const from = `${sender?.firstName ?? ""} ${sender?.lastName ?? ""}`.trim() || "The family";
  await prisma().$transaction(async (tx) => {
    await queueMails(
      tx,
      event.rsvps.map((r) => ({ to: r.email, kind: "event-update" as const, data: { eventId, rsvpId: r.id, from, subject: input.subject, body: input.body } })),
    );
    await auditCoEdit(tx, role, actor, memorialId, `emailed ${event.rsvps.length} people about the event "${event.title}"`);
  });
  return { ok: true, sent: event.rsvps.length };
}

// ------------------------------------------------------------------------------------------------
// The emails' facts, read when they are sent.

async function eventFacts(eventId: string) {
  const e = await prisma().memorialEvent.findUnique({
    where: { id: eventId },
    select: { ...eventSelect, memorial: { select: { firstName: true, lastName: true } } },
  });
  // The memorial deleted meanwhile: the view finds none.
  if (!e || !e.memorial) return null;
  return {
    memorialId: e.memorialId,
    memorialName: `${e.memorial.firstName} ${e.memorial.lastName}`.trim(),
    title: e.title,
    when: formatEventWhen(e),
    place: [e.placeName, e.address].filter(Boolean).join(", "),
    mapUrl: mapLink(e),
    livestreamUrl: e.livestreamUrl,
    note: e.note,
  };
}

/** A visitor's copy of their confirmed answer: skipped once the answer or its event is gone. */
export async function rsvpMailFacts(rsvpId: string) {
  const r = await prisma().eventRsvp.findUnique({
    where: { id: rsvpId },
    select: { name: true, email: true, partySize: true, message: true, eventId: true, confirmedAt: true },
  });
  if (!r || !r.confirmedAt) return null;
  const event = await eventFacts(r.eventId);
  return event ? { ...event, name: r.name, email: r.email, partySize: r.partySize, message: r.message } : null;
}

/** The link asking an address to confirm an answer: only the event's facts (the family's words), nothing the answer said. */
export async function replyConfirmFacts(rsvpId: string) {
  const r = await prisma().eventRsvp.findUnique({ where: { id: rsvpId }, select: { email: true, eventId: true, confirmedAt: true, pendingPartySize: true } });
  if (!r || (r.confirmedAt && r.pendingPartySize === null)) return null; // confirmed meanwhile: nothing waits
  const event = await eventFacts(r.eventId);
  return event ? { ...event, email: r.email, change: !!r.confirmedAt } : null;
}

/** The family's update to those who answered: skipped once the event is gone, or the person stopped them. */
export async function eventUpdateFacts(eventId: string, rsvpId: string | null) {
  if (rsvpId) {
    const r = await prisma().eventRsvp.findUnique({ where: { id: rsvpId }, select: { updatesStoppedAt: true } });
    if (!r || r.updatesStoppedAt) return null;
  }
  return eventFacts(eventId);
}

// ------------------------------------------------------------------------------------------------
// The calendar (decision 022's extension point): every event of the memorial, past ones included, as a
// timed event in UTC (each reader's calendar shows it in their own zone), with a UID that never changes.

export const memorialEventsSource: CalendarSource = async (memorial, site) => {
  const events = await listEvents(memorial.id);
  return events.map((e) => ({
    uid: `event-${e.id}@everlight.uk`,
    stamp: e.updatedAt,
    start: { at: e.startsAt },
    end: { at: eventOverAt(e) },
    summary: e.title,
    description: [EVENT_KIND_LABELS[e.kind as EventKind], e.livestreamUrl ? `Livestream: ${e.livestreamUrl}` : null, e.note].filter(Boolean).join("\n\n"),
    location: [e.placeName, e.address].filter(Boolean).join(", "),
    url: `${site.memorialUrl}#event-${e.id}`,
  }));
};
