import { randomUUID } from "node:crypto";
import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { detectImageType, ImageRejectedError } from "~/services/images.server";
import { groupOf, PRODUCTS_PER_PAGE, SHOP_GROUP_IDS, SHOP_GROUPS, type ShopGroup } from "~/utils/shop";
import { MAX_IMAGE_BYTES } from "~/utils/upload-limits";
import { imageSources, storeImage } from "./media.server";

// Products (commerce-and-accounts.md §2 "Products", §3 "products"): the shop shows active products only,
// with real data (the spec's original made up ratings, review counts and badges on the client; we show
// none). Prices are pence. Creating and editing products is the admin dashboard's (a later issue); the
// picture it uploads is stored here, resized like memorial photos.

export const productFields = {
  id: true,
  name: true,
  description: true,
  price: true,
  imageUrl: true,
  category: true,
  stockQuantity: true,
  isActive: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.ProductSelect;

export type ProductRow = Prisma.ProductGetPayload<{ select: typeof productFields }>;

function groupWhere(group: ShopGroup | null): Prisma.ProductWhereInput {
  return group ? { category: { in: [...SHOP_GROUPS[group].categories] } } : {};
}

/** One page of active products, newest first (then by name), in a shop group when given. */
export async function listActiveProducts({ group = null, page = 1 }: { group?: ShopGroup | null; page?: number } = {}) {
  const where: Prisma.ProductWhereInput = { isActive: true, ...groupWhere(group) };
  const total = await prisma().product.count({ where });
  const pages = Math.max(1, Math.ceil(total / PRODUCTS_PER_PAGE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const items = await prisma().product.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { name: "asc" }, { id: "asc" }],
    skip: (current - 1) * PRODUCTS_PER_PAGE,
    take: PRODUCTS_PER_PAGE,
    select: productFields,
  });
  return { items, total, page: current, pages };
}

/** How many active products each shop group holds (the filter shows only groups that hold some). */
export async function countProductsByGroup(): Promise<Record<ShopGroup, number>> {
  const rows = await prisma().product.groupBy({ by: ["category"], where: { isActive: true }, _count: { _all: true } });
  const counts = Object.fromEntries(SHOP_GROUP_IDS.map((g) => [g, 0])) as Record<ShopGroup, number>;
  for (const row of rows) counts[groupOf(row.category)] += row._count._all;
  return counts;
}

/** GET /api/products (§7): every active product, or those of one shop group (?category=physical…). */
export function listActiveProductsForApi(group: ShopGroup | null) {
  return prisma().product.findMany({ where: { isActive: true, ...groupWhere(group) }, orderBy: [{ createdAt: "desc" }, { name: "asc" }], select: productFields, take: 500 });
}

export function toApiProduct(product: ProductRow) {
  return { ...product, shopCategory: groupOf(product.category) };
}

/** A product's picture with its resized copies (an uploaded one), or as it is (the demo's drawings). */
export function productImage(imageUrl: string | null): { src: string | null; srcSet?: string } {
  if (!imageUrl) return { src: null };
  const { src, srcSet } = imageSources(imageUrl);
  return { src, srcSet };
}

/**
 * Stores an uploaded product picture (commerce-and-accounts.md §5 "Images": an image, at most 5MB) as an
 * upright original and WebP copies at three widths, like memorial photos; answers its URL for imageUrl.
 */
export async function storeProductImage(bytes: Uint8Array): Promise<string> {
  const type = detectImageType(bytes);
  if (!type) throw new ImageRejectedError("type");
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new ImageRejectedError("size");
  try {
    return await storeImage(`products/${randomUUID()}`, bytes, type);
  } catch {
    throw new ImageRejectedError("unreadable");
  }
}
