import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";
import { pdfText } from "./pdf";
import { formPost, SHIPPING } from "./shop";

// The printed memorial book over real HTTP against the built server: a friend of
// the owner orders it from the memorial page with a plain form (into the basket) and pays; the book of that
// order is read by its buyer (preview) and an administrator (download), and is a 404 for anyone else; the
// family's preview is the owner's and co-managers' only; the family's switch, a plain form on the edit page,
// removes the offer from the page and refuses the order with a clear message.

describe.each(serverDatabases())("the memorial book over HTTP on %s", (database) => {
  let server: TestServer;
  let owner: { api: Client; id: string };
  let friend: { api: Client; id: string };
  let stranger: Client;
  let admin: Client;
  let memorialId: string;

  const withOrigin = (who: Client, path: string, fields: Record<string, string>) =>
    who.request("POST", path, {
      body: new URLSearchParams(fields).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    });
  const pdfOf = async (who: Client, path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { Cookie: who.cookie, "X-Forwarded-For": who.ip } });
    return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    server = await startServer({ SEED_DEMO_DATA: "true", PAYMENT_PROVIDER: "test", STRIPE_SECRET_KEY: "", STRIPE_PUBLISHABLE_KEY: "" }, { database });
    owner = await registerMember(server.url, { firstName: "Olive", lastName: "Owner" });
    friend = await registerMember(server.url, { firstName: "Fran", lastName: "Friend" });
    stranger = (await registerMember(server.url)).api;
    admin = client(server.url);
    expect((await admin.post("/api/auth/login", { email: "admin@everlight.test", password: "AdminDemo123" })).json.isAdmin).toBe(true);
    const asked = await friend.api.post("/api/friends/request", { receiverId: owner.id });
    expect(asked.status).toBe(201);
    expect((await owner.api.post(`/api/friends/requests/${asked.json.id}/respond`, { response: "accepted" })).status).toBe(200);
    const created = await owner.api.post("/api/memorials", {
      firstName: "Bertha",
      lastName: "Bookbinder",
      biography: "She bound books in Bath.",
      visibility: "public",
      isPublished: true,
    });
    expect(created.status).toBe(201);
    memorialId = created.json.id;
    expect((await stranger.post(`/api/memorials/${memorialId}/tributes`, { authorName: "Sam", content: "She mended my atlas." })).status).toBe(201);
    const pending = await owner.api.get("/api/tributes/pending");
    for (const t of pending.json) await owner.api.request("PUT", `/api/tributes/${t.id}/approve`, { json: {} });
  });
  afterAll(async () => server?.stop());

  it("is offered to the owner's friend, ordered into the basket with a plain form, paid for, and read by its buyer and administrators only", async () => {
    const page = `/memorials/${memorialId}`;
    expect((await friend.api.get(page)).text).toContain("Add the book to your basket");
    // Not offered to a stranger or a visitor, and a stranger's order is refused with the reason.
    expect((await stranger.get(page)).text).not.toContain("Add the book to your basket");
    expect((await client(server.url).get(page)).text).not.toContain("A printed memorial book");
    const refused = await withOrigin(stranger, `${page}/book`, { intent: "order" });
    expect(refused.status).toBe(303);
    expect(refused.headers.get("Location")).toBe(`${page}#memorial-book`);
    expect((await stranger.get("/api/cart")).json).toEqual([]);
    // A visitor is asked to sign in and brought back.
    const visitor = await withOrigin(client(server.url), `${page}/book`, { intent: "order" });
    expect(visitor.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);

    const added = await formPost(friend.api, `${page}/book`, { intent: "order" });
    expect(added.status).toBe(303);
    expect(added.headers.get("Location")).toBe("/basket");
    const basket = await friend.api.get("/basket");
    expect(basket.text).toContain("Bertha Bookbinder Memorial");
    expect(basket.text).toContain("Printed keepsake book");

    const intent = await friend.api.post("/api/create-payment-intent", { shipping: SHIPPING });
    expect(intent.status).toBe(200);
    const paid = await friend.api.post("/api/test-payments/pay", { paymentIntentId: intent.json.paymentIntentId });
    expect(paid.status).toBe(201);
    const orders = await friend.api.get("/orders");
    const href = /href="(\/orders\/[^"]+\/book\/[^"]+)"/.exec(orders.text)?.[1];
    expect(href).toBeTruthy();
    expect(orders.text).toContain("Preview the book (PDF)");

    const mine = await pdfOf(friend.api, href!);
    expect(mine.res.status).toBe(200);
    expect(mine.res.headers.get("Content-Type")).toBe("application/pdf");
    expect(mine.res.headers.get("Cache-Control")).toMatch(/no-store/);
    expect(mine.res.headers.get("Content-Disposition")).toBe('inline; filename="bertha-bookbinder-memorial-book.pdf"');
    const text = await pdfText(mine.bytes);
    expect(text).toContain("Bertha Bookbinder");
    expect(text).toContain("She bound books in Bath.");
    expect(text).toContain("She mended my atlas.");

    // The administrator finds it on the order and downloads it for the printer.
    const adminOrders = await admin.get("/admin/orders");
    expect(adminOrders.text).toContain(`${href}?download`);
    const printed = await pdfOf(admin, `${href}?download`);
    expect(printed.res.status).toBe(200);
    expect(printed.res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="bertha-bookbinder-memorial-book\.pdf"$/);
    expect(Buffer.from(printed.bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");

    // Anyone else: 404, the memorial's owner included; a visitor signs in first.
    for (const who of [owner.api, stranger]) expect((await who.get(href!)).status).toBe(404);
    const [, orderId] = /^\/orders\/([^/]+)\//.exec(href!)!;
    expect((await friend.api.get(`/orders/${orderId}/book/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await client(server.url).get(href!)).headers.get("Location")).toMatch(/^\/login/);
  });

  it("lets the owner preview the book before anyone orders it; nobody else", async () => {
    const preview = `/memorials/${memorialId}/book`;
    expect((await owner.api.get(`/memorials/${memorialId}`)).text).toContain("Preview the book (PDF)");
    expect((await friend.api.get(`/memorials/${memorialId}`)).text).not.toContain("Preview the book (PDF)");
    const own = await pdfOf(owner.api, preview);
    expect(own.res.status).toBe(200);
    expect(own.res.headers.get("Content-Type")).toBe("application/pdf");
    for (const who of [friend.api, stranger, admin, client(server.url)]) expect((await who.get(preview)).status).toBe(404);
  });

  it("is turned off by the family with a plain form: the offer goes and ordering is refused with the reason", async () => {
    const page = `/memorials/${memorialId}`;
    // Only the family may switch it (a stranger's post is a 404 and changes nothing).
    expect((await withOrigin(stranger, `${page}/book`, { intent: "offers" })).status).toBe(404);
    expect((await friend.api.get(page)).text).toContain("Add the book to your basket");
    const edit = await owner.api.get(`${page}/edit`);
    expect(edit.text).toContain("What is offered beside this memorial");

    const off = await formPost(owner.api, `${page}/book`, { intent: "offers" });
    expect(off.status).toBe(303);
    expect(off.headers.get("Location")).toBe(`${page}/edit#shop-offers`);
    expect((await friend.api.get(page)).text).not.toContain("A printed memorial book");
    expect((await owner.api.get(page)).text).not.toContain("A printed memorial book");
    const refused = await formPost(friend.api, `${page}/book`, { intent: "order" });
    expect(refused.headers.get("Location")).toBe(`${page}#memorial-book`);
    const api = await friend.api.post("/api/cart", { memorialId });
    expect(api.status).toBe(400);
    expect(api.json.message).toBe("The family has chosen not to offer a printed book of this memorial.");

    await formPost(owner.api, `${page}/book`, { intent: "offers", shopOffers: "on" });
    expect((await friend.api.get(page)).text).toContain("Add the book to your basket");
  });
});
