import { Prisma } from "~/generated/prisma/client";
import { getDatabase, prisma, type Database } from "~/services/db.server";
import { queryRows, sqlQuery } from "~/services/sql-statements.server";
import { BROWSE_MAX_PAGES, BROWSE_PAGE_SIZE, type BrowseQuery } from "~/utils/browse";

// Memorials as cards for visitors: the landing page's recent ones, and the public gallery (/memorials
// and /market) searched, filtered, sorted and paged in the database.

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

// The gallery's query as SQL; the check describes it with a search, a category and each order.
const publicMemorialIds = sqlQuery({
  name: "gallery.publicMemorialIds",
  columns: { id: "text" },
  sql: (query: BrowseQuery, limit: number) => {
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
    return Prisma.sql`SELECT "id" FROM "memorials" WHERE ${Prisma.join(conditions, " AND ")} ORDER BY ${order} LIMIT ${limit}`;
  },
  examples: [
    [{}, 13],
    [{ search: "rose", category: "individual", sort: "popular" }, 13],
    [{ search: "rose", sort: "alphabetical" }, 13],
  ],
});

/**
 * One page (pages 1..N together, for Load More without JavaScript) of the gallery. Search is a
 * case-insensitive substring match over name, title and biography, served by the trigram index.
 */
export async function findPublicMemorials(query: BrowseQuery): Promise<BrowseFound> {
  const page = Math.min(Math.max(Math.floor(query.page ?? 1) || 1, 1), BROWSE_MAX_PAGES);
  const limit = page * BROWSE_PAGE_SIZE;
  const rows = await queryRows(prisma(), publicMemorialIds(query, limit + 1));
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
