import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, startServer, type Client, type TestServer } from "./http";
import { fillPattern, routeTable } from "./route-table";

// The admin dashboard's role matrix over real HTTP: every /admin page and every /admin action,
// read from the route table (app/routes.ts), as a visitor (sent to sign in), a member (403 Access Denied)
// and an administrator (let in). A new admin route is in the matrix by default, so one whose loader or
// action forgets requireAdminActor fails here. The admin /api is held to its access level by
// test/api-access.test.ts (CONTRACT); the admin calls that share a public path are checked here.

type Who = "visitor" | "member" | "admin";

/** What is wrong with how a page or action answered each caller. */
export function adminRouteFailures(key: string, observed: Record<Who, { status: number; location: string | null }>): string[] {
  const failures: string[] = [];
  const { visitor, member, admin } = observed;
  if (!(visitor.status >= 300 && visitor.status < 400 && (visitor.location ?? "").startsWith("/login")))
    failures.push(`${key}: visitor got ${visitor.status} ${visitor.location ?? ""}, expected a redirect to /login`);
  if (member.status !== 403) failures.push(`${key}: member got ${member.status}, expected 403`);
  if (admin.status === 401 || admin.status === 403 || admin.status >= 500 || (admin.location ?? "").startsWith("/login"))
    failures.push(`${key}: administrator got ${admin.status}, expected to be let in`);
  return failures;
}

describe("the matrix's own check", () => {
  it("catches a page whose guard is missing (a member let in) and passes a guarded one", () => {
    const guarded = {
      visitor: { status: 302, location: "/login?redirectTo=%2Fadmin" },
      member: { status: 403, location: null },
      admin: { status: 200, location: null },
    };
    expect(adminRouteFailures("GET /admin", guarded)).toEqual([]);
    expect(
      adminRouteFailures("POST /admin/x", { ...guarded, visitor: { status: 303, location: "/admin/x" }, member: { status: 303, location: "/admin/x" } }),
    ).toEqual(["POST /admin/x: visitor got 303 /admin/x, expected a redirect to /login", "POST /admin/x: member got 303, expected 403"]);
  });
});

describe("every /admin page and action as a visitor, a member and an administrator", () => {
  let server: TestServer;
  const callers = {} as Record<Who, Client>;
  let productId: string;

  beforeAll(async () => {
    server = await startServer({ SEED_DEMO_DATA: "true" });
    callers.visitor = client(server.url);
    callers.member = (await registerMember(server.url)).api;
    callers.admin = client(server.url);
    expect((await callers.admin.post("/api/auth/login", { email: "admin@everlight.test", password: "AdminDemo123" })).json.isAdmin).toBe(true);
    const product = await callers.admin.post("/api/admin/products", {
      name: "Matrix candle",
      description: "For the role matrix",
      price: 1299,
      category: "Candles",
      stockQuantity: 3,
    });
    expect(product.status).toBe(201);
    productId = product.json.id;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("sends visitors to sign in, refuses members with 403 and lets administrators in, for every page and action in the table", async () => {
    const routes = (await routeTable()).filter((r) => !r.api && /^\/admin(\/|$)/.test(r.pattern));
    expect(routes.map((r) => r.pattern)).toEqual(
      expect.arrayContaining([
        "/admin",
        "/admin/tributes",
        "/admin/users",
        "/admin/products",
        "/admin/orders",
        "/admin/news",
        "/admin/feedback",
        "/admin/contact",
        "/admin/analytics",
        "/admin/audit",
      ]),
    );
    const failures: string[] = [];
    let actions = 0;
    for (const route of routes) {
      const path = fillPattern(route.pattern, { id: productId });
      const observe = async (method: "GET" | "POST") => {
        const seen = {} as Record<Who, { status: number; location: string | null }>;
        for (const who of ["visitor", "member", "admin"] as const) {
          // An action gets a form naming no known intent: the check must come before anything is read.
          const res =
            method === "GET"
              ? await callers[who].get(path)
              : await callers[who].request("POST", path, {
                  body: "intent=nothing",
                  headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
                });
          seen[who] = { status: res.status, location: res.headers.get("location") };
        }
        return seen;
      };
      const page = await observe("GET");
      failures.push(...adminRouteFailures(`GET ${route.pattern}`, page));
      if (page.admin.status !== 200) failures.push(`GET ${route.pattern}: administrator got ${page.admin.status}, expected 200`);
      const post = await observe("POST");
      // A route with no action answers 405 to everyone, before any loader: nothing to guard.
      if (post.visitor.status === 405 && post.member.status === 405 && post.admin.status === 405) continue;
      actions++;
      failures.push(...adminRouteFailures(`POST ${route.pattern}`, post));
    }
    expect(failures).toEqual([]);
    expect(actions).toBeGreaterThanOrEqual(7);
  });

  it("holds the admin calls that share a public or member path to administrators", async () => {
    for (const path of ["/api/memorials?admin=true", "/api/tributes?approved=false"]) {
      expect((await callers.visitor.get(path)).status, path).toBe(401);
      expect((await callers.member.get(path)).status, path).toBe(403);
      expect((await callers.admin.get(path)).status, path).toBe(200);
    }
    // GET /api/feedback: a member gets their own, an administrator everyone's.
    expect((await callers.visitor.get("/api/feedback")).status).toBe(401);
    expect((await callers.member.get("/api/feedback")).json).toEqual([]);
    expect((await callers.admin.get("/api/feedback")).status).toBe(200);
  });

  it("keeps the last administrator's rights, over the /api and from the Users tab", async () => {
    // The demo data's administrator is the only one here.
    const me = (await callers.admin.get("/api/auth/user")).json.id as string;
    const own = await callers.admin.request("PATCH", `/api/admin/users/${me}`, { json: { isAdmin: false } });
    expect(own.status).toBe(409);
    expect(own.json.reason).toBe("own-rights");
    const last = await callers.admin.request("PATCH", `/api/admin/users/${me}`, { json: { isAdmin: false, confirmOwn: true } });
    expect(last.status).toBe(409);
    expect(last.json).toMatchObject({ reason: "last-admin", message: expect.stringContaining("This is the last administrator") });
    const form = await callers.admin.request("POST", "/admin/users", {
      body: new URLSearchParams({ intent: "revoke", userId: me, confirmOwn: "on" }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    });
    expect(form.status).toBe(303);
    const page = await callers.admin.get(form.headers.get("location")!);
    expect(page.status).toBe(200);
    expect(page.text).toContain("This is the last administrator");
    expect((await callers.admin.get("/api/auth/user")).json.isAdmin).toBe(true);
  });

  it("records an administrator's deletion of a member's memorial from its own page and from the /api in the audit log", async () => {
    const made = async (firstName: string) => {
      const res = await callers.member.post("/api/memorials", { firstName, lastName: "Audited", visibility: "public", isPublished: true });
      expect(res.status).toBe(201);
      return res.json.id as string;
    };
    const byApi = await made("Apiremoved");
    const byPage = await made("Pageremoved");
    expect((await callers.admin.request("DELETE", `/api/memorials/${byApi}`)).json).toEqual({ message: "Memorial deleted" });
    const form = await callers.admin.request("POST", `/memorials/${byPage}/delete`, {
      body: "",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    });
    expect(form.status).toBe(303);
    for (const id of [byApi, byPage]) expect((await callers.member.get(`/api/memorials/${id}`)).status).toBe(404);
    const audit = await callers.admin.get("/admin/audit");
    expect(audit.text).toContain("Apiremoved Audited");
    expect(audit.text).toContain("Pageremoved Audited");
  });

  it("shows a member the Access Denied words", async () => {
    const res = await callers.member.get("/admin/users");
    expect(res.status).toBe(403);
    expect(res.text).toContain("Access Denied");
    expect(res.text).toContain("You don&#x27;t have permission to access the admin dashboard.");
  });
});
