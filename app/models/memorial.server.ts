import { Prisma } from "~/generated/prisma/client";
import { getDatabase, prisma, unlessGone, type Database } from "~/services/db.server";
import { getEnv, publicUrl } from "~/services/env.server";
import { BROWSE_MAX_PAGES, BROWSE_PAGE_SIZE, type BrowseQuery } from "~/utils/browse";
import { MAX_PAGE_NUMBER } from "~/utils/paging";
import { parseShortId, permanentPath } from "~/utils/short-id";
import { atFreeMemorialLimit, isPaidPlan } from "~/utils/plans";
import type { Visibility } from "~/utils/validation/account-rules";
import type { MemorialInput } from "~/utils/validation/memorial";
import { recordAudit, type Actor } from "./audit.server";
import { deleteReplacedPortrait, deleteStoredMedia } from "./media.server";
import { canChangeVisibility, canEditContent, decideAccess, roleOf, type LockReason, type MemorialRole, type Viewer } from "./memorial-access";

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
  /** Approved tributes: the ones a visitor can read. */
  tributeCount: number;
  viewCount: number;
};

/**
 * The newest published public memorials, for the landing page's Recent Memorials.
 * Uses the (visibility, isPublished, createdAt) index; bounded by `limit`.
 */
export async function listRecentPublicMemorials(limit: number): Promise<MemorialCard[]> {
  const rows = await prisma().memorial.findMany({
    where: { visibility: "public", isPublished: true },
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(limit, 0), 50),
    select: {
      id: true,
      firstName: true,
      lastName: true,
      biography: true,
      profileImageUrl: true,
      viewCount: true,
      _count: { select: { tributes: { where: { isApproved: true } } } },
    },
  });
  return rows.map(({ _count, ...m }) => ({ ...m, tributeCount: _count.tributes }));
}

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
  // A handful of rows at most: enough to know each viewer's role (memorial-access.ts roleOf).
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
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${owner.id}))`;
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

/**
 * Undoes a creation that could not finish (a photo failed to store): the owner's brand-new memorial goes
 * at once, rows and files, since nobody has seen it. Every other deletion keeps the 30-day window
 * (deleteMemorial in memorial-deletion.server.ts).
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

// The view counter. Page views are added up in memory and written
// in one statement about once a second, so that a busy memorial page does not write a row per visitor
// (and a view never touches updatedAt, which the anonymous page cache keys on). The server writes what
// is left when it stops (server/app.ts).
// VIEW_FLUSH_MS (default 1000) sets the interval; 0 writes each view before the page is answered, so a
// test that compares counts across requests sees every view it caused (issue 13 §8: no flaky test).
const pendingViews = new Map<string, number>();
let viewFlush: ReturnType<typeof setTimeout> | undefined;

/** Counts one page view; never fails, and delays the page only when VIEW_FLUSH_MS is 0. */
export function recordView(id: string): Promise<void> {
  pendingViews.set(id, (pendingViews.get(id) ?? 0) + 1);
  const delay = getEnv().VIEW_FLUSH_MS;
  if (delay === 0) return flushViews();
  viewFlush ??= setTimeout(() => void flushViews(), delay).unref();
  return Promise.resolve();
}

/** Writes the views counted so far; views of memorials deleted meanwhile are dropped. */
export async function flushViews() {
  clearTimeout(viewFlush);
  viewFlush = undefined;
  if (pendingViews.size === 0) return;
  const ids = [...pendingViews.keys()];
  const counts = ids.map((id) => pendingViews.get(id)!);
  pendingViews.clear();
  try {
    await getDatabase().sql.query(
      `UPDATE memorials AS m SET "viewCount" = m."viewCount" + v.n FROM unnest($1::text[], $2::int[]) AS v(id, n) WHERE m.id = v.id`,
      [ids, counts],
    );
  } catch {
    // A view that could not be counted is not worth an error page.
  }
}

/**
 * The version of a memorial that anyone may see (published and public): its updatedAt, which every
 * change to what the page shows moves on (edits, media, approved or removed tributes). Null for a
 * memorial that is missing, a draft, or not public: such a page is never served from a shared copy.
 */
export async function publicMemorialVersion(id: string): Promise<Date | null> {
  if (!isRecordId(id)) return null;
  const rows = await getDatabase().sql.query<{ updatedAt: Date | string }>(
    `SELECT "updatedAt" FROM memorials WHERE id = $1 AND "isPublished" AND visibility = 'public'`,
    [id],
  );
  return rows[0] ? new Date(rows[0].updatedAt) : null;
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
 * How many memorials one child sitemap lists (docs/decisions/032-sitemap-index.md): well under the
 * protocol's 50,000 addresses and 50 MB (about 1 MB of XML), and one bounded read per child.
 */
export const SITEMAP_PAGE_SIZE = 10_000;

/** The most children a sitemap index may name (sitemaps.org); with 10,000 a child, 500 million memorials. */
export const SITEMAP_MAX_CHILDREN = 50_000;

/**
 * The memorials a search engine may list: published and public only, never an unlisted,
 * friends-only, private, draft or deleted one ("memorials" leaves deleted ones out). Read on every request,
 * so a change of visibility shows at once.
 */
const SITEMAP_WHERE = { visibility: "public", isPublished: true } satisfies Prisma.MemorialWhereInput;

/** How many child sitemaps of `size` memorials the listable memorials fill (0 when there are none): one count, from the (visibility, isPublished, createdAt) index. */
export async function countSitemapChildren(size = SITEMAP_PAGE_SIZE): Promise<number> {
  return Math.ceil((await prisma().memorial.count({ where: SITEMAP_WHERE })) / size);
}

/**
 * Child sitemap `child` (from 1): the listable memorials in order of creation, oldest first, and among those
 * made at the same instant by id, `size` to a child; empty past the end. Oldest first, so a new memorial
 * joins the last child and the others stay as they were (their ETags still answer 304).
 *
 * Two statements, both on the (visibility, isPublished, createdAt) index: the key (createdAt, id) of the
 * last memorial of the child before — the index walked past `(child - 1) × size` entries reading only keys —
 * then the child's memorials after that key (keyset: `createdAt >= key` bounds the index scan, ties on
 * createdAt are ordered by id), at most `size` of them. The first child needs only the second.
 */
export async function listSitemapChild(child: number, size = SITEMAP_PAGE_SIZE): Promise<{ id: string; updatedAt: Date }[]> {
  if (!Number.isSafeInteger(child) || child < 1 || !Number.isSafeInteger(size) || size < 1) return [];
  const orderBy = [{ createdAt: "asc" }, { id: "asc" }] satisfies Prisma.MemorialOrderByWithRelationInput[];
  let after: { createdAt: Date; id: string } | null = null;
  if (child > 1) {
    after = await prisma().memorial.findFirst({ where: SITEMAP_WHERE, orderBy, skip: (child - 1) * size - 1, select: { createdAt: true, id: true } });
    if (!after) return [];
  }
  return prisma().memorial.findMany({
    where: after
      ? { ...SITEMAP_WHERE, createdAt: { gte: after.createdAt }, OR: [{ createdAt: { gt: after.createdAt } }, { id: { gt: after.id } }] }
      : SITEMAP_WHERE,
    orderBy,
    take: size,
    select: { id: true, updatedAt: true },
  });
}

/**
 * The memorial in the /api shape: dates as YYYY-MM-DD, plus ours beside the spec's fields
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

// ---------------------------------------------------------------------------------------------
// The public gallery (/memorials and /market): published
// public memorials only, searched, filtered, sorted and paged in the database.

export { BROWSE_CATEGORIES, BROWSE_MAX_PAGES, BROWSE_PAGE_SIZE, BROWSE_SORTS, type BrowseQuery } from "~/utils/browse";

/** Must match the expression of the trigram index in migration 20261122030000_browse. */
const memorialSearchText = Prisma.sql`lower("firstName" || ' ' || "lastName" || ' ' || "title" || ' ' || coalesce("biography", ''))`;

function escapeLike(term: string) {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export type GalleryCard = MemorialCard & {
  title: string;
  dateOfBirth: Date | null;
  dateOfPassing: Date | null;
  viewCount: number;
  createdAt: Date;
  category: string;
  tributeCount: number;
  firstImageUrl: string | null;
};

/** Which memorials the gallery shows for a query: the ids in order (the first `page` × BROWSE_PAGE_SIZE), and whether more follow. */
export type BrowseFound = { ids: string[]; hasMore: boolean; page: number };

/** The gallery's cards for a query; `found`, when the ids were looked up already (server/search-template.ts). */
export async function browseMemorials(query: BrowseQuery, found?: BrowseFound): Promise<{ items: GalleryCard[]; hasMore: boolean; page: number }> {
  const { ids, hasMore, page } = found ?? (await findPublicMemorials(query));
  return { items: await galleryCards(ids), hasMore, page };
}

/**
 * One page (pages 1..N together, for Load More without JavaScript) of the gallery. Search is a
 * case-insensitive substring match over name, title and biography, served by the trigram index.
 */
export async function findPublicMemorials(query: BrowseQuery): Promise<BrowseFound> {
  const page = Math.min(Math.max(Math.floor(query.page ?? 1) || 1, 1), BROWSE_MAX_PAGES);
  const limit = page * BROWSE_PAGE_SIZE;
  const conditions = [Prisma.sql`"isPublished" AND "visibility" = 'public'`];
  const search = query.search?.trim().toLowerCase().slice(0, 100);
  if (search) conditions.push(Prisma.sql`${memorialSearchText} LIKE ${`%${escapeLike(search)}%`}`);
  if (query.category && query.category !== "all") conditions.push(Prisma.sql`"category" = ${query.category}`);
  const order =
    query.sort === "popular"
      ? Prisma.sql`"viewCount" DESC, "createdAt" DESC`
      : query.sort === "alphabetical"
        ? Prisma.sql`"lastName" ASC, "firstName" ASC, "id" ASC`
        : Prisma.sql`"createdAt" DESC`;
  const rows = await prisma().$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "memorials" WHERE ${Prisma.join(conditions, " AND ")} ORDER BY ${order} LIMIT ${limit + 1}`;
  return { ids: rows.slice(0, limit).map((r) => r.id), hasMore: rows.length > limit, page };
}

/** The Featured carousel's cards as last read, with the version of the public memorials read before. */
let featuredKept: { database: Database; version: string; count: number; cards: Promise<GalleryCard[]> } | null = null;

/**
 * The top memorials by views, for the Featured carousel. Given the version of the public memorials
 * (page_versions, which any change to a memorial, its views, photos or approved tributes moves) read
 * before this call, the cards are read once per version: every new search shows the same three. A read
 * made after the version was read is at least that new, so a later request with the same version may
 * share it; a newer version reads again.
 */
export function featuredMemorials(count = 3, memorialsVersion?: string): Promise<GalleryCard[]> {
  if (memorialsVersion === undefined) return readFeatured(count);
  const database = getDatabase();
  if (featuredKept?.database === database && featuredKept.version === memorialsVersion && featuredKept.count === count) return featuredKept.cards;
  const kept = { database, version: memorialsVersion, count, cards: readFeatured(count) };
  featuredKept = kept;
  // A failed read is not kept: the next request tries again.
  kept.cards.catch(() => featuredKept === kept && (featuredKept = null));
  return kept.cards;
}

async function readFeatured(count: number): Promise<GalleryCard[]> {
  const rows = await prisma().memorial.findMany({
    where: { isPublished: true, visibility: "public" },
    orderBy: [{ viewCount: "desc" }, { createdAt: "desc" }],
    take: count,
    select: { id: true },
  });
  return galleryCards(rows.map((r) => r.id));
}

/** Cards for these memorials, in this order: three queries however many cards (no N+1). */
export async function galleryCards(ids: string[]): Promise<GalleryCard[]> {
  if (!ids.length) return [];
  const [memorials, tributeCounts, firstImages] = await Promise.all([
    prisma().memorial.findMany({
      where: { id: { in: ids } },
      select: {
        id: true,
        firstName: true,
        lastName: true,
        title: true,
        biography: true,
        profileImageUrl: true,
        dateOfBirth: true,
        dateOfPassing: true,
        viewCount: true,
        createdAt: true,
        category: true,
      },
    }),
    prisma().tribute.groupBy({ by: ["memorialId"], where: { memorialId: { in: ids }, isApproved: true }, _count: { _all: true } }),
    prisma().memorialMedia.findMany({
      where: { memorialId: { in: ids }, mediaType: { startsWith: "image/" } },
      orderBy: [{ memorialId: "asc" }, { order: "asc" }],
      distinct: ["memorialId"],
      select: { memorialId: true, mediaUrl: true },
    }),
  ]);
  const byId = new Map(memorials.map((m) => [m.id, m]));
  const counts = new Map(tributeCounts.map((t) => [t.memorialId, t._count._all]));
  const images = new Map(firstImages.map((i) => [i.memorialId, i.mediaUrl]));
  return ids
    .map((id) => byId.get(id))
    .filter((m): m is NonNullable<typeof m> => !!m)
    .map((m) => ({ ...m, tributeCount: counts.get(m.id) ?? 0, firstImageUrl: images.get(m.id) ?? null }));
}
// ---------------------------------------------------------------------------------------------------
// /api additions (app/routes/api.memorials.*): id shape, the view counter's answer, shares.
// ---------------------------------------------------------------------------------------------------

const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Our ids are UUIDs (schema.prisma): anything else is simply not found, without asking the database. */
export function isRecordId(value: string | undefined): value is string {
  return !!value && RECORD_ID.test(value);
}

/** Counts one view and answers the new count; null when the memorial is gone or the count failed. */
export async function countView(id: string): Promise<number | null> {
  // Any page views not yet written are taken along, so the answer is the count as it stands.
  const pending = pendingViews.get(id) ?? 0;
  pendingViews.delete(id);
  try {
    const rows = await getDatabase().sql.query<{ viewCount: number }>(
      `UPDATE memorials SET "viewCount" = "viewCount" + $2 WHERE id = $1 RETURNING "viewCount"`,
      [id, 1 + pending],
    );
    return rows[0]?.viewCount ?? null;
  } catch {
    // As recordView: a view that could not be counted is not worth an error.
    return null;
  }
}

/** The share channels of the memorial page. */
export const SHARE_TYPES = ["facebook", "twitter", "copy_link"] as const;
export type ShareType = (typeof SHARE_TYPES)[number];

/** Records one share; the caller has already checked that the sharer may see the memorial. */
export async function recordShare(memorialId: string, sharedByUserId: string | null, shareType: ShareType, shareData?: Prisma.InputJsonValue | null) {
  const share = await prisma().memorialShare.create({
    data: { memorialId, sharedByUserId, shareType, ...(shareData === undefined || shareData === null ? {} : { shareData }) },
  });
  return {
    id: share.id,
    memorialId: share.memorialId,
    sharedByUserId: share.sharedByUserId,
    shareType: share.shareType,
    shareData: share.shareData,
    createdAt: share.createdAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// My Memorials: the member's own memorials only, searched case-insensitively on
// title, first and last name, newest first, paged.

export const OWN_PAGE_SIZE = 24;

export async function listOwnMemorials(userId: string, query: { search?: string; page?: number } = {}) {
  const page = Math.min(Math.max(Math.floor(query.page ?? 1) || 1, 1), MAX_PAGE_NUMBER);
  const search = query.search?.trim().slice(0, 100);
  const where: Prisma.MemorialWhereInput = {
    userId,
    ...(search
      ? {
          OR: [
            { title: { contains: search, mode: "insensitive" } },
            { firstName: { contains: search, mode: "insensitive" } },
            { lastName: { contains: search, mode: "insensitive" } },
          ],
        }
      : {}),
  };
  const [rows, total, all] = await Promise.all([
    prisma().memorial.findMany({
      where,
      orderBy: { createdAt: "desc" },
      skip: (page - 1) * OWN_PAGE_SIZE,
      take: OWN_PAGE_SIZE,
      select: { id: true, visibility: true, isPublished: true },
    }),
    prisma().memorial.count({ where }),
    search ? prisma().memorial.count({ where: { userId } }) : null,
  ]);
  const cards = await galleryCards(rows.map((r) => r.id));
  const state = new Map(rows.map((r) => [r.id, r]));
  return {
    items: cards.map((c) => ({ ...c, visibility: state.get(c.id)!.visibility, isPublished: state.get(c.id)!.isPublished })),
    total,
    totalOwned: all ?? total,
    page,
    pages: Math.max(1, Math.ceil(total / OWN_PAGE_SIZE)),
  };
}

// ---------------------------------------------------------------------------------------------
// The members' dashboard: counters counted in the database, the
// newest own memorials, and the community's newest public ones (listRecentPublicMemorials).

export const DASHBOARD_RECENT = 3;
export const DASHBOARD_HIGHLIGHTS = 4;

/** Your Memorials, Published and Drafts in one grouped count over the (userId, createdAt) index. */
export async function countOwnMemorials(userId: string): Promise<{ total: number; published: number; drafts: number }> {
  const groups = await prisma().memorial.groupBy({ by: ["isPublished"], where: { userId }, _count: { _all: true } });
  const published = groups.find((g) => g.isPublished)?._count._all ?? 0;
  const drafts = groups.find((g) => !g.isPublished)?._count._all ?? 0;
  return { total: published + drafts, published, drafts };
}

/** The member's newest memorials, for Your Recent Memorials. */
export function listRecentOwnMemorials(userId: string, limit = DASHBOARD_RECENT) {
  return prisma().memorial.findMany({
    where: { userId },
    orderBy: { createdAt: "desc" },
    take: Math.min(Math.max(limit, 0), 50),
    select: { id: true, firstName: true, lastName: true, profileImageUrl: true, visibility: true, isPublished: true, createdAt: true },
  });
}
