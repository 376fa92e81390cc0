import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { holdAdvisoryLock } from "~/services/transaction-locks.server";
import { TIMELINE_MAX_EVENTS, type TimelineInput } from "~/utils/timeline";
import type { Actor } from "../audit.server";
import { auditCoEdit, contentEditorRole, isRecordId } from "./access.server";

// A life timeline (docs/decisions/024-life-timeline.md). The rules, kept here once:
// - the owner and co-managers (canEditContent) add, edit and remove events; anyone else, administrators
//   included, gets "not-found" (they may not even learn the memorial exists);
// - at most TIMELINE_MAX_EVENTS per memorial, counted under a per-memorial lock so two quick posts cannot both
//   slip past the bound;
// - an event's photo is one of the same memorial's photos (images, not videos);
// - a co-manager's change is written to the audit log in the same transaction ("memorial.co-edit");
// - the public page's version moves with every change by a trigger (migration 20261126190000), so the
//   anonymous page cache never serves a stale timeline.

export type TimelineResult = { ok: true; id: string } | { ok: false; reason: "not-found" | "full" | "photo" | "gone" };

/** Date order: year, then month, then day, a part not known first; ties in the order they were added. */
export const TIMELINE_ORDER = [
  { year: "asc" },
  { month: { sort: "asc", nulls: "first" } },
  { day: { sort: "asc", nulls: "first" } },
  { createdAt: "asc" },
  { id: "asc" },
] satisfies Prisma.MemorialTimelineEventOrderByWithRelationInput[];

const eventSelect = {
  id: true,
  kind: true,
  year: true,
  month: true,
  day: true,
  title: true,
  description: true,
  photoId: true,
  createdAt: true,
  updatedAt: true,
  photo: { select: { id: true, mediaUrl: true, mediaType: true, caption: true } },
} satisfies Prisma.MemorialTimelineEventSelect;

export type TimelineEvent = Prisma.MemorialTimelineEventGetPayload<{ select: typeof eventSelect }>;

/** A memorial's events in date order (bounded by TIMELINE_MAX_EVENTS). The caller has checked who may see them. */
export function listTimeline(memorialId: string): Promise<TimelineEvent[]> {
  return prisma().memorialTimelineEvent.findMany({ where: { memorialId }, orderBy: TIMELINE_ORDER, select: eventSelect, take: TIMELINE_MAX_EVENTS });
}

type Tx = Prisma.TransactionClient;

async function photoBelongs(tx: Tx, memorialId: string, photoId: string | null) {
  if (photoId === null) return true;
  if (!isRecordId(photoId)) return false;
  return (await tx.memorialMedia.count({ where: { id: photoId, memorialId, mediaType: { startsWith: "image/" } } })) > 0;
}

function columns(input: TimelineInput) {
  return {
    kind: input.kind,
    year: input.year,
    month: input.month,
    day: input.month === null ? null : input.day,
    title: input.title,
    description: input.description,
    photoId: input.photoId,
  };
}

/** Adds an event to the timeline. */
export async function addTimelineEvent(memorialId: string, actor: Actor, input: TimelineInput): Promise<TimelineResult> {
  const role = await contentEditorRole(memorialId, actor);
  if (!role) return { ok: false, reason: "not-found" };
  return prisma().$transaction(async (tx) => {
    await holdAdvisoryLock(tx, `timeline:${memorialId}`);
    if ((await tx.memorialTimelineEvent.count({ where: { memorialId } })) >= TIMELINE_MAX_EVENTS) return { ok: false, reason: "full" } as const;
    if (!(await photoBelongs(tx, memorialId, input.photoId))) return { ok: false, reason: "photo" } as const;
    const created = await tx.memorialTimelineEvent.create({ data: { memorialId, ...columns(input) }, select: { id: true } });
    await auditCoEdit(tx, role, actor, memorialId, `added the timeline event "${input.title}"`);
    return { ok: true, id: created.id } as const;
  });
}

/** Changes one event of the timeline. */
export async function updateTimelineEvent(memorialId: string, eventId: string, actor: Actor, input: TimelineInput): Promise<TimelineResult> {
  const role = await contentEditorRole(memorialId, actor);
  if (!role) return { ok: false, reason: "not-found" };
  if (!isRecordId(eventId)) return { ok: false, reason: "gone" };
  return prisma().$transaction(async (tx) => {
    if (!(await photoBelongs(tx, memorialId, input.photoId))) return { ok: false, reason: "photo" } as const;
    const { count } = await tx.memorialTimelineEvent.updateMany({ where: { id: eventId, memorialId }, data: columns(input) });
    if (!count) return { ok: false, reason: "gone" } as const;
    await auditCoEdit(tx, role, actor, memorialId, `edited the timeline event "${input.title}"`);
    return { ok: true, id: eventId } as const;
  });
}

/** Removes one event from the timeline (its photo stays in the gallery). */
export async function removeTimelineEvent(memorialId: string, eventId: string, actor: Actor): Promise<TimelineResult> {
  const role = await contentEditorRole(memorialId, actor);
  if (!role) return { ok: false, reason: "not-found" };
  if (!isRecordId(eventId)) return { ok: false, reason: "gone" };
  return prisma().$transaction(async (tx) => {
    const event = await tx.memorialTimelineEvent.findFirst({ where: { id: eventId, memorialId }, select: { title: true } });
    if (!event) return { ok: false, reason: "gone" } as const;
    await tx.memorialTimelineEvent.delete({ where: { id: eventId } });
    await auditCoEdit(tx, role, actor, memorialId, `removed the timeline event "${event.title}"`);
    return { ok: true, id: eventId } as const;
  });
}
