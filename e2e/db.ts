import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { createCookie, type Cookie } from "react-router";
import type { Page } from "@playwright/test";
import { hashPassword } from "../app/services/password.server";

// Test data written straight into the e2e server's database: fixtures create users and signed-in
// sessions directly, so only the sign-in journey itself clicks through the form.

export const TEST_PASSWORD = "Correct-Horse-9";
let passwordHash: Promise<string> | undefined;

let pool: pg.Pool | undefined;
export function db(): pg.Pool {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error("E2E_DATABASE_URL is not set: these tests need the e2e server on PostgreSQL.");
  pool ??= new pg.Pool({ connectionString: url, max: 2 });
  return pool;
}

export type TestUser = { id: string; email: string; firstName: string; lastName: string; password: string; isAdmin: boolean };

export async function createTestUser(overrides: Partial<Pick<TestUser, "firstName" | "lastName" | "isAdmin" | "email">> = {}): Promise<TestUser> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const user = {
    id: randomUUID(),
    email: overrides.email ?? `user-${randomBytes(6).toString("hex")}@example.com`,
    firstName: overrides.firstName ?? "Test",
    lastName: overrides.lastName ?? "Member",
    isAdmin: overrides.isAdmin ?? false,
    password: TEST_PASSWORD,
  };
  await db().query(`INSERT INTO users (id, email, "firstName", "lastName", password, "isAdmin") VALUES ($1, $2, $3, $4, $5, $6)`, [
    user.id,
    user.email,
    user.firstName,
    user.lastName,
    await passwordHash,
    user.isAdmin,
  ]);
  return user;
}

export async function deleteTestUser(user: { id: string }) {
  await db().query(`DELETE FROM users WHERE id = $1`, [user.id]);
}

let sessionCookie: Cookie | undefined;
function cookie() {
  const secret = process.env.E2E_SESSION_SECRET;
  if (!secret) throw new Error("E2E_SESSION_SECRET is not set");
  sessionCookie ??= createCookie("__session", { secrets: [secret], httpOnly: true, sameSite: "lax", path: "/" });
  return sessionCookie;
}

/** A session row for the user, and the signed cookie value that names it. */
export async function createTestSession(user: { id: string }) {
  const sid = randomBytes(32).toString("base64url");
  await db().query(`INSERT INTO sessions (sid, sess, expire, "userId") VALUES ($1, $2, now() + interval '1 day', $3)`, [
    sid,
    JSON.stringify({ userId: user.id }),
    user.id,
  ]);
  const header = await cookie().serialize(sid);
  return { sid, value: decodeURIComponent(header.split(";")[0].split("=").slice(1).join("=")) };
}

/** Signs the page's browser context in as the user, without the form. */
export async function loginAs(page: Page, user: { id: string }) {
  const { value } = await createTestSession(user);
  const url = new URL(process.env.E2E_BASE_URL!);
  await page.context().addCookies([{ name: "__session", value, domain: url.hostname, path: "/", httpOnly: true, sameSite: "Lax" }]);
}

export type TestMemorial = { id: string; firstName: string; lastName: string };

/** A memorial of the user's, straight into the database; the names are unique unless given. */
export async function createTestMemorial(
  user: { id: string },
  fields: { firstName?: string; lastName?: string; visibility?: "public" | "unlisted" | "friends" | "private"; isPublished?: boolean; createdAt?: Date } = {},
): Promise<TestMemorial> {
  const firstName = fields.firstName ?? `Ada${randomBytes(3).toString("hex")}`;
  const lastName = fields.lastName ?? "Testmemorial";
  const { rows } = await db().query(
    `INSERT INTO memorials ("userId", title, "firstName", "lastName", visibility, "isPublished", "createdAt")
     VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7, now())) RETURNING id`,
    [user.id, `${firstName} ${lastName}`, firstName, lastName, fields.visibility ?? "public", fields.isPublished ?? true, fields.createdAt ?? null],
  );
  return { id: rows[0].id, firstName, lastName };
}

/** A tribute on a memorial, pending unless approved. */
export async function createTestTribute(memorial: { id: string }, fields: { authorName?: string; content?: string; isApproved?: boolean } = {}) {
  const { rows } = await db().query(`INSERT INTO tributes ("memorialId", "authorName", content, "isApproved") VALUES ($1, $2, $3, $4) RETURNING id`, [
    memorial.id,
    fields.authorName ?? "Tess Tribute",
    fields.content ?? "A memory worth keeping.",
    fields.isApproved ?? false,
  ]);
  return { id: rows[0].id as string };
}

export type TestProduct = { id: string; name: string; price: number; stock: number };

/** A product in the shop, straight into the database; the name is unique unless given. */
export async function createTestProduct(
  fields: { name?: string; description?: string; price?: number; stock?: number; category?: string; imageUrl?: string | null } = {},
): Promise<TestProduct> {
  const name = fields.name ?? `Keepsake ${randomBytes(4).toString("hex")}`;
  const price = fields.price ?? 1500;
  const stock = fields.stock ?? 10;
  const { rows } = await db().query(
    `INSERT INTO products (name, description, price, category, "stockQuantity", "imageUrl") VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [name, fields.description ?? `${name}, made with care and sent in a gift box.`, price, fields.category ?? "Candles", stock, fields.imageUrl ?? null],
  );
  return { id: rows[0].id, name, price, stock };
}

/** Takes products out of the shop after a test (orders keep pointing at them, so they are not deleted). */
export async function retireTestProducts(products: { id: string }[]) {
  await db().query(`UPDATE products SET "isActive" = false WHERE id = ANY($1)`, [products.map((p) => p.id)]);
}

export async function stockOf(product: { id: string }): Promise<number> {
  const { rows } = await db().query(`SELECT "stockQuantity" FROM products WHERE id = $1`, [product.id]);
  return rows[0].stockQuantity;
}

export async function addTestCartItem(user: { id: string }, product: TestProduct, quantity = 1) {
  await db().query(`INSERT INTO cart_items ("userId", "productId", quantity, price) VALUES ($1, $2, $3, $4)`, [user.id, product.id, quantity, product.price]);
}

const TEST_SHIPPING = {
  firstName: "Test",
  lastName: "Member",
  email: "test@example.com",
  phone: "07700 900123",
  address: "1 High Street",
  city: "York",
  state: "North Yorkshire",
  zipCode: "YO1 7HH",
  country: "GB",
};

/**
 * A checkout of one product with the built-in test provider, as Continue to Payment leaves it (open, its
 * test payment unpaid), or as paying leaves it (completed, with its order) when `placed`; `email` is the
 * address the shipping form gave (where the shop's emails go).
 */
export async function createTestCheckout(user: { id: string }, product: TestProduct, { quantity = 1, placed = false, email = TEST_SHIPPING.email } = {}) {
  const paymentId = `testpay_${randomBytes(12).toString("hex")}`;
  const subtotal = product.price * quantity;
  const tax = Math.round((subtotal * 8) / 100);
  await db().query(`INSERT INTO test_payments (id, "idempotencyKey", amount, currency, status) VALUES ($1, $1, $2, 'gbp', $3)`, [
    paymentId,
    subtotal + tax,
    placed ? "succeeded" : "requires_payment_method",
  ]);
  let orderId: string | null = null;
  if (placed) {
    const order = await db().query(
      `INSERT INTO orders ("userId", "totalAmount", "subtotalAmount", "taxAmount", "paymentIntentId", "paymentProvider", "isTest", "shippingAddress", "customerEmail", "customerName", "customerPhone")
       VALUES ($1, $2, $3, $4, $5, 'test', true, $6, $7, $8, $9) RETURNING id`,
      [
        user.id,
        subtotal + tax,
        subtotal,
        tax,
        paymentId,
        JSON.stringify({ address: TEST_SHIPPING.address, city: TEST_SHIPPING.city, state: TEST_SHIPPING.state, zipCode: TEST_SHIPPING.zipCode, country: "GB" }),
        TEST_SHIPPING.email,
        "Test Member",
        TEST_SHIPPING.phone,
      ],
    );
    orderId = order.rows[0].id;
    await db().query(`INSERT INTO order_items ("orderId", "productId", name, quantity, price) VALUES ($1, $2, $3, $4, $5)`, [
      orderId,
      product.id,
      product.name,
      quantity,
      product.price,
    ]);
  }
  const items = [{ productId: product.id, memorialId: null, name: product.name, imageUrl: null, quantity, unitPrice: product.price }];
  const { rows } = await db().query(
    `INSERT INTO checkouts ("userId", provider, "paymentId", "subtotalAmount", "taxAmount", "totalAmount", items, shipping, status, "orderId")
     VALUES ($1, 'test', $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      user.id,
      paymentId,
      subtotal,
      tax,
      subtotal + tax,
      JSON.stringify(items),
      JSON.stringify({ ...TEST_SHIPPING, email }),
      placed ? "completed" : "open",
      orderId,
    ],
  );
  return { checkoutId: rows[0].id as string, paymentId, orderId };
}
