import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { MAX_PAGE_NUMBER } from "~/utils/paging";
import { galleryCards } from "./gallery.server";

// A member's own memorials: My Memorials (searched, paged) and the dashboard's counts.

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
