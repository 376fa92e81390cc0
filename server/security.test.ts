import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, startServer, type TestServer } from "../test/http";
import { contentSecurityPolicy, isCrossOrigin } from "./security";

// The cross-origin refusal and the security headers, as functions and as
// the built server sends them.

describe("isCrossOrigin", () => {
  const host = "everlight.example";

  it.each([
    ["Sec-Fetch-Site same-origin", { secFetchSite: "same-origin", origin: "https://everlight.example", host }],
    ["Sec-Fetch-Site none (typed in the address bar, a bookmark)", { secFetchSite: "none", host }],
    ["an Origin on the same host", { origin: "https://everlight.example", host }],
    ["no headers at all (curl, server-to-server: not a browser, so no ambient cookies to abuse)", { host }],
    ["no headers and no host", {}],
  ])("allows %s", (_label, headers) => {
    expect(isCrossOrigin(headers)).toBe(false);
  });

  it.each([
    ["Sec-Fetch-Site cross-site", { secFetchSite: "cross-site", host }],
    ["Sec-Fetch-Site same-site (a subdomain)", { secFetchSite: "same-site", origin: "https://shop.everlight.example", host }],
    ["a subdomain's Origin without Sec-Fetch-Site", { origin: "https://shop.everlight.example", host }],
    ["Origin null (sandboxed frames, data: pages)", { origin: "null", host }],
    ["an Origin on another host", { origin: "https://evil.example", host }],
    ["an Origin on another port of the same host", { origin: "https://everlight.example:8443", host }],
    ["an Origin that is not a URL", { origin: "not a url", host }],
    ["a cross-site Sec-Fetch-Site even when Origin matches", { secFetchSite: "cross-site", origin: "https://everlight.example", host }],
  ])("refuses %s", (_label, headers) => {
    expect(isCrossOrigin(headers)).toBe(true);
  });
});

describe("contentSecurityPolicy", () => {
  const directives = (nonce: string) =>
    Object.fromEntries(
      contentSecurityPolicy(nonce)
        .split(/;\s*/)
        .map((d) => [d.split(" ")[0], d.split(" ").slice(1)]),
    );

  it("allows scripts only from this site or with the response's nonce", () => {
    const csp = directives("abc123==");
    expect(csp["script-src"]).toContain("'nonce-abc123=='");
    expect(csp["script-src"]).not.toContain("'unsafe-inline'");
    expect(csp["script-src"]).not.toContain("'unsafe-eval'");
    expect(csp["default-src"]).toEqual(["'self'"]);
  });

  it("forbids framing, plugins, foreign base URLs and foreign form targets", () => {
    const csp = directives("n");
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["base-uri"]).toEqual(["'self'"]);
    expect(csp["form-action"]).toEqual(["'self'"]);
  });
});

describe("over HTTP (the built server)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const nonceOf = (csp: string | null) => csp?.match(/'nonce-([^']+)'/)?.[1];

  it("sends a CSP whose nonce is on every <script> of the page, and the other security headers", async () => {
    const res = await client(server.url).get("/");
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy");
    expect(csp).toContain("frame-ancestors 'none'");
    const nonce = nonceOf(csp);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);

    // Every script the browser runs; the schema.org JSON-LD is a data block, never run, outside script-src,
    // and the scripts waiting for the visitor are text until put back with the running script's nonce.
    const scripts = (res.text.match(/<script\b[^>]*>/g) ?? []).filter((tag) => !/type="(?:application\/ld\+json|everlight\/on-use)"/.test(tag));
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, tag).toContain(` nonce="${nonce}"`);

    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("uses a new nonce for every response", async () => {
    const api = client(server.url);
    const [a, b] = await Promise.all([api.get("/"), api.get("/")]);
    expect(nonceOf(a.headers.get("content-security-policy"))).toBeDefined();
    expect(nonceOf(a.headers.get("content-security-policy"))).not.toBe(nonceOf(b.headers.get("content-security-policy")));
  });

  it("sends the headers on /api answers too", async () => {
    const res = await client(server.url).get("/api/auth/user");
    expect(res.status).toBe(401);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("refuses a cross-origin form POST to /login (403) but lets a same-origin one through", async () => {
    const api = client(server.url);
    const form = { body: "email=someone%40example.test&password=Secret123", headers: { "Content-Type": "application/x-www-form-urlencoded" } };
    const evil = await api.request("POST", "/login", { ...form, headers: { ...form.headers, Origin: "https://evil.example" } });
    expect(evil.status).toBe(403);
    expect(evil.headers.get("set-cookie")).toBeNull();
    const crossSite = await api.request("POST", "/login", { ...form, headers: { ...form.headers, "Sec-Fetch-Site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    const same = await api.request("POST", "/login", { ...form, headers: { ...form.headers, Origin: server.url, "Sec-Fetch-Site": "same-origin" } });
    expect(same.status).toBe(401); // reached the form's action: unknown email
  });
});
