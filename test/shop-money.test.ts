import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatPence } from "~/utils/money";
import { MAX_ORDER_PENCE, SHOP_MESSAGES } from "~/utils/shop";
import { ADMIN_MESSAGES } from "~/utils/validation/admin";
import { client, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";
import { addToBasket, formPost, insertProducts, SHIPPING, shopProducts, withTax } from "./shop";

// Money you can trust, the shop's half, over real HTTP on the built server with the
// built-in test provider, on PGlite and PostgreSQL: ten checkouts of one basket at once make one payment; a
// basket over what one order can take is a clear 4xx; an administrator's edit (the form and the /api) with
// a sale in between keeps the sale; an order shipped with carrier and tracking shows in the buyer's orders
// and is emailed; cancelling twice puts the items back once and emails the amount once; a picture from
// another site is refused.

const SITE = "https://shop-money.everlight.test";
const products = shopProducts({
  lamp: { price: 1800, stock: 50 },
  urn: { price: 9900, stock: 16, category: "Urns" },
  edit: { price: 12000, stock: 16, category: "Urns" },
  grand: { price: 10_000_000, stock: 300, category: "Jewelry" },
  ship: { price: 2500, stock: 10, category: "Frames" },
});

/** The emails the server wrote to `to` (no SMTP server: .eml files in DATA_DIR/outbox), waiting for `count`. */
async function mailsTo(server: TestServer, to: string, count: number) {
  const dir = path.join(server.dataDir, "outbox");
  const mark = to.replace(/[^a-z0-9@._-]/gi, "_").slice(0, 60);
  const deadline = Date.now() + 30_000;
  for (;;) {
    let files: string[] = [];
    try {
      files = readdirSync(dir)
        .filter((f) => f.endsWith(".eml") && f.includes(mark))
        .sort();
    } catch {
      // not written yet
    }
    if (files.length >= count || Date.now() > deadline) return Promise.all(files.map((f) => simpleParser(readFileSync(path.join(dir, f)))));
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.each(serverDatabases())("the shop's money over HTTP on %s", (database) => {
  let server: TestServer;
  let admin: Client;
  beforeAll(async () => {
    server = await startServer({ SEED_DEMO_DATA: "true", PUBLIC_URL: SITE }, { database, prepare: insertProducts(products) });
    admin = client(server.url);
    expect((await admin.post("/api/auth/login", { email: "admin@everlight.test", password: "AdminDemo123" })).json.isAdmin).toBe(true);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const member = async () => (await registerMember(server.url)).api;
  const stockOf = async (id: string) =>
    ((await admin.get("/api/admin/products")).json as { id: string; stockQuantity: number }[]).find((p) => p.id === id)!.stockQuantity;
  /** A member buys `quantity` of a product through the /api and the test provider's Pay. */
  async function buy(product: (typeof products)[keyof typeof products], quantity: number, shipping = SHIPPING) {
    const api = await member();
    await addToBasket(api, product, quantity);
    const intent = await api.post("/api/create-payment-intent", { shipping });
    expect(intent.status, intent.text).toBe(200);
    const paid = await api.post("/api/test-payments/pay", { paymentIntentId: intent.json.paymentIntentId });
    expect(paid.status, paid.text).toBe(201);
    return { api, order: paid.json as { id: string; paymentIntentId: string; totalAmount: number } };
  }

  it("makes one open payment for ten checkouts of one basket at once, and one order from it", async () => {
    const api = await member();
    await addToBasket(api, products.lamp, 2);
    const answers = await Promise.all(Array.from({ length: 10 }, () => api.post("/api/create-payment-intent", { shipping: SHIPPING })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const ids = new Set(answers.map((a) => a.json.paymentIntentId));
    expect(ids.size).toBe(1);
    // And through the page (without JavaScript) too: the same payment.
    const page = await formPost(api, "/checkout", { intent: "shipping", ...SHIPPING });
    expect(page.status).toBe(303);
    const step2 = await api.get(page.headers.get("location")!);
    expect(step2.text).toContain(`value="${[...ids][0]}"`);
    const paid = await api.post("/api/test-payments/pay", { paymentIntentId: [...ids][0] });
    expect(paid.status).toBe(201);
    expect(paid.json.totalAmount).toBe(withTax(3600));
    expect((await api.get("/api/orders")).json).toHaveLength(1);
  });

  it("answers a basket over what one order can take with a clear 422, from the /api and the page, and makes nothing", async () => {
    const api = await member();
    await addToBasket(api, products.grand, 250);
    const total = formatPence(withTax(250 * 10_000_000));
    const res = await api.post("/api/create-payment-intent", { shipping: SHIPPING });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe(SHOP_MESSAGES.orderTooLarge(total));
    expect(res.json.message).toContain(formatPence(MAX_ORDER_PENCE));
    const page = await formPost(api, "/checkout", { intent: "shipping", ...SHIPPING });
    expect(page.status).toBe(422);
    expect(page.text).toContain("Order too large");
    expect(page.text).toContain(`value="${SHIPPING.address}"`);
    expect((await api.get("/api/orders")).json).toEqual([]);
  });

  it("keeps a sale made while an administrator edits the product, through the /api and the form", async () => {
    const loaded = (await admin.get("/api/admin/products")).json.find((p: { id: string }) => p.id === products.edit.id);
    expect(loaded.stockQuantity).toBe(16);
    await buy(products.edit, 3);
    // The /api client sends back what it read, the price changed: the sale stays.
    const body = { name: loaded.name, description: loaded.description, category: loaded.category, price: 12500, imageUrl: null, isActive: true };
    const put = await admin.put(`/api/admin/products/${products.edit.id}`, { ...body, stockQuantity: 16, expectedStockQuantity: 16 });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ price: 12500, stockQuantity: 13 });
    // A new stock figure over one read before a sale: refused with the current figure, nothing saved.
    await buy(products.edit, 1);
    const stale = await admin.put(`/api/admin/products/${products.edit.id}`, { ...body, price: 1, stockQuantity: 30, expectedStockQuantity: 13 });
    expect(stale.status).toBe(409);
    expect(stale.json).toEqual({ message: ADMIN_MESSAGES.stockChanged(12), stockQuantity: 12 });
    expect(await stockOf(products.edit.id)).toBe(12);
    // A client in the original request shape (no expectedStockQuantity) sends back the 13 it read before that sale:
    // refused with the current figure, the sale kept; the current figure itself is accepted (and untouched).
    const spec = await admin.put(`/api/admin/products/${products.edit.id}`, { ...body, price: 12600, stockQuantity: 13 });
    expect(spec.status).toBe(409);
    expect(spec.json).toEqual({ message: ADMIN_MESSAGES.stockChanged(12), stockQuantity: 12 });
    const current = await admin.put(`/api/admin/products/${products.edit.id}`, { ...body, price: 12600, stockQuantity: 12 });
    expect(current.status, current.text).toBe(200);
    expect(current.json).toMatchObject({ price: 12600, stockQuantity: 12 });

    // The form, loaded at 12 (its hidden stockLoaded), then a sale of 2, then saved with the stock as loaded.
    const form = await admin.get(`/admin/products/${products.edit.id}`);
    expect(form.text).toContain('name="stockLoaded" value="12"');
    expect(form.text).not.toMatch(/name="isActive"[^>]*required/);
    await buy(products.edit, 2);
    const fields = {
      name: loaded.name,
      description: loaded.description,
      category: "Urns",
      price: "126.00",
      stockQuantity: "12",
      stockLoaded: "12",
      isActive: "on",
    };
    const saved = await multipart(admin, `/admin/products/${products.edit.id}`, fields);
    expect(saved.status).toBe(303);
    expect(await stockOf(products.edit.id)).toBe(10);
    // A changed figure after another sale: 409, the message beside the field, what was typed kept.
    await buy(products.edit, 1);
    const refused = await multipart(admin, `/admin/products/${products.edit.id}`, { ...fields, stockQuantity: "40", stockLoaded: "10" });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain(ADMIN_MESSAGES.stockChanged(9));
    expect(refused.text).toContain('value="40"');
    expect(await stockOf(products.edit.id)).toBe(9);
  });

  it("refuses a product picture from another site, which the page could never show", async () => {
    const res = await admin.put(`/api/admin/products/${products.lamp.id}`, {
      name: "Lamp",
      description: "A lamp.",
      category: "Candles",
      price: 1800,
      stockQuantity: 50,
      imageUrl: "https://images.example.com/lamp.jpg",
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(ADMIN_MESSAGES.externalImage);
    const made = await admin.post("/api/admin/products", {
      name: "Elsewhere",
      description: "x",
      category: "Candles",
      price: 100,
      stockQuantity: 1,
      imageUrl: "https://images.example.com/x.jpg",
    });
    expect(made.status).toBe(400);
    // Our own pictures (the demo's drawings included) are sent back as they were read.
    const ours = await admin.put(`/api/admin/products/${products.lamp.id}`, {
      name: "Lamp",
      description: "A lamp.",
      category: "Candles",
      price: 1800,
      stockQuantity: await stockOf(products.lamp.id),
      imageUrl: "/demo/products/remembrance-lantern.svg",
    });
    expect(ours.status, ours.text).toBe(200);
    expect(
      (
        await admin.put(`/api/admin/products/${products.lamp.id}`, {
          name: "Lamp",
          description: "A lamp.",
          category: "Candles",
          price: 1800,
          stockQuantity: 50,
          imageUrl: "/media/../../etc/passwd",
        })
      ).status,
    ).toBe(400);
  });

  it("ships an order with carrier and tracking (the buyer sees them and is emailed), then cancels it twice: restocked once, refunded and emailed once", async () => {
    const email = `ship-${Date.now().toString(36)}@example.com`;
    const { api, order } = await buy(products.ship, 2, { ...SHIPPING, email });
    expect(await stockOf(products.ship.id)).toBe(8);
    const missing = await admin.request("PATCH", `/api/admin/orders/${order.id}/status`, { json: { status: "shipped", carrier: "Royal Mail" } });
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toMatchObject({ trackingNumber: [ADMIN_MESSAGES.trackingNumber] });
    const shipped = await admin.request("PATCH", `/api/admin/orders/${order.id}/status`, {
      json: { status: "shipped", carrier: "Royal Mail", trackingNumber: "RM123456785GB" },
    });
    expect(shipped.status, shipped.text).toBe(200);
    const mine = (await api.get("/api/orders")).json[0];
    expect(mine).toMatchObject({ status: "shipped", carrier: "Royal Mail", trackingNumber: "RM123456785GB" });
    const page = await api.get("/orders");
    expect(page.text).toContain("Shipped");
    expect(page.text).toContain("RM123456785GB");

    const cancels = await Promise.all([1, 2].map(() => admin.request("PATCH", `/api/admin/orders/${order.id}/status`, { json: { status: "cancelled" } })));
    expect(cancels.map((c) => c.status)).toEqual([200, 200]);
    expect(await stockOf(products.ship.id)).toBe(10);
    expect((await admin.request("PATCH", `/api/admin/orders/${order.id}/status`, { json: { status: "cancelled" } })).status).toBe(200);
    expect(await stockOf(products.ship.id)).toBe(10);

    const mails = await mailsTo(server, email, 3);
    const subjects = mails.map((m) => m.subject ?? "");
    expect(subjects.filter((s) => s.includes("has shipped"))).toHaveLength(1);
    expect(subjects.filter((s) => s.includes("cancelled and refunded"))).toHaveLength(1);
    const amount = formatPence(withTax(5000));
    for (const mail of mails.filter((m) => /shipped|cancelled/.test(m.subject ?? ""))) {
      expect(mail.text).toContain(amount);
      expect(mail.text).toContain(products.ship.name);
      expect(mail.text).toContain(order.paymentIntentId);
      expect(mail.text).toContain(`${SITE}/orders`);
    }
    expect(mails.find((m) => m.subject?.includes("has shipped"))!.text).toContain("RM123456785GB");
  });
});

/** A multipart form post, as the product form sends it (its picture field left empty). */
async function multipart(api: Client, to: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("image", new File([], ""), "");
  const request = new Request("http://x/", { method: "POST", body: form });
  return api.request("POST", to, { body: new Uint8Array(await request.arrayBuffer()), headers: { "Content-Type": request.headers.get("content-type")! } });
}
