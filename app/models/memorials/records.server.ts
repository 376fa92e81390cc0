import { Prisma } from "~/generated/prisma/client";
import { getDatabase, prisma, unlessGone } from "~/services/db.server";
import { driverRows, sqlQuery } from "~/services/sql-statements.server";
import { holdAdvisoryLock } from "~/services/transaction-locks.server";
import { publicUrl } from "~/services/env.server";
import { parseShortId, permanentPath } from "~/utils/short-id";
import { atFreeMemorialLimit, isPaidPlan } from "~/utils/plans";
import type { Visibility } from "~/utils/validation/account-rules";
import type { MemorialInput } from "~/utils/validation/memorial";
import { recordAudit } from "../audit.server";
import { deleteReplacedPortrait, deleteStoredMedia } from "./media.server";
import { canChangeVisibility, canEditContent, type Viewer } from "./access-rules";
import { editableWhere, isRecordId, roleOnMemorial, visibleWhere } from "./access.server";

// A memorial's own record: creating it (within the free plan's limit), editing it, undoing a creation
// that could not finish, its permanent address, and its /api shape.

export class MemorialLimitError extends Error {
  constructor() {
    super("memorial limit reached");
  }
}

function toDate(value: string | null | undefined) {
  return value ? new Date(`${value}T00:00:00Z`) : null;
}

/** "If no title is given it is set to first and last name joined". */
export function titleFor(input: { title?: string | null; firstName: string; lastName: string }) {
  return input.title?.trim() || `${input.firstName} ${input.lastName}`.trim();
}

type MemorialOwner = { id: string; subscriptionPlan: string; subscriptionExpiryDate: Date | null };

/**
 * Whether the member has already reached the free plan's limit, so Create Memorial can say so before
 * the form is filled in. createMemorial checks again under its lock: this is only a forecast.
 */
export async function hasReachedMemorialLimit(owner: MemorialOwner): Promise<boolean> {
  if (isPaidPlan(owner.subscriptionPlan, owner.subscriptionExpiryDate)) return false;
  return atFreeMemorialLimit(owner, await prisma().memorial.count({ where: { userId: owner.id } }));
}

/**
 * Creates a memorial for the owner. A free user may hold at most FREE_MEMORIAL_LIMIT: counted inside a transaction
 * under a per-user lock, so two quick submissions cannot both slip past the limit.
 */
export async function createMemorial(owner: MemorialOwner, input: MemorialInput) {
  return prisma().$transaction(async (tx) => {
    if (!isPaidPlan(owner.subscriptionPlan, owner.subscriptionExpiryDate)) {
      await holdAdvisoryLock(tx, owner.id);
      const count = await tx.memorial.count({ where: { userId: owner.id } });
      if (atFreeMemorialLimit(owner, count)) throw new MemorialLimitError();
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
        category: input.category ?? "individual",
        isPublished: input.isPublished,
      },
    });
  });
}

export type MemorialUpdate = Partial<MemorialInput> & { profileImageUrl?: string | null };

/** A partial update would leave the date of passing before the date of birth. */
export class MemorialDatesError extends Error {
  constructor() {
    super("The date of passing cannot be before the date of birth");
  }
}

/** An editor tried to change who may see the memorial or whether it is published (managers and the owner only). */
export class MemorialRoleError extends Error {
  constructor() {
    super("Only the owner or a manager can change who may see this memorial or whether it is published");
  }
}

/**
 * Updates a memorial the caller may edit (owner or co-manager, canEditContent); null when there is no
 * such memorial of theirs. Visibility and publishing need canChangeVisibility: an editor who sends them
 * unchanged is fine, changed is a MemorialRoleError. A co-manager's edit is recorded in the audit log.
 * A replaced profile photo's stored files are removed.
 */
export async function updateOwnMemorial(id: string, editor: string | { id: string; email: string; ip: string }, input: MemorialUpdate) {
  const actor = typeof editor === "string" ? null : editor;
  const editorId = typeof editor === "string" ? editor : editor.id;
  const existing = await prisma().memorial.findFirst({ where: { id, ...editableWhere(editorId) }, include: { managers: { where: { userId: editorId } } } });
  if (!existing) return null;
  const role = roleOnMemorial(existing, { id: editorId, isAdmin: false });
  if (!canEditContent(role)) return null;
  const changesVisibility =
    (input.visibility !== undefined && input.visibility !== existing.visibility) ||
    (input.isPublished !== undefined && input.isPublished !== existing.isPublished);
  if (changesVisibility && !canChangeVisibility(role)) throw new MemorialRoleError();
  const birth = input.dateOfBirth !== undefined ? toDate(input.dateOfBirth) : existing.dateOfBirth;
  const passing = input.dateOfPassing !== undefined ? toDate(input.dateOfPassing) : existing.dateOfPassing;
  if (birth && passing && passing < birth) throw new MemorialDatesError();
  const replacedPortrait =
    input.profileImageUrl !== undefined && existing.profileImageUrl && input.profileImageUrl !== existing.profileImageUrl ? existing.profileImageUrl : null;
  const updated = await unlessGone(writeMemorialUpdate(id, existing, input));
  if (!updated) return null;
  if (role !== "owner") {
    const who = actor ?? { id: editorId, email: (await prisma().user.findUnique({ where: { id: editorId }, select: { email: true } }))?.email ?? "", ip: "" };
    await recordAudit(
      prisma(),
      { ...who, isAdmin: false },
      {
        action: "memorial.co-edit",
        targetType: "memorial",
        targetId: id,
        summary: `Edited as ${role}: ${changedFields(input).join(", ") || "no fields"}`,
      },
    );
  }
  await deleteReplacedPortrait(id, replacedPortrait);
  return updated;
}

function changedFields(input: MemorialUpdate) {
  return Object.entries(input)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
}

function writeMemorialUpdate(id: string, existing: { title: string; firstName: string; lastName: string }, input: MemorialUpdate) {
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
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.isPublished !== undefined ? { isPublished: input.isPublished } : {}),
      ...(input.profileImageUrl !== undefined ? { profileImageUrl: input.profileImageUrl } : {}),
    },
  });
}

/**
 * Undoes a creation that could not finish (a photo failed to store): the owner's brand-new memorial goes
 * at once, rows and files, since nobody has seen it. Every other deletion keeps the 30-day window
 * (deleteMemorial in deletion.server.ts).
 */
export async function discardNewMemorial(id: string, ownerId: string): Promise<void> {
  const memorial = await prisma().memorial.findFirst({
    where: { id, userId: ownerId },
    select: { profileImageUrl: true, media: { select: { mediaUrl: true } } },
  });
  if (!memorial) return;
  await prisma().memorial.deleteMany({ where: { id, userId: ownerId } });
  await deleteStoredMedia([...new Set([memorial.profileImageUrl, ...memorial.media.map((m) => m.mediaUrl)])].filter((u): u is string => !!u));
}

const publicUpdatedAt = sqlQuery({
  name: "memorials.publicUpdatedAt",
  columns: { updatedAt: "timestamptz" },
  sql: (id: string) =>
    Prisma.sql`SELECT "updatedAt" AT TIME ZONE 'UTC' AS "updatedAt" FROM memorials WHERE id = ${id} AND "isPublished" AND visibility = 'public'`,
  examples: [["memorial"]],
});

/**
 * The version of a memorial that anyone may see (published and public): its updatedAt, which every
 * change to what the page shows moves on (edits, media, approved or removed tributes). Null for a
 * memorial that is missing, a draft, or not public: such a page is never served from a shared copy.
 */
export async function publicMemorialVersion(id: string): Promise<Date | null> {
  if (!isRecordId(id)) return null;
  const rows = await driverRows(getDatabase().sql, publicUpdatedAt(id));
  return rows[0]?.updatedAt ?? null;
}

/** A memorial's permanent address, absolute (PUBLIC_URL, never the request's Host): what its QR code carries. */
export function permanentUrl(shortId: string): string {
  return `${publicUrl()}${permanentPath(shortId)}`;
}

/**
 * The memorial a permanent address /m/<shortId> names, for anyone: only its id, and only while it is live
 * (the "memorials" view), so a deleted one is as unknown as on its own page. Its page decides who sees it.
 */
export async function findMemorialIdByShortId(value: string | undefined): Promise<string | null> {
  const shortId = parseShortId(value);
  if (!shortId) return null;
  const memorial = await prisma().memorial.findUnique({ where: { shortId }, select: { id: true } });
  return memorial?.id ?? null;
}

/**
 * The memorial in the /api shape: dates as YYYY-MM-DD, plus fields of our own beside the usual ones
 * (docs/decisions/028-permanent-address-and-qr.md): its short id and permanent address.
 */
export function toApiMemorial(m: {
  id: string;
  shortId: string;
  userId: string;
  title: string;
  firstName: string;
  lastName: string;
  dateOfBirth: Date | null;
  dateOfPassing: Date | null;
  biography: string | null;
  profileImageUrl: string | null;
  visibility: string;
  category?: string;
  isPublished: boolean;
  viewCount: number;
  createdAt: Date;
  updatedAt: Date;
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
    category: m.category ?? "individual",
    isPublished: m.isPublished,
    viewCount: m.viewCount,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    shortId: m.shortId,
    permanentUrl: permanentUrl(m.shortId),
  };
}

export type ListFilters = { visibility?: Visibility; userId?: string; search?: string; limit?: number; offset?: number };

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
