import { prisma } from "~/services/db.server";

// Memorials: all data access and rules about memorials live here (DESIGN.md "Rules that hold everywhere").

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
