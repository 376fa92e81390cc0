import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, startServer, type ApiResponse, type Client, type TestServer } from "./http";
import { fillPattern, routeTable } from "./route-table";

// Personal pages are never stored by a shared cache. Every route, walked from the route
// table, asked for by a signed-in member (its page and its `.data`), answers `Cache-Control: private,
// no-store` and `Vary: Cookie`, unless the answer is the same for everyone and says `public` (a public
// memorial's photos). Anonymous public pages keep their public caching, and still vary by Cookie.

let server: TestServer;
let member: Client;
let memorialId: string;
let shortId: string;
let photoUrl: string;

const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

beforeAll(async () => {
  server = await startServer();
  member = (await registerMember(server.url)).api;
  const memorial = await member.post("/api/memorials", { firstName: "Cache", lastName: "Control", visibility: "public", isPublished: true });
  memorialId = memorial.json.id;
  shortId = memorial.json.shortId;
  const photo = await member.post(`/api/memorials/${memorialId}/media`, { mediaData: PNG_1PX, fileName: "p.png", fileType: "image/png" });
  photoUrl = photo.json.mediaUrl;
});
afterAll(async () => {
  await server?.stop();
});

function expectPrivate(res: ApiResponse, what: string) {
  expect(res.headers.get("cache-control"), `${what} (${res.status})`).toMatch(/\bprivate\b.*\bno-store\b|\bno-store\b.*\bprivate\b/);
  expect(res.headers.get("vary") ?? "", what).toMatch(/\bCookie\b/i);
}

/**
 * Answers that are the same for everyone and say `public` (GET /api/news, keyed by its ETag;
 * a public memorial's anniversary calendar, which calendars fetch without signing in; robots.txt and
 * sitemap.xml and its children under /sitemaps/, for crawlers).
 */
const SAME_FOR_EVERYONE = new Set(["/api/news", "/memorials/:id/anniversaries.ics", "/robots.txt", "/sitemap.xml", "/sitemaps/:file"]);

describe("a signed-in member's answers are never kept by a shared cache", () => {
  it("for every route in the table, its page and its .data", async () => {
    const routes = await routeTable();
    // The memorial's own addresses too: its permanent address (a redirect) and its QR code's PNG.
    const values = { id: memorialId, shortId, format: "png", type: "ux_feedback", event: "skip", file: "memorials-1.xml", "*": "x" };
    for (const route of routes) {
      const path = fillPattern(route.pattern, values);
      const res = await member.get(path);
      if (SAME_FOR_EVERYONE.has(route.pattern)) {
        // The same answer whoever asks, and it says so (with an ETag, revalidated each time).
        expect(res.headers.get("cache-control"), `GET ${path}`).toBe("public, no-cache");
        expect(res.headers.get("vary") ?? "", `GET ${path}`).toMatch(/\bCookie\b/i);
      } else expectPrivate(res, `GET ${path}`);
      if (!route.api && !route.pattern.startsWith("/media")) {
        const data = path === "/" ? "/_root.data" : `${path.replace(/\/$/, "")}.data`;
        expectPrivate(await member.get(data), `GET ${data}`);
      }
    }
  });

  it("also right after signing in, and for a visitor who has a message to show", async () => {
    const visitor = client(server.url);
    const login = await visitor.request("POST", "/login", {
      body: new URLSearchParams({ email: "nobody@example.test", password: "Wrong1horse" }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expectPrivate(login, "a refused sign-in");
    const registered = await registerMember(server.url);
    // A page answered with a flash message (the toast cookie) is personal too.
    const toasted = await client(server.url, { cookie: "__toast=anything" }).get(`/memorials/${memorialId}`);
    expectPrivate(toasted, "a page with a toast");
    expect(registered.api.cookie).toContain("__session=");
  });

  it("except what is the same for everyone and says so: the news list (GET /api/news) is the same with a session as without", async () => {
    for (const pattern of SAME_FOR_EVERYONE) {
      const path = fillPattern(pattern, { id: memorialId, file: "memorials-1.xml" });
      const [signedIn, anonymous] = await Promise.all([member.get(path), client(server.url).get(path)]);
      expect(signedIn.status, path).toBe(200);
      expect(signedIn.headers.get("cache-control"), path).toMatch(/^public/);
      expect(signedIn.headers.get("vary") ?? "", path).toMatch(/\bCookie\b/i);
      expect(signedIn.text, path).toBe(anonymous.text);
      expect(signedIn.headers.get("etag"), path).toBe(anonymous.headers.get("etag"));
    }
  });

  it("except what is the same for everyone and says so: a public memorial's photo stays cacheable", async () => {
    const res = await member.get(photoUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/^public/);
  });
});

describe("anonymous public pages keep their public caching", () => {
  it("the memorial page: public, no-cache, with an ETag, varying by Cookie", async () => {
    const res = await client(server.url).get(`/memorials/${memorialId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, no-cache");
    expect(res.headers.get("etag")).toBeTruthy();
    expect(res.headers.get("vary")).toMatch(/Cookie/);
  });

  it("other anonymous pages are not marked private, and still vary by Cookie", async () => {
    for (const path of ["/", "/memorials", "/help", "/login"]) {
      const res = await client(server.url).get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("cache-control") ?? "", path).not.toMatch(/private/);
      expect(res.headers.get("vary") ?? "", path).toMatch(/Cookie/);
    }
  });
});
