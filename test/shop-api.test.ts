import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHOP_MESSAGES } from "~/utils/shop";
import { client, registerMember, serverDatabases, startServer, type TestServer } from "./http";
import { addToBasket, formPost, insertProducts, SHIPPING, shopProducts, withTax } from "./shop";

// The shop's /api over real HTTP on the built server with the built-in test provider: every failure a
// client can meet answers `{ message }` with the
// right status (a stock problem says "stock"), prices a client sends change nothing, a payment makes one
// order however often and however concurrently it is completed, and 20 buyers of the last item in stock
// get one order between them, the others a refund and a plain message.

const products = shopProducts({
  candle: { price: 1250, stock: 10 },
  frame: { price: 3999, stock: 3, category: "Frames" },
  quilt: { price: 8500, stock: 5, category: "Textiles" },
  soldOut: { price: 500, stock: 0 },
  last: { price: 2000, stock: 1 },
  race: { price: 700, stock: 1 },
});

describe.each(serverDatabases())("the shop's /api with the test provider on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({}, { database, prepare: insertProducts(products) });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const member = async () => (await registerMember(server.url)).api;

  it("lists active products for anyone, filtered by the shop's groups", async () => {
    const all = await client(server.url).get("/api/products");
    expect(all.status).toBe(200);
    expect(all.json.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining(Object.values(products).map((p) => p.id)));
    const service = await client(server.url).get("/api/products?category=service");
    expect(service.json.map((p: { id: string }) => p.id)).toEqual([products.quilt.id]);
    expect(service.json[0]).toMatchObject({ price: 8500, stockQuantity: 5, shopCategory: "service" });
    const bad = await client(server.url).get("/api/products?category=jewels");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe("category must be one of physical, service, digital");
  });

  it("keeps the basket for members only, priced by the server whatever the client says", async () => {
    const visitor = client(server.url);
    expect((await visitor.post("/api/cart", { productId: products.candle.id, quantity: 1 })).status).toBe(401);
    expect((await visitor.get("/api/cart")).status).toBe(401);
    const api = await member();
    const line = await addToBasket(api, products.candle, 2);
    expect(line).toMatchObject({ quantity: 2, price: 1250, product: { id: products.candle.id, name: products.candle.name, stock: 10 } });
    const again = await addToBasket(api, products.candle, 1);
    expect(again).toMatchObject({ id: line.id, quantity: 3 });
    const basket = await api.get("/api/cart");
    expect(basket.json).toHaveLength(1);
    expect(basket.json[0]).toMatchObject({ quantity: 3, price: 1250 });
  });

  it("refuses what cannot be added or set, with a message about stock where stock is the reason", async () => {
    const api = await member();
    const soldOut = await api.post("/api/cart", { productId: products.soldOut.id });
    expect(soldOut.status).toBe(400);
    expect(soldOut.json.message).toBe(SHOP_MESSAGES.outOfStock);
    const tooMany = await api.post("/api/cart", { productId: products.frame.id, quantity: 4 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.message).toMatch(/Only 3 in stock/);
    expect((await api.post("/api/cart", { productId: products.frame.id, quantity: 0 })).json).toMatchObject({
      message: "Quantity must be at least 1",
      errors: { quantity: ["Quantity must be at least 1"] },
    });
    expect((await api.post("/api/cart", { productId: products.frame.id, quantity: "two" })).status).toBe(400);
    expect((await api.post("/api/cart", { productId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
    expect((await api.post("/api/cart", {})).status).toBe(400);

    const line = await addToBasket(api, products.frame, 2);
    const above = await api.put(`/api/cart/${line.id}`, { quantity: 4 });
    expect(above.status).toBe(400);
    expect(above.json.message).toContain("stock");
    expect((await api.put(`/api/cart/${line.id}`, { quantity: 0 })).status).toBe(400);
    expect((await api.put(`/api/cart/${line.id}`, { quantity: 3 })).json).toMatchObject({ quantity: 3 });
    // One more than the stock through POST: refused, and the line is unchanged.
    const extra = await api.post("/api/cart", { productId: products.frame.id });
    expect(extra.status).toBe(400);
    expect(extra.json.message).toContain("stock");
    expect((await api.get("/api/cart")).json[0].quantity).toBe(3);

    // Someone else's line is not found, and stays as it was.
    const stranger = await member();
    expect((await stranger.put(`/api/cart/${line.id}`, { quantity: 1 })).status).toBe(404);
    expect((await stranger.delete(`/api/cart/${line.id}`)).status).toBe(404);
    expect((await api.get("/api/cart")).json).toHaveLength(1);
    expect((await api.delete(`/api/cart/${line.id}`)).json).toEqual({ message: SHOP_MESSAGES.removed });
    expect((await api.delete(`/api/cart/${line.id}`)).status).toBe(404);
    await addToBasket(api, products.candle);
    expect((await api.delete("/api/cart")).json).toEqual({ message: SHOP_MESSAGES.cleared, removed: 1 });
  });

  it("checks out the basket as the server prices it: the amount and items a client sends are ignored", async () => {
    const api = await member();
    const empty = await api.post("/api/create-payment-intent", { amount: 100, shipping: SHIPPING, items: [] });
    expect(empty.status).toBe(400);
    expect(empty.json.message).toBe(SHOP_MESSAGES.basketEmpty);

    await addToBasket(api, products.candle, 2);
    const badShipping = await api.post("/api/create-payment-intent", { amount: 1, shipping: { ...SHIPPING, phone: "123", zipCode: "12" } });
    expect(badShipping.status).toBe(400);
    expect(badShipping.json.errors).toMatchObject({
      "shipping.phone": ["Phone number must be at least 10 digits"],
      "shipping.zipCode": ["ZIP code must be at least 5 digits"],
    });

    const intent = await api.post("/api/create-payment-intent", {
      amount: 1,
      shipping: SHIPPING,
      items: [{ id: `product-${products.candle.id}`, name: "Cheap", quantity: 1, price: 1 }],
    });
    expect(intent.status).toBe(200);
    expect(intent.json).toMatchObject({ provider: "test", isTest: true, publishableKey: null, paymentIntentId: expect.stringMatching(/^testpay_/) });
    expect(intent.json.clientSecret).toEqual(expect.any(String));

    // Not paid: no order.
    const unpaid = await api.post("/api/orders/create-from-payment", { paymentIntentId: intent.json.paymentIntentId });
    expect(unpaid.status).toBe(402);
    expect(unpaid.json.message).toBe(SHOP_MESSAGES.unpaid);

    const paid = await api.post("/api/test-payments/pay", { paymentIntentId: intent.json.paymentIntentId });
    expect(paid.status).toBe(201);
    expect(paid.json).toMatchObject({
      totalAmount: withTax(2500),
      subtotalAmount: 2500,
      taxAmount: 200,
      currency: "gbp",
      status: "pending",
      isTest: true,
      paymentIntentId: intent.json.paymentIntentId,
      customerEmail: SHIPPING.email,
      customerName: "Bea Buyer",
      customerPhone: SHIPPING.phone,
      shippingAddress: { address: SHIPPING.address, city: "York", zipCode: "YO1 7HH", country: "GB" },
      items: [{ productId: products.candle.id, quantity: 2, price: 1250 }],
    });
    expect((await api.get("/api/cart")).json).toEqual([]);

    // Replayed: the same order, not a second one.
    const replay = await api.post("/api/orders/create-from-payment", { paymentIntentId: intent.json.paymentIntentId });
    expect(replay.status).toBe(200);
    expect(replay.json.id).toBe(paid.json.id);
    const orders = await api.get("/api/orders");
    expect(orders.json.map((o: { id: string }) => o.id)).toEqual([paid.json.id]);
  });

  it("shows nothing of someone else's payment or order, and nothing of a forged one", async () => {
    const buyer = await member();
    await addToBasket(buyer, products.candle);
    const intent = await buyer.post("/api/create-payment-intent", { shipping: SHIPPING });
    const paymentIntentId = intent.json.paymentIntentId as string;
    const stranger = await member();
    for (const res of [
      await stranger.post("/api/test-payments/pay", { paymentIntentId }),
      await stranger.post("/api/orders/create-from-payment", { paymentIntentId }),
      await buyer.post("/api/orders/create-from-payment", { paymentIntentId: "pi_forged123" }),
      await buyer.post("/api/orders/create-from-payment", { sessionId: "cs_test_forged" }),
      await buyer.post("/api/test-payments/pay", { paymentIntentId: "testpay_000000000000000000000000" }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ message: SHOP_MESSAGES.invalidOrder });
    }
    expect((await buyer.post("/api/orders/create-from-payment", {})).status).toBe(400);
    expect((await buyer.post("/api/test-payments/pay", { paymentIntentId })).status).toBe(201);
    expect((await stranger.get("/api/orders")).json).toEqual([]);
    expect((await stranger.post("/api/orders/create-from-payment", { paymentIntentId })).status).toBe(404);
    // The confirmation page says Invalid Order to the stranger, and shows nothing of the order.
    const page = await stranger.get(`/order-confirmation?payment_intent=${paymentIntentId}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain("Invalid Order");
    expect(page.text).not.toContain(SHIPPING.address);
  });

  it("refuses a Stripe webhook while the test provider takes payments", async () => {
    const res = await client(server.url).request("POST", "/api/stripe/webhook", {
      body: JSON.stringify({ id: "evt_1", type: "payment_intent.succeeded" }),
      headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=abc" },
    });
    expect(res.status).toBe(400);
    expect(res.json.message).toMatch(/not configured/);
  });

  it("checks out through the pages without JavaScript: shipping errors kept with the input, then the test payment, then the confirmation", async () => {
    const api = await member();
    await addToBasket(api, products.candle);
    const refused = await formPost(api, "/checkout", { intent: "shipping", ...SHIPPING, firstName: "", phone: "12345" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("First name is required");
    expect(refused.text).toContain("Phone number must be at least 10 digits");
    expect(refused.text).toContain(`value="${SHIPPING.address}"`);
    const started = await formPost(api, "/checkout", { intent: "shipping", ...SHIPPING });
    expect(started.status).toBe(303);
    const step2 = started.headers.get("location")!;
    expect(step2).toMatch(/^\/checkout\?payment=/);
    const payPage = await api.get(step2);
    expect(payPage.text).toContain("Test payment — no card is charged");
    const paymentId = /name="paymentId" value="([^"]+)"/.exec(payPage.text)![1];
    const paid = await formPost(api, "/checkout", { intent: "pay", paymentId });
    expect(paid.status).toBe(303);
    const confirmation = await api.get(paid.headers.get("location")!);
    expect(confirmation.status).toBe(200);
    expect(confirmation.text).toContain("Order Placed Successfully");
    expect(confirmation.text).toContain(paymentId);
    expect(confirmation.text).toContain("Test order");
    // The older view leads to the same order.
    const older = await api.get(`/order-success?payment_intent=${paymentId}`);
    expect(older.status).toBe(302);
    expect(older.headers.get("location")).toBe(`/order-confirmation?payment_intent=${paymentId}`);
    expect((await api.get("/order-confirmation")).text).toContain("No payment information found");
  });

  it("20 buyers paying for the last item at once: one order, one stock taken, the others refunded and told", async () => {
    const BUYERS = 20;
    const buyers = await Promise.all(Array.from({ length: BUYERS }, () => member()));
    for (const api of buyers) await addToBasket(api, products.race);
    const intents = await Promise.all(buyers.map((api) => api.post("/api/create-payment-intent", { shipping: SHIPPING })));
    expect(intents.map((r) => r.status)).toEqual(Array(BUYERS).fill(200));
    const results = await Promise.all(buyers.map((api, i) => api.post("/api/test-payments/pay", { paymentIntentId: intents[i].json.paymentIntentId })));
    const statuses = results.map((r) => r.status).sort();
    expect(
      statuses.filter((s) => s === 201),
      String(statuses),
    ).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).toEqual(Array(BUYERS - 1).fill(409));
    for (const r of refused) {
      expect(r.json.message).toBe(SHOP_MESSAGES.soldOut(products.race.name, "£7.56"));
      expect(r.json.refunded).toBe(true);
    }
    const listed = (await client(server.url).get("/api/products")).json.find((p: { id: string }) => p.id === products.race.id);
    expect(listed.stockQuantity).toBe(0);
    if (server.databaseUrl) {
      // Nothing charged is kept without an order or a refund.
      const db = new pg.Client({ connectionString: server.databaseUrl });
      await db.connect();
      try {
        const ids = intents.map((r) => r.json.paymentIntentId);
        const { rows } = await db.query(
          `SELECT p.id, p.status, p."amountRefunded", p.amount, o.id AS "orderId" FROM test_payments p LEFT JOIN orders o ON o."paymentIntentId" = p.id WHERE p.id = ANY($1)`,
          [ids],
        );
        expect(rows).toHaveLength(BUYERS);
        expect(rows.filter((r) => r.orderId)).toHaveLength(1);
        for (const r of rows.filter((r) => !r.orderId)) expect(r).toMatchObject({ status: "succeeded", amountRefunded: r.amount });
      } finally {
        await db.end();
      }
    }
  });

  it("a buyer whose last item sold out sees it plainly on the confirmation page", async () => {
    const [first, second] = [await member(), await member()];
    await addToBasket(first, products.last);
    await addToBasket(second, products.last);
    const a = await first.post("/api/create-payment-intent", { shipping: SHIPPING });
    const b = await second.post("/api/create-payment-intent", { shipping: SHIPPING });
    expect((await first.post("/api/test-payments/pay", { paymentIntentId: a.json.paymentIntentId })).status).toBe(201);
    const late = await formPost(second, "/checkout", { intent: "pay", paymentId: b.json.paymentIntentId });
    const page = await second.get(late.headers.get("location")!);
    expect(page.status).toBe(409);
    expect(page.text).toContain("Payment refunded");
    expect(page.text).toContain("sold out while you were paying");
    expect((await second.get("/api/orders")).json).toEqual([]);
  });
});
