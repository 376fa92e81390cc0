import { randomUUID } from "node:crypto";
import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { detectImageType, ImageRejectedError } from "~/services/images.server";
import { groupOf, PRODUCTS_PER_PAGE, SHOP_GROUP_IDS, SHOP_GROUPS, type ShopGroup } from "~/utils/shop";
import { formatPence } from "~/utils/money";
import { MAX_IMAGE_BYTES } from "~/utils/upload-limits";
import { pageWindow } from "~/utils/paging";
import { ADMIN_MESSAGES, ADMIN_PAGE_SIZE, type ProductInput } from "~/utils/validation/admin";
import { recordAudit, type AdminActor } from "../audit.server";
import { deleteStoredMedia, imageSources, storeImage } from "../memorials/media.server";

// Products: the shop shows active products only,
// with real data (no made-up ratings, review counts or badges). Prices are pence. Creating, editing and
// removing products is the admin dashboard's (below); the
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

/** GET /api/products: every active product, or those of one shop group (?category=physical…). */
export function listActiveProductsForApi(group: ShopGroup | null) {
  return prisma().product.findMany({
    where: { isActive: true, ...groupWhere(group) },
    orderBy: [{ createdAt: "desc" }, { name: "asc" }],
    select: productFields,
    take: 500,
  });
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
 * Stores an uploaded product picture (an image, at most 5MB) as an
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

// ───────────────────────────── the admin dashboard's Products tab ─────────────────────────────

/** Every product, active or not, newest first, searched by name or category. */
export async function listProductsForAdmin({ search = "", page = 1 }: { search?: string; page?: number } = {}) {
  const where: Prisma.ProductWhereInput = search
    ? { OR: [{ name: { contains: search, mode: "insensitive" } }, { category: { contains: search, mode: "insensitive" } }] }
    : {};
  const total = await prisma().product.count({ where });
  const w = pageWindow(total, page, ADMIN_PAGE_SIZE);
  const rows = await prisma().product.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: w.skip,
    take: w.take,
    select: { ...productFields, _count: { select: { orderItems: true } } },
  });
  return { items: rows.map(({ _count, ...p }) => ({ ...p, orders: _count.orderItems })), total, page: w.page, pages: w.pages };
}

/** GET /api/admin/products: every product, bounded. */
export function listProductsForApi({ limit = 100, offset = 0 } = {}) {
  return prisma().product.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: offset, take: limit, select: productFields });
}

export function findProduct(id: string) {
  return prisma().product.findUnique({ where: { id }, select: productFields });
}

/** Creates a product (the product form's input is already checked), recorded. */
export async function createProduct(actor: AdminActor, input: ProductInput) {
  return prisma().$transaction(async (tx) => {
    const product = await tx.product.create({ data: productData(input), select: productFields });
    await recordAudit(tx, actor, {
      action: "product.create",
      targetType: "product",
      targetId: product.id,
      summary: `${product.name} at ${formatPence(product.price)}`,
    });
    return product;
  });
}

export type UpdateProductResult =
  { ok: true; product: ProductRow } | { ok: false; reason: "not-found" } | { ok: false; reason: "stock-changed"; stock: number; message: string };

/**
 * Edits a product; a replaced uploaded picture's files are removed. The stock is never
 * written back as it was when the editor loaded it: with `expectedStock` (the figure the
 * form or the /api client read), a stock left as it was is not touched, so whatever sold meanwhile stays
 * sold; a changed stock is set only if it is still the figure the editor saw (a conditional update), and
 * otherwise nothing is saved and the editor is told the current figure. Without `expectedStock` (an /api
 * client that sent none, in the original request shape) a stock equal to the current figure is left alone, and a
 * different one is refused the same way: nothing tells whether it is a restock or a figure read before a
 * sale, and a sale must never be undone.
 */
export async function updateProduct(actor: AdminActor, id: string, input: ProductInput): Promise<UpdateProductResult> {
  const before = await findProduct(id);
  if (!before) return { ok: false, reason: "not-found" };
  const expectedStock = input.expectedStock ?? before.stockQuantity;
  const keepStock = input.stockQuantity === expectedStock;
  if (input.expectedStock === undefined && !keepStock) return stockChanged(before.stockQuantity);
  const result = await prisma().$transaction(async (tx) => {
    const { stockQuantity, ...rest } = productData(input);
    const where: Prisma.ProductWhereInput = { id, ...(keepStock ? {} : { stockQuantity: expectedStock }) };
    const updated = await tx.product.updateMany({ where, data: keepStock ? rest : { ...rest, stockQuantity } });
    if (!updated.count) return null;
    const stockNote = keepStock ? "" : `, stock ${stockQuantity}`;
    await recordAudit(tx, actor, {
      action: "product.update",
      targetType: "product",
      targetId: id,
      summary: `${input.name} at ${formatPence(input.price)}${stockNote}${input.isActive ? "" : " (inactive)"}`,
    });
    return tx.product.findUnique({ where: { id }, select: productFields });
  });
  if (!result) {
    const now = await findProduct(id);
    if (!now) return { ok: false, reason: "not-found" };
    return stockChanged(now.stockQuantity);
  }
  if (before.imageUrl && input.imageUrl !== undefined && before.imageUrl !== result.imageUrl) await deleteStoredMedia([before.imageUrl]);
  return { ok: true, product: result };
}

function stockChanged(stock: number): UpdateProductResult {
  return { ok: false, reason: "stock-changed", stock, message: ADMIN_MESSAGES.stockChanged(stock) };
}

export type RemoveProductResult = { ok: true; outcome: "deleted" | "deactivated"; name: string } | { ok: false };

/**
 * Deletes a product, or deactivates it when it has been ordered: the orders keep pointing
 * at it, and it leaves the shop and every basket either way.
 */
export async function removeProduct(actor: AdminActor, id: string): Promise<RemoveProductResult> {
  const result = await prisma().$transaction(async (tx) => {
    const product = await tx.product.findUnique({ where: { id }, select: { name: true, imageUrl: true, _count: { select: { orderItems: true } } } });
    if (!product) return null;
    if (product._count.orderItems > 0) {
      await tx.product.update({ where: { id }, data: { isActive: false } });
      await tx.cartItem.deleteMany({ where: { productId: id } });
      await recordAudit(tx, actor, { action: "product.deactivate", targetType: "product", targetId: id, summary: product.name });
      return { outcome: "deactivated" as const, name: product.name, imageUrl: null };
    }
    await tx.product.delete({ where: { id } });
    await recordAudit(tx, actor, { action: "product.delete", targetType: "product", targetId: id, summary: product.name });
    return { outcome: "deleted" as const, name: product.name, imageUrl: product.imageUrl };
  });
  if (!result) return { ok: false };
  if (result.imageUrl) await deleteStoredMedia([result.imageUrl]);
  return { ok: true, outcome: result.outcome, name: result.name };
}

function productData(input: ProductInput) {
  return {
    name: input.name,
    description: input.description,
    category: input.category,
    price: input.price,
    stockQuantity: input.stockQuantity,
    isActive: input.isActive,
    ...(input.imageUrl !== undefined ? { imageUrl: input.imageUrl } : {}),
  };
}
