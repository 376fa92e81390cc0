import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoute, endpoint, type Access } from "~/request/api-route.server";
import { client, registerMember, startServer, type Client, type TestServer } from "./http";
import { fillPattern, routeTable } from "./route-table";

process.env.SESSION_SECRET ??= "access-test-secret-that-is-long-enough-0123456789";

// Every /api endpoint's access level, checked over real HTTP as a visitor, a member and an administrator
//. The endpoints and their methods come from the route table itself (app/routes.ts, and each
// route's own `Allow`), so a new endpoint is checked by default: one missing from CONTRACT fails until its
// access level is written here, and one whose guard does not match it fails on its behaviour.

/** "METHOD /api/pattern" → who may call it, as our decisions say (README). */
const CONTRACT: Record<string, Access> = {
  "GET /api/auth/user": "member",
  "POST /api/auth/login": "public",
  "POST /api/auth/register": "public",
  "POST /api/auth/logout": "public",
  "GET /api/memorials": "public",
  "POST /api/memorials": "member",
  "GET /api/memorials/:id": "public",
  "PUT /api/memorials/:id": "member",
  "DELETE /api/memorials/:id": "member",
  "POST /api/memorials/:id/profile-image": "member",
  "GET /api/memorials/:id/media": "public",
  "POST /api/memorials/:id/media": "member",
  "DELETE /api/memorials/media/:mediaId": "member",
  "GET /api/memorials/:id/tributes": "public",
  "POST /api/memorials/:id/tributes": "public",
  "POST /api/memorials/:id/view": "public",
  "POST /api/memorials/:id/share": "public",
  "GET /api/tributes/pending": "member",
  "PUT /api/tributes/:id/approve": "member",
  "DELETE /api/tributes/:id": "member",
  "GET /api/tributes": "admin",
  "POST /api/ai/generate-biography": "member",
  "POST /api/ai/generate-tribute": "public",
  "POST /api/ai/stream-tribute": "public",
  "GET /api/popup-state/:type": "member",
  "POST /api/popup-state/:type/:event": "member",
  "GET /api/feedback": "member",
  "POST /api/feedback": "member",
  "PUT /api/auth/profile": "member",
  "PUT /api/auth/change-password": "member",
  "PUT /api/auth/profile-picture": "member",
  "GET /api/products": "public",
  "GET /api/cart": "member",
  "POST /api/cart": "member",
  "DELETE /api/cart": "member",
  "PUT /api/cart/:id": "member",
  "DELETE /api/cart/:id": "member",
  "POST /api/create-payment-intent": "member",
  "POST /api/orders/create-from-payment": "member",
  "GET /api/orders": "member",
  // Stripe's own call: its signature is its authentication (a request without one is a 400).
  "POST /api/stripe/webhook": "public",
  "POST /api/test-payments/pay": "member",
  "POST /api/create-subscription-payment": "member",
  "POST /api/complete-subscription-upgrade": "member",
  "POST /api/cancel-subscription": "member",
  "GET /api/vault/password": "member",
  "POST /api/vault/password": "member",
  "POST /api/vault/verify": "member",
  "GET /api/vault/files": "member",
  "POST /api/vault/files": "member",
  "DELETE /api/vault/files/:id": "member",
  "GET /api/vault/files/:id/download": "member",
  "GET /api/friends": "member",
  "GET /api/friends/requests": "member",
  "GET /api/friends/search": "member",
  "POST /api/friends/request": "member",
  "POST /api/friends/requests/:id/respond": "member",
  "DELETE /api/friends/:id": "member",
  "DELETE /api/friends/requests/:id": "member",
  "GET /api/news": "public",
  "POST /api/contact": "public",
  "GET /api/admin/users": "admin",
  "DELETE /api/admin/users/:id": "admin",
  "PATCH /api/admin/users/:id": "admin",
  "GET /api/admin/contact-messages": "admin",
  "PATCH /api/admin/contact-messages/:id/status": "admin",
  "GET /api/admin/products": "admin",
  "POST /api/admin/products": "admin",
  "PUT /api/admin/products/:id": "admin",
  "DELETE /api/admin/products/:id": "admin",
  "GET /api/admin/orders": "admin",
  "PATCH /api/admin/orders/:id/status": "admin",
  "GET /api/admin/news/count": "admin",
  "POST /api/admin/news/fetch": "admin",
};

type Who = "visitor" | "member" | "admin";
type Observed = Partial<Record<Who, number>>;

/** What is wrong with how an endpoint answered each kind of caller, given the access it should have. */
export function accessFailures(key: string, expected: Access | undefined, observed: Observed): string[] {
  if (!expected) return [`${key}: not in the contract; write down who may call it`];
  const failures: string[] = [];
  const denied = (status: number | undefined) => status === 401 || status === 403;
  const check = (who: Who, ok: (status: number) => boolean, wanted: string) => {
    const status = observed[who];
    if (status !== undefined && !ok(status)) failures.push(`${key}: ${who} got ${status}, expected ${wanted}`);
  };
  if (expected === "public") {
    check("visitor", (s) => !denied(s), "to be let in");
  } else {
    check("visitor", (s) => s === 401, "401");
    if (expected === "member") check("member", (s) => !denied(s), "to be let in");
    else check("member", (s) => s === 403, "403");
  }
  check("admin", (s) => !denied(s), "to be let in");
  return failures;
}

describe("the access check itself", () => {
  it("catches an endpoint whose guard is missing: a member-only call open to visitors fails", async () => {
    const forgotten = apiRoute({ GET: endpoint({ access: "public", handle: () => ({ everyonesSecrets: true }) }) });
    const visitor = (await forgotten.loader({ request: new Request("http://localhost/api/fixture"), params: {} })).status;
    expect(visitor).toBe(200);
    expect(accessFailures("GET /api/fixture", "member", { visitor })).toEqual(["GET /api/fixture: visitor got 200, expected 401"]);
  });

  it("passes the same endpoint once it is guarded", async () => {
    const guarded = apiRoute({ GET: endpoint({ access: "member", handle: ({ user }) => ({ id: user.id }) }) });
    const visitor = (await guarded.loader({ request: new Request("http://localhost/api/fixture"), params: {} })).status;
    expect(accessFailures("GET /api/fixture", "member", { visitor })).toEqual([]);
  });

  it("catches a new endpoint nobody declared", () => {
    expect(accessFailures("PATCH /api/new-thing", undefined, {})).toEqual(["PATCH /api/new-thing: not in the contract; write down who may call it"]);
  });
});

describe("every /api endpoint answers visitors, members and administrators as the contract says", () => {
  let server: TestServer;
  const callers = {} as Record<Who, Client>;
  let publicMemorialId: string;

  beforeAll(async () => {
    // The demo data brings an administrator whose password is known (README).
    server = await startServer({ SEED_DEMO_DATA: "true" });
    callers.visitor = client(server.url);
    callers.member = (await registerMember(server.url)).api;
    callers.admin = client(server.url);
    const signedIn = await callers.admin.post("/api/auth/login", { email: "admin@everlight.test", password: "AdminDemo123" });
    expect(signedIn.json.isAdmin).toBe(true);
    const owner = (await registerMember(server.url)).api;
    publicMemorialId = (await owner.post("/api/memorials", { firstName: "Access", lastName: "Check", visibility: "public", isPublished: true })).json.id;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("for every method of every route in the table", async () => {
    const routes = (await routeTable()).filter((r) => r.api && r.pattern !== "/api/*");
    const calls: { key: string; method: string; path: string }[] = [];
    for (const route of routes) {
      const path = fillPattern(route.pattern, { id: publicMemorialId, type: "ux_feedback", event: "skip" });
      const options = await callers.visitor.request("OPTIONS", path);
      expect(options.status, `OPTIONS ${route.pattern}`).toBe(204);
      for (const method of (options.headers.get("allow") ?? "").split(", ").filter((m) => m && m !== "HEAD")) {
        calls.push({ key: `${method} ${route.pattern}`, method, path });
      }
    }
    // What ends a session or deletes something goes last, so the other calls see the same world.
    const order = (call: { key: string; method: string }) => (call.key.includes("logout") ? 2 : call.method === "DELETE" ? 1 : 0);
    calls.sort((a, b) => order(a) - order(b));

    const failures: string[] = [];
    for (const call of calls) {
      const observed: Observed = {};
      for (const who of ["visitor", "member", "admin"] as const) {
        const body = call.method === "GET" || call.method === "DELETE" ? undefined : {};
        observed[who] = (await callers[who].request(call.method, call.path, body === undefined ? {} : { json: body })).status;
      }
      failures.push(...accessFailures(call.key, CONTRACT[call.key], observed));
    }
    expect(failures).toEqual([]);
    // And the contract names nothing the table no longer has.
    expect(Object.keys(CONTRACT).filter((key) => !calls.some((c) => c.key === key))).toEqual([]);
  });
});
