import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import {
  addToCart,
  basketQuantities,
  clearCart,
  countCartItems,
  getBasket,
  listCartForApi,
  removeCartItem,
  setCartQuantity,
  stepCartQuantity,
} from "./cart.server";
import { countProductsByGroup, listActiveProducts, listActiveProductsForApi } from "./products.server";
import { MEMORIAL_ITEM, PRODUCTS_PER_PAGE, SHOP_MESSAGES } from "~/utils/shop";

// The basket and the shop's listing, on
// PGlite and PostgreSQL: prices and totals from the database, quantities between 1 and the stock, and a
// member's basket is theirs alone.

let n = 0;
describe.each(databaseKinds)("the basket on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const member = async () => {
    const u = await app.db.prisma.user.create({
      data: { email: `cart${Date.now().toString(36)}${n++}@example.com`, firstName: "Bea", lastName: "Buyer", password: "x" },
    });
    return { id: u.id, isAdmin: false, email: u.email };
  };
  const product = (fields: { price?: number; stock?: number; category?: string; isActive?: boolean; name?: string } = {}) =>
    app.db.prisma.product.create({
      data: {
        name: fields.name ?? `Candle ${n++}`,
        description: "A hand-poured candle that burns for forty hours, in a glass jar.",
        price: fields.price ?? 1250,
        category: fields.category ?? "Candles",
        stockQuantity: fields.stock ?? 10,
        isActive: fields.isActive ?? true,
      },
    });

  it.skipIf(skip)("adds to one line per product, prices it from the database and adds 8% tax", async () => {
    const user = await member();
    const candle = await product({ price: 1250 });
    const frame = await product({ price: 3999, category: "Frames" });
    expect(await addToCart(user, { productId: candle.id, quantity: 2 })).toMatchObject({ ok: true, quantity: 2 });
    expect(await addToCart(user, { productId: candle.id })).toMatchObject({ ok: true, quantity: 3 });
    await addToCart(user, { productId: frame.id });
    // The price changes after it was added: the basket charges today's price.
    await app.db.prisma.product.update({ where: { id: candle.id }, data: { price: 1000 } });
    const basket = await getBasket(user);
    expect(basket.lines.map((l) => [l.name, l.quantity, l.unitPrice, l.lineTotal])).toEqual([
      [candle.name, 3, 1000, 3000],
      [frame.name, 1, 3999, 3999],
    ]);
    expect(basket).toMatchObject({ count: 4, subtotal: 6999, tax: 560, total: 7559, hasProblems: false });
    expect(await countCartItems(user.id)).toBe(4);
    expect(await basketQuantities(user.id)).toEqual({ [candle.id]: 3, [frame.id]: 1 });
    expect((await listCartForApi(user)).map((i) => [i.product?.name, i.price, i.product?.stock])).toEqual([
      [candle.name, 1000, 10],
      [frame.name, 3999, 10],
    ]);
  });

  it.skipIf(skip)("refuses out of stock, more than the stock, withdrawn products and unknown ids, always mentioning stock when it is the reason", async () => {
    const user = await member();
    const none = await product({ stock: 0 });
    const three = await product({ stock: 3 });
    const hidden = await product({ isActive: false });
    expect(await addToCart(user, { productId: none.id })).toEqual({ ok: false, reason: "stock", message: SHOP_MESSAGES.outOfStock });
    expect(await addToCart(user, { productId: three.id, quantity: 4 })).toMatchObject({
      ok: false,
      reason: "stock",
      message: expect.stringContaining("stock"),
    });
    expect(await addToCart(user, { productId: three.id, quantity: 2 })).toMatchObject({ ok: true });
    const over = await addToCart(user, { productId: three.id, quantity: 2 });
    expect(over).toEqual({ ok: false, reason: "stock", message: SHOP_MESSAGES.onlyInStock(3, 2) });
    expect(await addToCart(user, { productId: three.id })).toMatchObject({ ok: true, quantity: 3 });
    expect(await addToCart(user, { productId: three.id })).toMatchObject({ ok: false, message: expect.stringContaining("stock") });
    expect(await addToCart(user, { productId: hidden.id })).toMatchObject({ ok: false, reason: "not-found" });
    expect(await addToCart(user, { productId: "not-an-id" })).toMatchObject({ ok: false, reason: "not-found" });
    expect(await countCartItems(user.id)).toBe(3);
  });

  it.skipIf(skip)("keeps a quantity between 1 and the stock; − stops at 1 and + at the stock", async () => {
    const user = await member();
    const p = await product({ stock: 2 });
    const added = await addToCart(user, { productId: p.id });
    if (!added.ok) throw new Error(added.message);
    const id = added.itemId;
    expect(await stepCartQuantity(user, id, -1)).toMatchObject({ ok: true, quantity: 1 });
    expect(await stepCartQuantity(user, id, 1)).toMatchObject({ ok: true, quantity: 2 });
    expect(await stepCartQuantity(user, id, 1)).toEqual({ ok: false, reason: "stock", message: SHOP_MESSAGES.quantityAboveStock(2) });
    expect(await setCartQuantity(user, id, 0)).toMatchObject({ ok: false, message: "Quantity must be at least 1" });
    expect(await setCartQuantity(user, id, 1.5)).toMatchObject({ ok: false, message: "Quantity must be a whole number" });
    expect(await addToCart(user, { productId: p.id, quantity: 0.5 })).toMatchObject({ ok: false, message: "Quantity must be a whole number" });
    expect(await setCartQuantity(user, id, 3)).toMatchObject({ ok: false, reason: "stock" });
    expect(await setCartQuantity(user, id, 1)).toMatchObject({ ok: true, quantity: 1 });
    // Stock falls below the basket's quantity: the line says so and checkout waits.
    await setCartQuantity(user, id, 2);
    await app.db.prisma.product.update({ where: { id: p.id }, data: { stockQuantity: 1 } });
    const basket = await getBasket(user);
    expect(basket.hasProblems).toBe(true);
    expect(basket.lines[0]).toMatchObject({ maxQuantity: 1, problem: SHOP_MESSAGES.quantityAboveStock(1) });
    await app.db.prisma.product.update({ where: { id: p.id }, data: { isActive: false } });
    expect((await getBasket(user)).lines[0].problem).toBe(SHOP_MESSAGES.productGone);
  });

  it.skipIf(skip)("touches only the member's own lines: someone else's is not found", async () => {
    const owner = await member();
    const other = await member();
    const p = await product();
    const added = await addToCart(owner, { productId: p.id });
    if (!added.ok) throw new Error(added.message);
    expect(await setCartQuantity(other, added.itemId, 2)).toMatchObject({ ok: false, reason: "not-found" });
    expect(await removeCartItem(other, added.itemId)).toMatchObject({ ok: false, reason: "not-found" });
    expect(await clearCart(other)).toEqual({ ok: true, removed: 0 });
    expect(await countCartItems(owner.id)).toBe(1);
    expect(await removeCartItem(owner, added.itemId)).toEqual({ ok: true });
    expect(await countCartItems(owner.id)).toBe(0);
  });

  it.skipIf(skip)("sells a memorial the member may see at £29.99, up to the limit, and forgets it when it turns private", async () => {
    const user = await member();
    const owner = await member();
    // The printed book is for the family and the owner's friends (memorials/book.server.test.ts).
    await app.db.prisma.friendship.createMany({
      data: [
        { userId: owner.id, friendId: user.id },
        { userId: user.id, friendId: owner.id },
      ],
    });
    const m = await app.db.prisma.memorial.create({
      data: { userId: owner.id, title: "T", firstName: "Ada", lastName: "Lovelace", isPublished: true, visibility: "public" },
    });
    const secret = await app.db.prisma.memorial.create({
      data: { userId: owner.id, title: "T", firstName: "Hid", lastName: "Den", isPublished: true, visibility: "private" },
    });
    expect(await addToCart(user, { memorialId: secret.id })).toMatchObject({ ok: false, reason: "not-found" });
    expect(await addToCart(user, { memorialId: m.id, quantity: MEMORIAL_ITEM.maxQuantity + 1 })).toMatchObject({
      ok: false,
      message: SHOP_MESSAGES.memorialLimit,
    });
    expect(await addToCart(user, { memorialId: m.id, quantity: 2 })).toMatchObject({ ok: true, name: "Ada Lovelace Memorial" });
    expect(await getBasket(user)).toMatchObject({ subtotal: 2 * MEMORIAL_ITEM.price, lines: [{ kind: "memorial", unitPrice: 2999, problem: null }] });
    await app.db.prisma.memorial.update({ where: { id: m.id }, data: { visibility: "private" } });
    const basket = await getBasket(user);
    expect(basket.lines[0]).toMatchObject({ name: "A memorial that is no longer available", maxQuantity: 0 });
    expect(basket.hasProblems).toBe(true);
    expect((await listCartForApi(user))[0].memorial).toBeNull();
  });

  it.skipIf(skip)("lists active products only, by shop group, with counts for the filter", async () => {
    const before = await countProductsByGroup();
    const textile = await product({ category: "Textiles", name: `Quilt ${n++}` });
    const urn = await product({ category: "Urns" });
    await product({ category: "Urns", isActive: false });
    const after = await countProductsByGroup();
    expect(after.service - before.service).toBe(1);
    expect(after.physical - before.physical).toBe(1);
    expect(after.digital).toBe(0);
    const service = await listActiveProducts({ group: "service" });
    expect(service.items.map((p) => p.id)).toContain(textile.id);
    expect(service.items.map((p) => p.id)).not.toContain(urn.id);
    expect((await listActiveProductsForApi(null)).every((p) => p.isActive)).toBe(true);
    const all = await listActiveProducts({ page: 999 });
    expect(all.page).toBe(all.pages);
    expect(PRODUCTS_PER_PAGE).toBeGreaterThan(0);
  });
});
