import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";

// What search engines may list: published public memorials only, in child sitemaps of bounded size.

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
