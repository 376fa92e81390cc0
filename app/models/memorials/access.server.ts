import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { recordAudit, type Actor } from "../audit.server";
import { canEditContent, decideAccess, roleOf, type LockReason, type MemorialRole, type Viewer } from "./access-rules";

// Who may see and change a memorial. decideAccess (access-rules.ts) decides it for one memorial and
// visibleWhere for lists: both say the same, and the tests check it. Every read of a memorial for a
// person goes through one of these.

/**
 * For a query of tributes, photos or shares across memorials: only those of live memorials. "memorials"
 * is a view without the deleted ones (20261126130000_recoverable_deletion), so the relation finds nothing
 * for a deleted memorial's rows; without this filter they would come back with `memorial: null`.
 */
export const LIVE: Prisma.MemorialScalarRelationFilter = { is: {} };

/**
 * The memorials a viewer may find in a list, as a Prisma filter (the list form of decideAccess). An unlisted
 * memorial is in no list but its owner's, its co-managers' and the administrators': anyone
 * else reads it only by its address, through findMemorialForViewer or byAddressWhere.
 */
export function visibleWhere(viewer: Viewer): Prisma.MemorialWhereInput {
  const published = { isPublished: true, visibility: "public" };
  if (viewer?.isAdmin) return {};
  if (!viewer) return published;
  return {
    OR: [
      { userId: viewer.id },
      // Co-managers see the memorials they help with in any state.
      { managers: { some: { userId: viewer.id } } },
      published,
      // Friendships are stored in both directions: the owner's row naming the viewer is enough.
      { isPublished: true, visibility: "friends", user: { friendships: { some: { friendId: viewer.id } } } },
    ],
  };
}

/** The memorials a viewer may open when they already hold the id (a link): the listed ones, and unlisted ones. */
export function byAddressWhere(viewer: Viewer): Prisma.MemorialWhereInput {
  return viewer?.isAdmin ? {} : { OR: [visibleWhere(viewer), { isPublished: true, visibility: "unlisted" }] };
}

export async function areFriends(userId: string, otherId: string): Promise<boolean> {
  if (userId === otherId) return false;
  const row = await prisma().friendship.findUnique({ where: { userId_friendId: { userId, friendId: otherId } }, select: { id: true } });
  return !!row;
}

const memorialWithMedia = {
  media: { orderBy: [{ order: "asc" }, { createdAt: "asc" }] },
  user: { select: { isAdmin: true } },
  // A handful of rows at most: enough to know each viewer's role (access-rules.ts roleOf).
  managers: { select: { userId: true, role: true } },
} satisfies Prisma.MemorialInclude;

/** The viewer's role on a memorial loaded with its managers (owner | manager | editor | none). */
export function roleOnMemorial(memorial: { userId: string; managers: { userId: string; role: string }[] }, viewer: Viewer): MemorialRole {
  return roleOf(memorial, viewer, viewer ? memorial.managers.find((m) => m.userId === viewer.id)?.role : null);
}

/** The memorials whose content this member may edit: their own and those they co-manage (canEditContent). */
export function editableWhere(userId: string): Prisma.MemorialWhereInput {
  return { OR: [{ userId }, { managers: { some: { userId } } }] };
}

/** One member's role on one memorial, from the database. */
export async function memorialRole(id: string, viewer: Viewer): Promise<MemorialRole> {
  if (!viewer || !isRecordId(id)) return "none";
  const memorial = await prisma().memorial.findUnique({
    where: { id },
    select: { userId: true, managers: { where: { userId: viewer.id }, select: { userId: true, role: true } } },
  });
  return memorial ? roleOnMemorial(memorial, viewer) : "none";
}

/** The actor's role on a memorial when it lets them edit its content (the timeline, its events), else null. */
export async function contentEditorRole(memorialId: string, actor: Actor): Promise<MemorialRole | null> {
  if (!isRecordId(memorialId)) return null;
  const role = await memorialRole(memorialId, { id: actor.id, isAdmin: actor.isAdmin });
  return canEditContent(role) ? role : null;
}

/** A co-manager's change to a memorial's content, in the audit log within the change's transaction; the owner's own changes are not logged. */
export async function auditCoEdit(tx: Prisma.TransactionClient, role: MemorialRole, actor: Actor, memorialId: string, what: string) {
  if (role === "owner") return;
  await recordAudit(
    tx,
    { ...actor, isAdmin: false },
    { action: "memorial.co-edit", targetType: "memorial", targetId: memorialId, summary: `As ${role}: ${what}` },
  );
}
export type MemorialWithMedia = Prisma.MemorialGetPayload<{ include: typeof memorialWithMedia }>;

/** What the /api says for a memorial that is missing or not the caller's to see or change (never which). */
export const MEMORIAL_NOT_FOUND = "Memorial not found";

export type MemorialLookup =
  { status: "ok"; memorial: MemorialWithMedia; isOwner: boolean; role: MemorialRole } | { status: "locked"; reason: LockReason } | { status: "not-found" };

/** One memorial as this viewer may see it: the memorial, a lock reason, or not found. */
export async function findMemorialForViewer(id: string, viewer: Viewer): Promise<MemorialLookup> {
  const memorial = await prisma().memorial.findUnique({ where: { id }, include: memorialWithMedia });
  if (!memorial) return { status: "not-found" };
  const needsFriendCheck = !!viewer && memorial.isPublished && memorial.visibility === "friends" && viewer.id !== memorial.userId;
  const isFriend = needsFriendCheck ? await areFriends(memorial.userId, viewer.id) : false;
  const role = roleOnMemorial(memorial, viewer);
  const decision = decideAccess(memorial, viewer, isFriend, role === "editor" || role === "manager" ? role : null);
  if (!decision.allowed) return { status: "locked", reason: decision.reason };
  return { status: "ok", memorial, isOwner: role === "owner", role };
}

/** The memorial this member may delete: their own, or any for an administrator. */
export async function findDeletableMemorial(id: string, member: { id: string; isAdmin: boolean }) {
  const lookup = await findMemorialForViewer(id, member);
  if (lookup.status !== "ok") return null;
  if (lookup.memorial.userId !== member.id && !member.isAdmin) return null;
  return lookup.memorial;
}

/** Just enough to decide access to a memorial's files (the media route runs this per request). */
export async function canViewMemorial(id: string, viewer: Viewer): Promise<{ allowed: boolean; isPublic: boolean } | null> {
  const memorial = await prisma().memorial.findUnique({ where: { id }, select: { userId: true, isPublished: true, visibility: true } });
  if (!memorial) return null;
  const isPublic = memorial.isPublished && memorial.visibility === "public";
  if (isPublic) return { allowed: true, isPublic };
  const isFriend = !!viewer && memorial.visibility === "friends" && memorial.isPublished ? await areFriends(memorial.userId, viewer.id) : false;
  const role = viewer && viewer.id !== memorial.userId ? await memorialRole(id, viewer) : "none";
  return { allowed: decideAccess(memorial, viewer, isFriend, role === "editor" || role === "manager" ? role : null).allowed, isPublic };
}

/** Whether the user may edit this memorial (owner or co-manager): checked before a route reads an upload's body. */
export async function mayEditMemorial(id: string, userId: string): Promise<boolean> {
  if (!isRecordId(id)) return false;
  return (await prisma().memorial.count({ where: { id, ...editableWhere(userId) } })) > 0;
}

/** Whether a memorial exists at all: tells "not found" (404) from "not yours" (Access denied) on edit. */
export async function memorialExists(id: string): Promise<boolean> {
  if (!isRecordId(id)) return false;
  return (await prisma().memorial.count({ where: { id } })) > 0;
}

/** The memorial if the user may edit it, owner or co-manager (for edit screens and writes), else null. */
export function findEditableMemorial(id: string, userId: string) {
  return prisma().memorial.findFirst({ where: { id, ...editableWhere(userId) }, include: memorialWithMedia });
}

const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Our ids are UUIDs (schema.prisma): anything else is simply not found, without asking the database. */
export function isRecordId(value: string | undefined): value is string {
  return !!value && RECORD_ID.test(value);
}
