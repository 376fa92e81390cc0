import { randomUUID } from "node:crypto";
import type { Database } from "~/services/db.server";
import type { Client } from "./http";

// The shop's test data over HTTP (test/shop-api.test.ts, test/stripe.test.ts): products written into the
// server's database before it starts (startServer's `prepare`), and a member's basket filled through the /api.

export type TestProduct = { id: string; name: string; price: number; stock: number; category: string };

/** Products with fresh ids and the given price (pence) and stock. */
export function shopProducts<K extends string>(spec: Record<K, { price: number; stock: number; category?: string }>): Record<K, TestProduct> {
  return Object.fromEntries(
    Object.entries<{ price: number; stock: number; category?: string }>(spec).map(([key, p]) => [
      key,
      { id: randomUUID(), name: `${key} ${randomUUID().slice(0, 6)}`, price: p.price, stock: p.stock, category: p.category ?? "Candles" },
    ]),
  ) as Record<K, TestProduct>;
}

/** For startServer({ prepare }): writes the products into the server's database. */
export function insertProducts(products: Record<string, TestProduct>) {
  return async (db: Database) => {
    await db.prisma.product.createMany({
      data: Object.values(products).map((p) => ({
        id: p.id,
        name: p.name,
        description: `${p.name}, made with care.`,
        price: p.price,
        category: p.category,
        stockQuantity: p.stock,
      })),
    });
  };
}

/** The shipping form's fields, all valid. */
export const SHIPPING = {
  firstName: "Bea",
  lastName: "Buyer",
  email: "bea.buyer@example.test",
  phone: "07700 900123",
  address: "1 High Street",
  city: "York",
  state: "North Yorkshire",
  zipCode: "YO1 7HH",
  country: "GB",
};

/** A client's add-to-cart body, with a price it made up (the server never reads it). */
export async function addToBasket(api: Client, product: TestProduct, quantity = 1) {
  const res = await api.post("/api/cart", { productId: product.id, productName: "Anything", productDescription: "x", productImage: null, quantity, price: 1 });
  if (res.status !== 201) throw new Error(`Adding to the basket answered ${res.status}: ${res.text}`);
  return res.json as { id: string; quantity: number; price: number };
}

/** Pence with 8% tax, as the server computes it (app/utils/money.ts). */
export function withTax(subtotal: number) {
  return subtotal + Math.round((subtotal * 8) / 100);
}

/** A form post as a browser without JavaScript sends it. */
export function formPost(api: Client, path: string, fields: Record<string, string>) {
  return api.request("POST", path, { body: new URLSearchParams(fields).toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" } });
}
