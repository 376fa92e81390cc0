import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { FREE_MEMORIAL_LIMIT, isPaidPlan } from "~/utils/plans";
import type { MemorialInput } from "~/utils/validation/memorial";
import { decideAccess, type LockReason, type Viewer } from "./memorial-access";

// Memorials: all data access and rules about memorials live here (DESIGN.md "Rules that hold
// everywhere"). Who may see what is decided by decideAccess (memorial-access.ts) for one memorial and
// by visibleWhere for lists: both say the same, and the tests check it.

/** What a memorial card on a public page needs; nothing more leaves the server. */
export type MemorialCard = {
  id: string;
  firstName: string;
  lastName: string;
  biography: string | null;
  profileImageUrl: string | null;
};

/**
 * The newest published public memorials, for the landing page's Recent Memorials.
 * Uses the (visibility, isPublished, createdAt) index; bounded by `limit`.
 */
export async function listRecentPublicMemorials(limit: number): Promise<MemorialCard[]> {
  return prisma().memorial.findMany({
    where: { visibility: "public", isPublished: true },
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(limit, 0), 50),
    select: { id: true, firstName: true, lastName: true, biography: true, profileImageUrl: true },
  });
}

/** The memorials a viewer may see, as a Prisma filter (the list form of decideAccess). */
export function visibleWhere(viewer: Viewer): Prisma.MemorialWhereInput {
  const published = { isPublished: true, visibility: "public" };
  if (viewer?.isAdmin) return {};
  if (!viewer) return published;
  return {
    OR: [
      { userId: viewer.id },
      published,
      // Friendships are stored in both directions: the owner's row naming the viewer is enough.
      { isPublished: true, visibility: "friends", user: { friendships: { some: { friendId: viewer.id } } } },
    ],
  };
}

export async function areFriends(userId: string, otherId: string): Promise<boolean> {
  if (userId === otherId) return false;
  const row = await prisma().friendship.findUnique({ where: { userId_friendId: { userId, friendId: otherId } }, select: { id: true } });
  return !!row;
}

const memorialWithMedia = {
  media: { orderBy: [{ order: "asc" }, { createdAt: "asc" }] },
  user: { select: { isAdmin: true } },
} satisfies Prisma.MemorialInclude;
export type MemorialWithMedia = Prisma.MemorialGetPayload<{ include: typeof memorialWithMedia }>;

export type MemorialLookup =
  | { status: "ok"; memorial: MemorialWithMedia; isOwner: boolean }
  | { status: "locked"; reason: LockReason }
  | { status: "not-found" };

/** One memorial as this viewer may see it: the memorial, a lock reason, or not found. */
export async function findMemorialForViewer(id: string, viewer: Viewer): Promise<MemorialLookup> {
  const memorial = await prisma().memorial.findUnique({ where: { id }, include: memorialWithMedia });
  if (!memorial) return { status: "not-found" };
  const needsFriendCheck = !!viewer && memorial.isPublished && memorial.visibility === "friends" && viewer.id !== memorial.userId;
  const isFriend = needsFriendCheck ? await areFriends(memorial.userId, viewer.id) : false;
  const decision = decideAccess(memorial, viewer, isFriend);
  if (!decision.allowed) return { status: "locked", reason: decision.reason };
  return { status: "ok", memorial, isOwner: viewer?.id === memorial.userId };
}

/** Just enough to decide access to a memorial's files (the media route runs this per request). */
export async function canViewMemorial(id: string, viewer: Viewer): Promise<{ allowed: boolean; isPublic: boolean } | null> {
  const memorial = await prisma().memorial.findUnique({ where: { id }, select: { userId: true, isPublished: true, visibility: true } });
  if (!memorial) return null;
  const isPublic = memorial.isPublished && memorial.visibility === "public";
  if (isPublic) return { allowed: true, isPublic };
  const isFriend = !!viewer && memorial.visibility === "friends" && memorial.isPublished ? await areFriends(memorial.userId, viewer.id) : false;
  return { allowed: decideAccess(memorial, viewer, isFriend).allowed, isPublic };
}

export class MemorialLimitError extends Error {
  constructor() {
    super("memorial limit reached");
  }
}

function toDate(value: string | null | undefined) {
  return value ? new Date(`${value}T00:00:00Z`) : null;
}

/** "If no title is given it is set to first and last name joined" (memorial-core.md §4). */
export function titleFor(input: { title?: string | null; firstName: string; lastName: string }) {
  return input.title?.trim() || `${input.firstName} ${input.lastName}`.trim();
}

/**
 * Creates a memorial for the owner. A free user may hold at most 25: counted inside a transaction
 * under a per-user lock, so two quick submissions cannot both slip past the limit.
 */
export async function createMemorial(owner: { id: string; subscriptionPlan: string; subscriptionExpiryDate: Date | null }, input: MemorialInput) {
  return prisma().$transaction(async (tx) => {
    if (!isPaidPlan(owner.subscriptionPlan, owner.subscriptionExpiryDate)) {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${owner.id}))`;
      const count = await tx.memorial.count({ where: { userId: owner.id } });
      if (count >= FREE_MEMORIAL_LIMIT) throw new MemorialLimitError();
    }
    return tx.memorial.create({
      data: {
        userId: owner.id,
        title: titleFor(input),
        firstName: input.firstName,
        lastName: input.lastName,
        dateOfBirth: toDate(input.dateOfBirth),
        dateOfPassing: toDate(input.dateOfPassing),
        biography: input.biography,
        visibility: input.visibility,
        isPublished: input.isPublished,
      },
    });
  });
}

export type MemorialUpdate = Partial<MemorialInput> & { profileImageUrl?: string | null };

/** Updates a memorial the caller owns; null when there is no such memorial of theirs. */
export async function updateOwnMemorial(id: string, ownerId: string, input: MemorialUpdate) {
  const existing = await prisma().memorial.findFirst({ where: { id, userId: ownerId } });
  if (!existing) return null;
  const names = { firstName: input.firstName ?? existing.firstName, lastName: input.lastName ?? existing.lastName };
  return prisma().memorial.update({
    where: { id },
    data: {
      ...names,
      ...(input.title !== undefined || input.firstName !== undefined || input.lastName !== undefined
        ? { title: input.title === undefined ? existing.title : titleFor({ ...names, title: input.title }) }
        : {}),
      ...(input.dateOfBirth !== undefined ? { dateOfBirth: toDate(input.dateOfBirth) } : {}),
      ...(input.dateOfPassing !== undefined ? { dateOfPassing: toDate(input.dateOfPassing) } : {}),
      ...(input.biography !== undefined ? { biography: input.biography } : {}),
      ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
      ...(input.isPublished !== undefined ? { isPublished: input.isPublished } : {}),
      ...(input.profileImageUrl !== undefined ? { profileImageUrl: input.profileImageUrl } : {}),
    },
  });
}

/** The memorial if the user owns it (for edit screens and writes), else null. */
export function findOwnMemorial(id: string, ownerId: string) {
  return prisma().memorial.findFirst({ where: { id, userId: ownerId }, include: memorialWithMedia });
}

/**
 * Deletes a memorial the caller owns (or any, for an administrator), with its media rows, tributes
 * and shares (database cascade). Returns the stored-file URLs the caller must remove from storage.
 */
export async function deleteMemorial(id: string, actor: { id: string; isAdmin: boolean }) {
  const memorial = await prisma().memorial.findFirst({
    where: actor.isAdmin ? { id } : { id, userId: actor.id },
    select: { id: true, profileImageUrl: true, media: { select: { mediaUrl: true } } },
  });
  if (!memorial) return null;
  await prisma().memorial.delete({ where: { id } });
  return [memorial.profileImageUrl, ...memorial.media.map((m) => m.mediaUrl)].filter((u): u is string => !!u);
}

/** Counted once per page load; never fails the page (memorial-core.md §4 "View counter"). */
export async function recordView(id: string) {
  try {
    await prisma().memorial.update({ where: { id }, data: { viewCount: { increment: 1 } }, select: { id: true } });
  } catch {
    // A view that could not be counted is not worth an error page.
  }
}

/** The memorial in the /api shape: dates as YYYY-MM-DD (DESIGN.md). */
export function toApiMemorial(m: {
  id: string; userId: string; title: string; firstName: string; lastName: string; dateOfBirth: Date | null; dateOfPassing: Date | null;
  biography: string | null; profileImageUrl: string | null; visibility: string; isPublished: boolean; viewCount: number; createdAt: Date; updatedAt: Date;
}) {
  return {
    id: m.id,
    userId: m.userId,
    title: m.title,
    firstName: m.firstName,
    lastName: m.lastName,
    dateOfBirth: m.dateOfBirth ? m.dateOfBirth.toISOString().slice(0, 10) : null,
    dateOfPassing: m.dateOfPassing ? m.dateOfPassing.toISOString().slice(0, 10) : null,
    biography: m.biography,
    profileImageUrl: m.profileImageUrl,
    visibility: m.visibility,
    isPublished: m.isPublished,
    viewCount: m.viewCount,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

export type ListFilters = { visibility?: "public" | "friends" | "private"; userId?: string; search?: string; limit?: number; offset?: number };

/** The /api list: only what the viewer may see, filtered and bounded (never the whole table). */
export async function listMemorialsForViewer(viewer: Viewer, filters: ListFilters = {}) {
  const and: Prisma.MemorialWhereInput[] = [visibleWhere(viewer)];
  if (filters.visibility) and.push({ visibility: filters.visibility });
  if (filters.userId) and.push({ userId: filters.userId });
  const search = filters.search?.trim();
  if (search) {
    and.push({
      OR: [
        { firstName: { contains: search, mode: "insensitive" } },
        { lastName: { contains: search, mode: "insensitive" } },
        { title: { contains: search, mode: "insensitive" } },
        { biography: { contains: search, mode: "insensitive" } },
      ],
    });
  }
  return prisma().memorial.findMany({
    where: { AND: and },
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(filters.limit ?? 50, 1), 100),
    skip: Math.max(filters.offset ?? 0, 0),
  });
}
