import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "~/models/rate-limit.server";
import { client, registerMember, serverDatabases, startServer, type ApiResponse, type TestServer } from "./http";

// Rate limits hold under concurrency. Each limit counts an attempt in one statement that
// increments and returns the count, before the expensive work; 30 attempts sent at once must let no
// more than the limit through, on PGlite and on PostgreSQL.

const ATTEMPTS = 30;
const PASSWORD = "Correct1horse";
const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status);
const countOf = (responses: ApiResponse[], status: number) => responses.filter((r) => r.status === status).length;
const randomIp = () => `10.${[0, 0, 0].map(() => randomBytes(1)[0]).join(".")}`;

describe.each(serverDatabases())("rate limits under 30 parallel attempts on %s", (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({}, { database });
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function memberWithEmail() {
    const email = `limit-${randomBytes(5).toString("hex")}@example.test`;
    const api = client(server.url);
    expect((await api.post("/api/auth/register", { firstName: "Rate", lastName: "Limit", email, password: PASSWORD })).status).toBe(201);
    return { api, email };
  }

  it("sign-in through the /api: from many addresses at most the account's ceiling of wrong passwords is checked, and the right one just after is refused too", async () => {
    const { email } = await memberWithEmail();
    // From many addresses at once, so only the account's ceiling stands between them and the password.
    const responses = await Promise.all(Array.from({ length: ATTEMPTS }, () => client(server.url).post("/api/auth/login", { email, password: "Wrong1horse" })));
    expect(countOf(responses, 401), String(statuses(responses))).toBeLessThanOrEqual(RATE_LIMITS.loginPerEmail.limit);
    expect(countOf(responses, 429)).toBe(ATTEMPTS - countOf(responses, 401));
    const right = await client(server.url).post("/api/auth/login", { email, password: PASSWORD });
    expect(right.status).toBe(429);
    expect(right.headers.get("retry-after")).toMatch(/^\d+$/);
  }, 180_000);

  it("sign-in: a stranger's wrong passwords lock the account at the stranger's address only; the owner signs in from theirs", async () => {
    const { email } = await memberWithEmail();
    const stranger = randomIp();
    const guesses = [];
    for (let i = 0; i < RATE_LIMITS.loginPerEmailAndIp.limit + 1; i++)
      guesses.push((await client(server.url, { ip: stranger }).post("/api/auth/login", { email, password: "Wrong1horse" })).status);
    expect(guesses).toEqual([...Array(RATE_LIMITS.loginPerEmailAndIp.limit).fill(401), 429]);
    // Even the right password is refused at the stranger's address…
    expect((await client(server.url, { ip: stranger }).post("/api/auth/login", { email, password: PASSWORD })).status).toBe(429);
    // …and accepted at the owner's own.
    expect((await client(server.url).post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
  }, 180_000);

  it("sign-in through the /login form: the same limit", async () => {
    const { email } = await memberWithEmail();
    const form = new URLSearchParams({ email, password: "Wrong1horse" }).toString();
    const post = () => client(server.url).request("POST", "/login", { body: form, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    const responses = await Promise.all(Array.from({ length: ATTEMPTS }, post));
    expect(countOf(responses, 401), String(statuses(responses))).toBeLessThanOrEqual(RATE_LIMITS.loginPerEmail.limit);
    expect(countOf(responses, 429)).toBe(ATTEMPTS - countOf(responses, 401));
    expect(responses.find((r) => r.status === 429)?.text).toContain("Too many failed sign-in attempts.");
  }, 180_000);

  it("sign-in from one address: at most 20 attempts a quarter of an hour, whatever the emails", async () => {
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) =>
        client(server.url, { ip }).post("/api/auth/login", { email: `nobody-${i}-${ip}@example.test`, password: "Wrong1horse" }),
      ),
    );
    expect(countOf(responses, 401)).toBeLessThanOrEqual(RATE_LIMITS.loginPerIp.limit);
    expect(countOf(responses, 429)).toBeGreaterThanOrEqual(ATTEMPTS - RATE_LIMITS.loginPerIp.limit);
  });

  it("registration from one address: at most 5 accounts an hour", async () => {
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) =>
        client(server.url, { ip }).post("/api/auth/register", {
          firstName: "Many",
          lastName: "Accounts",
          email: `many-${i}-${randomBytes(3).toString("hex")}@example.test`,
          password: PASSWORD,
        }),
      ),
    );
    expect(countOf(responses, 201), String(statuses(responses))).toBeLessThanOrEqual(RATE_LIMITS.registerPerIp.limit);
    expect(countOf(responses, 429)).toBe(ATTEMPTS - countOf(responses, 201));
  });

  it("password change: at most 5 checks of the current password, from any number of addresses", async () => {
    const { api } = await memberWithEmail();
    const responses = await Promise.all(
      Array.from({ length: ATTEMPTS }, () =>
        client(server.url, { cookie: api.cookie }).put("/api/auth/change-password", { currentPassword: "Wrong1horse", newPassword: "Brand2new-pass" }),
      ),
    );
    expect(countOf(responses, 400), String(statuses(responses))).toBeLessThanOrEqual(RATE_LIMITS.passwordChangePerUser.limit);
    expect(countOf(responses, 429)).toBe(ATTEMPTS - countOf(responses, 400));
  });

  it("account deletion: at most 5 checks of the password, and the account is still there", async () => {
    const { api, email } = await memberWithEmail();
    const form = new URLSearchParams({ password: "Wrong1horse", confirm: "on" }).toString();
    const responses = await Promise.all(
      Array.from({ length: ATTEMPTS }, () =>
        client(server.url, { cookie: api.cookie }).request("POST", "/account/manage", {
          body: form,
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        }),
      ),
    );
    expect(countOf(responses, 400), String(statuses(responses))).toBeLessThanOrEqual(RATE_LIMITS.passwordChangePerUser.limit);
    expect(countOf(responses, 429)).toBe(ATTEMPTS - countOf(responses, 400));
    expect((await api.get("/api/auth/user")).json.email).toBe(email);
  });

  it("tributes from one address: at most 10 in ten minutes", async () => {
    const owner = await registerMember(server.url);
    const memorial = await owner.api.post("/api/memorials", { firstName: "Many", lastName: "Tributes", visibility: "public", isPublished: true });
    const ip = randomIp();
    const responses = await Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) =>
        client(server.url, { ip }).post(`/api/memorials/${memorial.json.id}/tributes`, { authorName: "A Visitor", content: `A memory, number ${i}.` }),
      ),
    );
    expect(countOf(responses, 201), String(statuses(responses))).toBeLessThanOrEqual(RATE_LIMITS.tributePerIp.limit);
    expect(countOf(responses, 429)).toBe(ATTEMPTS - countOf(responses, 201));
    const stored = await owner.api.get(`/api/memorials/${memorial.json.id}/tributes?approved=false`);
    expect(stored.json).toHaveLength(countOf(responses, 201));
  });

  it("the AI writing helpers: at most 20 generations an hour for a member", async () => {
    const { api } = await registerMember(server.url);
    const responses = await Promise.all(
      Array.from({ length: ATTEMPTS }, () =>
        client(server.url, { cookie: api.cookie }).post("/api/ai/generate-biography", {
          firstName: "Ada",
          lastName: "Lovelace",
          personalStory: "She wrote the first program.",
        }),
      ),
    );
    expect(countOf(responses, 200), String(statuses(responses))).toBeLessThanOrEqual(RATE_LIMITS.aiPerUser.limit);
    expect(countOf(responses, 429)).toBe(ATTEMPTS - countOf(responses, 200));
  });
});
