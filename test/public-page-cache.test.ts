import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, serverDatabases, startServer, type ApiResponse, type TestServer } from "./http";
import { hashPassword } from "~/services/password.server";
import type { Database } from "~/services/db.server";
import { startFeedServer, type FeedTestServer } from "./feed-server";
import { addToBasket, insertProducts, SHIPPING, shopProducts } from "./shop";

// Every anonymous public page is kept rendered (server/page-cache.ts), keyed by versions read
// from the database that triggers move (migration 20261124000000_page_versions). Over real HTTP against
// the built server:
// - each kind of change shows on the very next anonymous request of every page that shows it; on
//   PostgreSQL with two app instances on one database, the change made through one instance (or straight
//   in the database, bypassing the app) and the page read from the other, whose kept copy was warm;
// - no kept copy ever holds a member's name, a flash message, a form's error, or the nonce or form stamp
//   of another request.

const products = shopProducts({
  urn: { price: 1250, stock: 9 },
  candle: { price: 399, stock: 40, category: "Candles" },
  lantern: { price: 2500, stock: 1, category: "Garden" },
});
const ADMIN = { email: `admin-${randomBytes(4).toString("hex")}@example.test`, password: "Lantern-Keeper-42" };

/** For startServer({ prepare }): the products, and an administrator to fetch the news. */
async function prepare(db: Database) {
  await insertProducts(products)(db);
  await db.prisma.user.create({
    data: { email: ADMIN.email, password: await hashPassword(ADMIN.password), firstName: "Ada", lastName: "Keeper", isAdmin: true },
  });
}

let feeds: FeedTestServer;

/** A product's card on the shop page (its <article>, which holds its name, price and stock). */
function cardOf(html: string, name: string) {
  const at = html.indexOf(name);
  expect(at, `${name} on the page`).toBeGreaterThan(0);
  return html.slice(html.lastIndexOf("<article", at), html.indexOf("</article>", at));
}

const fresh = () => client(first.url);
/** The instance that reads: on PostgreSQL the second one, whose copies were kept before the change. */
const reader = () => client(second.url);

let first: TestServer;
let second: TestServer;
let stopSecond: (() => Promise<void>) | undefined;

const nonceOf = (res: ApiResponse) => /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
const stampOf = (res: ApiResponse) => /name="formStartedAt" value="([^"]+)"/.exec(res.text)?.[1];

describe.each(serverDatabases())("kept public pages on %s", (database) => {
  beforeAll(async () => {
    // Both instances sign sessions with one secret, as instances behind one load balancer do.
    feeds ??= await startFeedServer();
    const secrets = { SESSION_SECRET: randomBytes(32).toString("base64url"), NEWS_FEEDS: `${feeds.url}/rss.xml` };
    first = await startServer(secrets, { database, prepare });
    if (database === "postgres") {
      // A second app instance on the same PostgreSQL database.
      const other = await startServer({ ...secrets, DATABASE_URL: first.databaseUrl! }, { database: "pglite" });
      second = other;
      stopSecond = other.stop;
    } else {
      second = first;
    }
  }, 120_000);
  afterAll(async () => {
    await stopSecond?.();
    stopSecond = undefined;
    await first?.stop();
  });
  afterAll(async () => {
    if (database === serverDatabases().at(-1)) await feeds?.stop();
  });

  /** The page as an anonymous visitor of the reading instance gets it, checked to come from the cache. */
  async function page(path: string, status = 200) {
    const res = await reader().get(path);
    expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(status);
    return res;
  }
  async function cached(path: string, status = 200) {
    await page(path, status);
    const res = await page(path, status);
    expect(res.headers.get("etag"), `${path} is kept`).toMatch(/^W\//);
    expect(res.headers.get("cache-control")).toBe("public, no-cache");
    return res.text;
  }

  it("a memorial published, edited, given an approved tribute, made private and deleted shows on the very next request of the landing page, browse, a search and its own page", async () => {
    const owner = (await registerMember(first.url, { firstName: "Pia", lastName: "Owner" })).api;
    const tag = randomBytes(4).toString("hex");
    const surname = `Quillon${tag}`;
    const search = `/memorials?search=${surname}`;
    const created = await owner.post("/api/memorials", {
      firstName: "Edda",
      lastName: surname,
      biography: "Kept lighthouses.",
      visibility: "public",
      isPublished: false,
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as string;
    const listings = ["/", "/memorials", search, "/market"];

    // A card links to its memorial (a search also shows what was searched for: the card is what counts).
    const card = `href="/memorials/${id}"`;
    for (const path of listings) expect(await cached(path), path).not.toContain(card);

    // Published.
    expect((await owner.put(`/api/memorials/${id}`, { isPublished: true })).status).toBe(200);
    for (const path of listings) {
      const text = (await page(path)).text;
      expect(text, `published: ${path}`).toContain(card);
      expect(text, `published: ${path}`).toContain(`Edda ${surname}`);
    }
    expect(await cached(`/memorials/${id}`)).toContain("Kept lighthouses.");

    // Edited.
    expect((await owner.put(`/api/memorials/${id}`, { firstName: "Ebba", biography: "Kept lighthouses and goats." })).status).toBe(200);
    for (const path of listings) {
      const text = (await page(path)).text;
      // (The title, "In loving memory of…", keeps the name it was given.)
      expect(text, `edited: ${path}`).toContain(`Ebba ${surname}`);
    }
    expect((await page(`/memorials/${id}`)).text).toContain("Kept lighthouses and goats.");

    // A tribute approved: on its page, and counted on its card.
    await cached(`/memorials/${id}`);
    expect(await cached(search)).not.toContain("1 tribute");
    const tribute = await fresh().post(`/api/memorials/${id}/tributes`, { authorName: "Ned", content: `The lamp is still lit ${tag}.` });
    expect(tribute.status, tribute.text).toBe(201);
    expect((await page(`/memorials/${id}`)).text).not.toContain(`The lamp is still lit ${tag}.`);
    expect((await owner.put(`/api/tributes/${tribute.json.id}/approve`)).status).toBe(200);
    expect((await page(`/memorials/${id}`)).text).toContain(`The lamp is still lit ${tag}.`);
    expect((await page(search)).text).toContain("1 tribute");

    // Made private.
    for (const path of listings) await cached(path);
    expect((await owner.put(`/api/memorials/${id}`, { visibility: "private" })).status).toBe(200);
    for (const path of listings) expect((await page(path)).text, `private: ${path}`).not.toContain(card);
    const locked = await reader().get(`/memorials/${id}`);
    expect(locked.text).not.toContain("Kept lighthouses and goats.");
    expect(locked.headers.get("cache-control") ?? "").not.toBe("public, no-cache");

    // Public again, then deleted.
    expect((await owner.put(`/api/memorials/${id}`, { visibility: "public" })).status).toBe(200);
    for (const path of listings) expect(await cached(path), `public again: ${path}`).toContain(card);
    await cached(`/memorials/${id}`);
    expect((await owner.delete(`/api/memorials/${id}`)).status).toBeLessThan(300);
    for (const path of listings) expect((await page(path)).text, `deleted: ${path}`).not.toContain(card);
    const gone = await reader().get(`/memorials/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.text).not.toContain("Kept lighthouses");
  }, 120_000);

  it("a search no one made before shows the Featured memorials as they are now, though they are read once per change", async () => {
    const owner = (await registerMember(first.url, { firstName: "Fen", lastName: "Owner" })).api;
    const created = await owner.post("/api/memorials", {
      firstName: "Orla",
      lastName: "Featured",
      biography: "Rang the bell.",
      visibility: "public",
      isPublished: true,
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.id as string;
    const card = `href="/memorials/${id}"`;
    // A search that finds nothing: the memorial's card can only be in the Featured carousel.
    const newSearch = () => page(`/memorials?search=nothing${randomBytes(4).toString("hex")}`);
    const featured = async () => (await newSearch()).text.includes(card);

    // The newest memorial, with no views yet like the others: featured, on every new search.
    expect(await featured()).toBe(true);
    expect(await featured()).toBe(true);
    expect((await owner.put(`/api/memorials/${id}`, { visibility: "private" })).status).toBe(200);
    expect(await featured(), "made private").toBe(false);
    expect(await featured(), "made private").toBe(false);
    expect((await owner.put(`/api/memorials/${id}`, { visibility: "public", firstName: "Orlaith" })).status).toBe(200);
    const again = (await newSearch()).text;
    expect(again, "public again").toContain(card);
    expect(again, "renamed").toContain("Orlaith Featured");
    expect((await owner.delete(`/api/memorials/${id}`)).status).toBeLessThan(300);
    expect(await featured(), "deleted").toBe(false);
  }, 120_000);

  it("a purchase that takes the last one in stock, and a news fetch by an administrator, show on the very next request", async () => {
    const { lantern } = products;
    expect(await cached("/products")).toContain(lantern.name);
    const before = await cached("/products?category=physical");
    const card = (html: string) => cardOf(html, lantern.name);
    expect(card(before)).not.toContain("Out of stock");

    const buyer = (await registerMember(first.url, { firstName: "Bo", lastName: "Buyer" })).api;
    await addToBasket(buyer, lantern);
    const intent = await buyer.post("/api/create-payment-intent", { shipping: SHIPPING });
    expect(intent.status, intent.text).toBeLessThan(300);
    const paid = await buyer.post("/api/test-payments/pay", { paymentIntentId: intent.json.paymentIntentId });
    expect(paid.status, paid.text).toBe(201);
    for (const path of ["/products", "/products?category=physical"]) expect(card((await page(path)).text), path).toContain("Out of stock");

    const title = `Ferryman remembered ${randomBytes(4).toString("hex")}`;
    feeds.setItems("rss", [
      { title, path: `/story-${randomBytes(4).toString("hex")}`, description: "A life on the water.", published: new Date().toUTCString() },
    ]);
    expect(await cached("/news")).not.toContain(title);
    const admin = client(first.url);
    expect((await admin.post("/api/auth/login", ADMIN)).status).toBe(200);
    const fetched = await admin.post("/api/admin/news/fetch");
    expect(fetched.status, fetched.text).toBeLessThan(300);
    expect((await page("/news")).text).toContain(title);
  }, 120_000);

  it("a plan paid for shows in the endowment fund's public report on the very next request", async () => {
    const before = await cached("/endowment");
    const fundOf = (html: string) => Number(/The fund today<\/h2><p[^>]*>£([\d,.]+)</.exec(html)?.[1].replace(/,/g, ""));
    const year = new Date().getUTCFullYear();
    expect(before).toContain("The Endowment Fund");
    const member = (await registerMember(first.url, { firstName: "Fay", lastName: "Fund" })).api;
    const created = await member.post("/api/create-subscription-payment", { planId: "forever", paymentType: "full" });
    expect(created.status, created.text).toBe(200);
    expect((await member.post("/api/test-payments/pay", { paymentIntentId: created.json.paymentIntentId })).status).toBe(200);
    const after = (await page("/endowment")).text;
    // £279.00 more taken this year: £41.85 more in the fund.
    expect(Math.round((fundOf(after) - fundOf(before)) * 100)).toBe(4185);
    expect(after).toContain(`>${year}</th>`);
  }, 120_000);

  it.runIf(database === "postgres")(
    "a product's price, stock and activity, and a news fetch, changed in the database by any code, show on the very next request",
    async () => {
      const db = new pg.Client({ connectionString: first.databaseUrl });
      await db.connect();
      try {
        const { urn } = products;
        const shop = ["/products", "/products?category=physical"];
        for (const path of shop) expect(await cached(path), path).toContain("£12.50");

        await db.query(`UPDATE products SET price = 1399 WHERE id = $1`, [urn.id]);
        for (const path of shop) {
          const text = (await page(path)).text;
          expect(text, `price: ${path}`).toContain("£13.99");
          expect(text, `price: ${path}`).not.toContain("£12.50");
        }

        expect(cardOf(await cached("/products"), urn.name)).not.toContain("Out of stock");
        await db.query(`UPDATE products SET "stockQuantity" = 0 WHERE id = $1`, [urn.id]);
        expect(cardOf((await page("/products")).text, urn.name)).toContain("Out of stock");

        await db.query(`UPDATE products SET "isActive" = false WHERE id = $1`, [urn.id]);
        for (const path of shop) expect((await page(path)).text, `inactive: ${path}`).not.toContain(urn.name);

        // A news fetch adds articles (app/models/news.server.ts); here written straight into the table.
        const title = `Harbour lamp relit ${randomUUID().slice(0, 8)}`;
        expect(await cached("/news")).not.toContain(title);
        await db.query(`INSERT INTO news_articles (title, url, "publishedAt") VALUES ($1, $2, now())`, [title, `https://example.test/${randomUUID()}`]);
        expect((await page("/news")).text).toContain(title);
      } finally {
        await db.end();
      }
    },
    60_000,
  );

  it("no kept copy holds a member's name, a flash message, a form's error, or another request's nonce or form stamp", async () => {
    const paths = [
      "/",
      "/memorials",
      "/memorials?search=a",
      "/products",
      "/news",
      "/help",
      "/terms",
      "/privacy",
      "/contact",
      `/no-such-page-${randomBytes(3).toString("hex")}`,
    ];
    const status = (path: string) => (path.startsWith("/no-such-page") ? 404 : 200);
    const firstName = `Zebulon${randomBytes(3).toString("hex")}`;
    const member = (await registerMember(first.url, { firstName, lastName: "Membership" })).api;
    const memberOnSecond = client(second.url, { cookie: member.cookie });

    for (const path of paths) {
      // A member renders the page first, on both instances…
      for (const who of [member, memberOnSecond]) {
        const own = await who.get(path);
        expect(own.text, `a member's ${path}`).toContain(firstName);
        expect(own.headers.get("cache-control") ?? "", path).toMatch(/private/);
      }
      // …then a visitor with a flash message (a visitor adding to the basket is sent to sign in, with a toast)…
      const visitor = client(second.url);
      const post = await visitor.request("POST", "/products", {
        body: new URLSearchParams({ productId: products.candle.id, quantity: "1" }).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(post.status).toBe(303);
      expect(visitor.cookie).toMatch(/__toast=/);
      const toasted = await visitor.get(path);
      expect(toasted.text, `the toast on ${path}`).toContain("Please log in to add items to cart");
      // …and the next anonymous visitor gets neither.
      const next = await page(path, status(path));
      expect(next.text, path).not.toContain(firstName);
      expect(next.text, path).not.toContain("Please log in to add items to cart");
      expect(next.headers.get("cache-control"), path).toBe("public, no-cache");
    }

    // A contact form sent back with errors (and what was typed) stays with its sender.
    const typed = `Lost my login ${randomBytes(3).toString("hex")}`;
    const refused = await client(second.url).request("POST", "/contact", {
      body: new URLSearchParams({ name: "", email: "not-an-email", subject: typed, type: "general", message: "x", website: "" }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(typed);
    const after = await page("/contact");
    expect(after.text).not.toContain(typed);
    expect(after.text).not.toContain('aria-invalid="true"');

    // Each anonymous copy has its own nonce (the one in its policy) and its own form stamp, issued when it
    // was asked for (a stamp is a signed time: two copies in one millisecond would share it, so one at a time).
    const askedAt = Date.now();
    const copies: ApiResponse[] = [];
    for (const path of ["/contact", "/contact", "/help", paths[9]]) {
      copies.push(await page(path, status(path)));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const nonces = copies.map(nonceOf);
    expect(new Set(nonces).size).toBe(copies.length);
    copies.forEach((res, i) => {
      expect(res.text).toContain(`nonce="${nonces[i]}"`);
      for (const other of nonces.filter((_, j) => j !== i)) expect(res.text).not.toContain(other!);
    });
    const stamps = copies.slice(0, 2).map(stampOf);
    expect(stamps[0]).toBeTruthy();
    expect(stamps[0]).not.toBe(stamps[1]);
    for (const stamp of stamps) expect(Number(stamp!.split(".")[0])).toBeGreaterThanOrEqual(askedAt);
    for (const res of copies.slice(0, 2))
      expect(res.text.split(stampOf(res)!).length - 1, "the stamp in the form and in the page's data").toBeGreaterThanOrEqual(1);
  }, 120_000);
});
