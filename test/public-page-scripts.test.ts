import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, startServer, type Client, type TestServer } from "./http";

// Every page a visitor opens without signing in is sent as the memorial page is, its scripts held
// back until the visitor first uses the page (app/request/hydrate-on-use.server.ts): no script preloads, and
// React Router's module script in a type browsers do not run. A member's dashboard, at the landing page's
// address, loads its scripts at once. The browser tests (e2e, project js) prove the pages then hydrate.

let server: TestServer;
let member: Client;
let memorialId: string;

beforeAll(async () => {
  server = await startServer();
  member = (await registerMember(server.url)).api;
  const memorial = await member.post("/api/memorials", { firstName: "Scripts", lastName: "Later", visibility: "public", isPublished: true });
  memorialId = memorial.json.id;
});
afterAll(async () => {
  await server?.stop();
});

const deferred = (html: string) => html.includes('type="everlight/on-use" data-module=""') && !html.includes('rel="modulepreload"');

describe("public pages load their scripts on first use", () => {
  const pages = () => [
    "/",
    "/memorials",
    "/memorials?search=later",
    "/market",
    `/memorials/${memorialId}`,
    "/products",
    "/products?category=physical",
    "/news",
    "/endowment",
    "/help",
    "/terms",
    "/privacy",
    "/contact",
    "/no-such-page",
    "/login",
    "/register",
    "/forgot-password",
  ];

  it("for a visitor, on every public page", async () => {
    const visitor = client(server.url);
    for (const path of pages()) {
      const res = await visitor.get(path);
      expect([200, 404], path).toContain(res.status);
      expect(deferred(res.text), path).toBe(true);
    }
  });

  it("but a member's dashboard loads its scripts at once", async () => {
    const res = await member.get("/");
    expect(res.status).toBe(200);
    expect(res.text).toContain("Dashboard");
    expect(res.text).toContain('type="module"');
    expect(deferred(res.text)).toBe(false);
  });
});
