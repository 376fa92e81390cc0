import { Prisma } from "~/generated/prisma/client";
import { getDatabase, prisma } from "~/services/db.server";
import { driverRows, sqlQuery } from "~/services/sql-statements.server";
import { basketTotals } from "~/utils/money";
import { MEMORIAL_ITEM, memorialItemName, MIN_QUANTITY, SHOP_MESSAGES } from "~/utils/shop";
import { byAddressWhere, isRecordId } from "../memorials/access.server";
import type { Viewer } from "../memorials/access-rules";
import { BOOK_MESSAGES, mayOrderBook } from "../memorials/book.server";
import { productImage } from "./products.server";

// The basket: one line per
// product and one per memorial for each member (unique in the database). A line is priced from the
// database when it is shown and when it is paid for, never from what a client sent; its quantity is at
// least 1 and at most the product's stock (a memorial, printed to order, at most MEMORIAL_ITEM.maxQuantity).
// Every use case answers a result union; the screens and the /api translate it.

type Member = NonNullable<Viewer>;

export type BasketLine = {
  id: string;
  kind: "product" | "memorial";
  productId: string | null;
  memorialId: string | null;
  name: string;
  /** What it is: the product's category, or what a memorial item is. */
  detail: string;
  image: { src: string | null; srcSet?: string };
  /** pence, per unit, as the database prices it now */
  unitPrice: number;
  quantity: number;
  lineTotal: number;
  /** The most that can be bought now: the stock, or the memorial item's limit (0 when none can). */
  maxQuantity: number;
  /** Why this line cannot be paid for as it is (sold out, fewer left, withdrawn), or null. */
  problem: string | null;
};

export type Basket = {
  lines: BasketLine[];
  /** Items, counting quantities (the badge). */
  count: number;
  subtotal: number;
  tax: number;
  total: number;
  /** Something in it cannot be paid for as it is: checkout waits until it is put right. */
  hasProblems: boolean;
};

const rowInclude = {
  product: { select: { id: true, name: true, imageUrl: true, price: true, category: true, stockQuantity: true, isActive: true } },
  memorial: { select: { id: true, firstName: true, lastName: true, biography: true, visibility: true, profileImageUrl: true, shopOffers: true } },
} satisfies Prisma.CartItemInclude;
type CartRow = Prisma.CartItemGetPayload<{ include: typeof rowInclude }>;

/** How many items are in the user's basket: the sum of quantities. */
export async function countCartItems(userId: string): Promise<number> {
  const { _sum } = await prisma().cartItem.aggregate({ where: { userId }, _sum: { quantity: true } });
  return _sum.quantity ?? 0;
}

/** The user's basket rows, oldest first, with the memorials among them they may still see. */
async function loadRows(user: Member) {
  const rows = await prisma().cartItem.findMany({ where: { userId: user.id }, include: rowInclude, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const memorialIds = rows.flatMap((r) => (r.memorialId ? [r.memorialId] : []));
  const visible = memorialIds.length
    ? new Set((await prisma().memorial.findMany({ where: { id: { in: memorialIds }, ...byAddressWhere(user) }, select: { id: true } })).map((m) => m.id))
    : new Set<string>();
  return { rows, visible };
}

function lineOf(row: CartRow, visible: Set<string>): BasketLine {
  if (row.product) {
    const p = row.product;
    const stock = p.isActive ? p.stockQuantity : 0;
    const problem = !p.isActive
      ? SHOP_MESSAGES.productGone
      : stock === 0
        ? SHOP_MESSAGES.outOfStock
        : row.quantity > stock
          ? SHOP_MESSAGES.quantityAboveStock(stock)
          : null;
    return {
      id: row.id,
      kind: "product",
      productId: p.id,
      memorialId: null,
      name: p.name,
      detail: p.category,
      image: productImage(p.imageUrl),
      unitPrice: p.price,
      quantity: row.quantity,
      lineTotal: p.price * row.quantity,
      maxQuantity: stock,
      problem,
    };
  }
  const m = row.memorial;
  const seen = !!m && visible.has(m.id);
  return {
    id: row.id,
    kind: "memorial",
    productId: null,
    memorialId: row.memorialId,
    // A memorial that has since been made private shows nothing of itself.
    name: seen ? memorialItemName(m) : "A memorial that is no longer available",
    detail: MEMORIAL_ITEM.kind,
    image: { src: seen ? m.profileImageUrl : null },
    unitPrice: MEMORIAL_ITEM.price,
    quantity: row.quantity,
    lineTotal: MEMORIAL_ITEM.price * row.quantity,
    maxQuantity: seen && m.shopOffers ? MEMORIAL_ITEM.maxQuantity : 0,
    problem: !seen
      ? "This memorial is no longer available."
      : !m.shopOffers
        ? BOOK_MESSAGES.off
        : row.quantity > MEMORIAL_ITEM.maxQuantity
          ? SHOP_MESSAGES.memorialLimit
          : null,
  };
}

/** The basket as the member sees it and as checkout charges it: every price and total from the database. */
export async function getBasket(user: Member): Promise<Basket> {
  const { rows, visible } = await loadRows(user);
  const lines = rows.map((row) => lineOf(row, visible));
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
  return {
    lines,
    count: lines.reduce((sum, l) => sum + l.quantity, 0),
    ...basketTotals(subtotal),
    hasProblems: lines.some((l) => l.problem !== null),
  };
}

/** GET /api/cart: each item with its product (id, name, imageUrl, stock) or memorial. */
export async function listCartForApi(user: Member) {
  const { rows, visible } = await loadRows(user);
  return rows.map((row) => toApiCartItem(row, visible));
}

function toApiCartItem(row: CartRow, visible: Set<string>) {
  const line = lineOf(row, visible);
  const m = row.memorial && visible.has(row.memorial.id) ? row.memorial : null;
  return {
    id: row.id,
    userId: row.userId,
    memorialId: row.memorialId,
    productId: row.productId,
    quantity: row.quantity,
    // What it costs now (the stored price is only what it cost when it was added).
    price: line.unitPrice,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    product: row.product
      ? { id: row.product.id, name: row.product.name, imageUrl: row.product.imageUrl, stock: row.product.isActive ? row.product.stockQuantity : 0 }
      : null,
    memorial: m
      ? { id: m.id, firstName: m.firstName, lastName: m.lastName, biography: m.biography, visibility: m.visibility, profileImageUrl: m.profileImageUrl }
      : null,
    name: line.name,
    problem: line.problem,
  };
}

/** A basket line as POST /api/cart answers it (the forms do not need it: they redirect). */
export async function cartItemForApi(user: Member, id: string) {
  const { rows, visible } = await loadRows(user);
  const row = rows.find((r) => r.id === id);
  return row ? toApiCartItem(row, visible) : null;
}

export type CartFailure = { ok: false; reason: "not-found" | "stock" | "unavailable"; message: string };
export type AddToCartResult = { ok: true; itemId: string; name: string; quantity: number } | CartFailure;

/**
 * Add to cart: needs stock above 0, and never more in the basket than is in stock. Adding a
 * product already in the basket adds to its line. The price is the database's.
 */
export async function addToCart(user: Member, input: { productId?: string; memorialId?: string; quantity?: number }): Promise<AddToCartResult> {
  const quantity = input.quantity ?? 1;
  if (!Number.isInteger(quantity)) return { ok: false, reason: "unavailable", message: SHOP_MESSAGES.quantityWhole };
  if (quantity < MIN_QUANTITY) return { ok: false, reason: "unavailable", message: SHOP_MESSAGES.quantityMin };
  return input.memorialId ? addMemorial(user, input.memorialId, quantity) : addProduct(user, input.productId ?? "", quantity);
}

/** Price is the product's Decimal or the book's number of pence: either goes as the parameter it is. */
type Price = Prisma.Decimal | number;

/** A basket line holds a product or a memorial's book: the column that names which, and its unique index. */
type LineColumn = "productId" | "memorialId";

// One statement: a new line, or more on the existing one only while it stays within `most`. The column is
// one of two names fixed here, never the caller's text.
const addLine = sqlQuery({
  name: "cart.addLine",
  columns: { id: "text", quantity: "int4" },
  sql: (column: LineColumn, userId: string, itemId: string, quantity: number, price: Price, most: number) => {
    const named = Prisma.raw(`"${column}"`);
    return Prisma.sql`INSERT INTO "cart_items" ("userId", ${named}, "quantity", "price") VALUES (${userId}, ${itemId}, ${quantity}, ${price})
     ON CONFLICT ("userId", ${named}) WHERE ${named} IS NOT NULL
     DO UPDATE SET "quantity" = "cart_items"."quantity" + EXCLUDED."quantity", "price" = EXCLUDED."price", "updatedAt" = CURRENT_TIMESTAMP
     WHERE "cart_items"."quantity" + EXCLUDED."quantity" <= ${most}
     RETURNING "id", "quantity"`;
  },
  examples: [
    ["productId", "user", "product", 1, 100, 5],
    ["memorialId", "user", "memorial", 1, 100, 5],
  ],
});

async function addProduct(user: Member, productId: string, quantity: number): Promise<AddToCartResult> {
  const product = isRecordId(productId)
    ? await prisma().product.findUnique({ where: { id: productId }, select: { id: true, name: true, price: true, stockQuantity: true, isActive: true } })
    : null;
  if (!product || !product.isActive) return { ok: false, reason: "not-found", message: SHOP_MESSAGES.productGone };
  if (product.stockQuantity <= 0) return { ok: false, reason: "stock", message: SHOP_MESSAGES.outOfStock };
  if (quantity > product.stockQuantity) return { ok: false, reason: "stock", message: SHOP_MESSAGES.quantityAboveStock(product.stockQuantity) };
  const rows = await upsertLine(addLine("productId", user.id, product.id, quantity, product.price, product.stockQuantity));
  if (rows === null) return { ok: false, reason: "not-found", message: SHOP_MESSAGES.productGone };
  if (!rows.length) {
    const line = await prisma().cartItem.findFirst({ where: { userId: user.id, productId: product.id }, select: { quantity: true } });
    return { ok: false, reason: "stock", message: SHOP_MESSAGES.onlyInStock(product.stockQuantity, line?.quantity ?? 0) };
  }
  return { ok: true, itemId: rows[0].id, name: product.name, quantity: rows[0].quantity };
}

async function addMemorial(user: Member, memorialId: string, quantity: number): Promise<AddToCartResult> {
  // The printed book: for the owner, co-managers and the owner's friends, while the family offers it.
  // Not found, or not the caller's to see: the same answer (it never confirms a private memorial exists).
  const rule = await mayOrderBook(user, memorialId);
  if (!rule.ok) return { ok: false, reason: rule.reason === "not-found" ? "not-found" : "unavailable", message: rule.message };
  const { memorial } = rule;
  if (quantity > MEMORIAL_ITEM.maxQuantity) return { ok: false, reason: "unavailable", message: SHOP_MESSAGES.memorialLimit };
  const rows = await upsertLine(addLine("memorialId", user.id, memorial.id, quantity, MEMORIAL_ITEM.price, MEMORIAL_ITEM.maxQuantity));
  if (rows === null) return { ok: false, reason: "not-found", message: "Memorial not found" };
  if (!rows.length) return { ok: false, reason: "unavailable", message: SHOP_MESSAGES.memorialLimit };
  return { ok: true, itemId: rows[0].id, name: memorialItemName(memorial), quantity: rows[0].quantity };
}

/** Runs an insert-or-add statement; null when what it points at was deleted meanwhile (a foreign key). */
async function upsertLine(statement: ReturnType<typeof addLine>): Promise<{ id: string; quantity: number }[] | null> {
  try {
    return await driverRows(getDatabase().sql, statement);
  } catch (error) {
    if ((error as { code?: string }).code === "23503") return null;
    throw error;
  }
}

export type SetQuantityResult = { ok: true; quantity: number; item: Awaited<ReturnType<typeof cartItemForApi>> } | CartFailure;

/** Quantity controls: never below 1, never above the stock (the basket's + is disabled there). */
export async function setCartQuantity(user: Member, itemId: string, quantity: number): Promise<SetQuantityResult> {
  const { rows, visible } = await loadRows(user);
  const row = rows.find((r) => r.id === itemId);
  if (!row) return { ok: false, reason: "not-found", message: SHOP_MESSAGES.notFound };
  const line = lineOf(row, visible);
  const wanted = quantity;
  if (!Number.isInteger(wanted)) return { ok: false, reason: "unavailable", message: SHOP_MESSAGES.quantityWhole };
  if (!(wanted >= MIN_QUANTITY)) return { ok: false, reason: "unavailable", message: SHOP_MESSAGES.quantityMin };
  if (line.maxQuantity === 0) return { ok: false, reason: "stock", message: line.problem ?? SHOP_MESSAGES.outOfStock };
  if (wanted > line.maxQuantity) {
    return {
      ok: false,
      reason: line.kind === "product" ? "stock" : "unavailable",
      message: line.kind === "product" ? SHOP_MESSAGES.quantityAboveStock(line.maxQuantity) : SHOP_MESSAGES.memorialLimit,
    };
  }
  const updated = await prisma().cartItem.updateMany({ where: { id: itemId, userId: user.id }, data: { quantity: wanted } });
  if (!updated.count) return { ok: false, reason: "not-found", message: SHOP_MESSAGES.notFound };
  return { ok: true, quantity: wanted, item: await cartItemForApi(user, itemId) };
}

/** The − and + buttons: one less (never below 1) or one more (never above the stock). */
export async function stepCartQuantity(user: Member, itemId: string, step: 1 | -1): Promise<SetQuantityResult> {
  const row = await prisma().cartItem.findFirst({ where: { id: itemId, userId: user.id }, select: { quantity: true } });
  if (!row) return { ok: false, reason: "not-found", message: SHOP_MESSAGES.notFound };
  return setCartQuantity(user, itemId, Math.max(MIN_QUANTITY, row.quantity + step));
}

export async function removeCartItem(user: Member, itemId: string): Promise<{ ok: true } | CartFailure> {
  const removed = await prisma().cartItem.deleteMany({ where: { id: itemId, userId: user.id } });
  return removed.count ? { ok: true } : { ok: false, reason: "not-found", message: SHOP_MESSAGES.notFound };
}

export async function clearCart(user: Member): Promise<{ ok: true; removed: number }> {
  const removed = await prisma().cartItem.deleteMany({ where: { userId: user.id } });
  return { ok: true, removed: removed.count };
}

/** The member's basket quantity of each product (the shop says "2 in your basket" and stops at the stock). */
export async function basketQuantities(userId: string): Promise<Record<string, number>> {
  const rows = await prisma().cartItem.findMany({ where: { userId, productId: { not: null } }, select: { productId: true, quantity: true } });
  return Object.fromEntries(rows.map((r) => [r.productId!, r.quantity]));
}
