import { randomBytes } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHOP_MESSAGES } from "~/utils/shop";
import { client, serverDatabases, startServer, type TestServer } from "./http";
import { addToBasket, formPost, insertProducts, shopProducts } from "./shop";

// Small things a client can send that used to go wrong, on the built server over real HTTP: a basket
// quantity of 2.5 is told to be a whole number, not "at least 1";
// a Host header no address can hold is a 400, never a 500 (raw sockets: fetch will not send one); a
// sign-in whose redirectTo holds a character a Location header cannot carry goes home instead of
// failing with a 500.

const products = shopProducts({ candle: { price: 1250, stock: 10 } });

describe.each(serverDatabases())("request edges on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({}, { database, prepare: insertProducts(products) });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** One request over a raw socket, exactly as written; answers the status line's code and the body. */
  function raw(lines: string[]): Promise<{ status: number; text: string }> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1");
      const chunks: Buffer[] = [];
      socket.on("data", (c) => chunks.push(c));
      socket.on("error", reject);
      socket.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: Number(text.split(" ")[1]), text });
      });
      socket.setTimeout(10_000, () => socket.destroy(new Error("no answer in 10 s")));
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    });
  }
  const get = (path: string, host: string | null, version = "1.1") =>
    raw([
      `GET ${path} HTTP/${version}`,
      ...(host === null ? [] : [`Host: ${host}`]),
      `X-Forwarded-For: 10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
      "Connection: close",
    ]);

  describe("a quantity that is not a whole number", () => {
    it("is refused as such by POST /api/cart and PUT /api/cart/{id}, and the line keeps its quantity", async () => {
      const { api } = await member();
      const added = await api.post("/api/cart", { productId: products.candle.id, quantity: 2.5 });
      expect(added.status).toBe(400);
      expect(added.json).toMatchObject({ message: SHOP_MESSAGES.quantityWhole, errors: { quantity: [SHOP_MESSAGES.quantityWhole] } });
      expect(SHOP_MESSAGES.quantityWhole).toBe("Quantity must be a whole number");
      expect((await api.get("/api/cart")).json).toEqual([]);

      const line = await addToBasket(api, products.candle, 2);
      const set = await api.put(`/api/cart/${line.id}`, { quantity: 2.5 });
      expect(set.status).toBe(400);
      expect(set.json.message).toBe("Quantity must be a whole number");
      // Below one is still "at least 1".
      expect((await api.put(`/api/cart/${line.id}`, { quantity: 0 })).json.message).toBe("Quantity must be at least 1");
      expect((await api.get("/api/cart")).json[0]).toMatchObject({ id: line.id, quantity: 2 });
    });

    it("is refused as such by the basket's quantity form, next to the line, with what was typed kept", async () => {
      const { api } = await member();
      const line = await addToBasket(api, products.candle, 2);
      const page = await formPost(api, "/basket", { intent: "set", itemId: line.id, quantity: "2.5" });
      expect(page.status).toBe(400);
      expect(page.text).toContain("Quantity must be a whole number");
      expect(page.text).not.toContain("Quantity must be at least 1");
      expect(page.text).toMatch(/value="2\.5"/);
      expect((await api.get("/api/cart")).json[0]).toMatchObject({ quantity: 2 });
    });
  });

  describe("the Host header", () => {
    it.each([
      ["empty", ""],
      ["an unclosed IPv6 literal", "[::1"],
      ["a port beyond 65535", "x:99999999"],
      ["a port of 99999", "x:99999"],
      ["a space in the name", "a b"],
      ["a path in it", "example.test/evil"],
    ])("that is %s is a 400 for a page and a JSON 400 for the /api, never a 500", async (_what, host) => {
      for (const path of ["/", "/products", "/memorials/00000000-0000-4000-8000-000000000000", "/favicon.ico"]) {
        const page = await get(path, host);
        expect(page.status, `${path} with Host "${host}"`).toBe(400);
      }
      const page = await get("/", host);
      expect(page.text).toContain("This request names no site we know");
      const api = await get("/api/products", host);
      expect(api.status).toBe(400);
      expect(JSON.parse(api.text.slice(api.text.indexOf("\r\n\r\n") + 4))).toEqual({ message: expect.stringContaining("Host header") });
    });

    it("that names a site (or, in HTTP/1.0, is left out) is answered, and the server stays healthy", async () => {
      expect((await get("/", new URL(server.url).host)).status).toBe(200);
      expect((await get("/", "everlight.example:8080")).status).toBe(200);
      expect((await get("/", "[::1]:3000")).status).toBe(200);
      expect((await get("/products", null, "1.0")).status).toBe(200);
      expect((await client(server.url).get("/healthz")).status).toBe(200);
    });
  });

  describe("signing in with a redirectTo a Location header cannot carry", () => {
    it("signs in and goes home instead of failing with a 500", async () => {
      const { email, password } = await member();
      const browser = client(server.url);
      // What the login page's hidden field holds for /login?redirectTo=%2F%25E3%2580%2582%2Fevil.example… as the browser sends it.
      for (const redirectTo of ["/\u3002/evil.example", "/caf\u00e9"]) {
        const signedIn = await formPost(browser, "/login", { email, password, redirectTo });
        expect(signedIn.status, redirectTo).toBe(303);
        expect(signedIn.headers.get("location")).toBe("/");
        expect(browser.cookie).toContain("__session=");
        await formPost(browser, "/logout", {});
      }
      // A path of ours, percent-encoded as we send it, is still followed.
      const back = await formPost(browser, "/login", { email, password, redirectTo: "/products?category=physical" });
      expect(back.headers.get("location")).toBe("/products?category=physical");
    });

    it("is refused with a 401, not a 500, when the password is wrong", async () => {
      const { email } = await member();
      const refused = await formPost(client(server.url), "/login", { email, password: "Wrong-horse-1", redirectTo: "/\u3002/evil.example" });
      expect(refused.status).toBe(401);
    });
  });

  async function member() {
    const api = client(server.url);
    const email = `edge-${randomBytes(5).toString("hex")}@example.test`;
    const password = "Correct1horse";
    const res = await api.post("/api/auth/register", { firstName: "Edge", lastName: "Case", email, password });
    expect(res.status).toBe(201);
    return { api, email, password };
  }
});
