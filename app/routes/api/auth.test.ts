import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "~/utils/validation/account";
import { client, startServer, type ApiResponse, type TestServer } from "../../../test/http";

// The auth and account /api over real HTTP against
// the built server: every endpoint's success, validation, signed-out and abuse cases.

let server: TestServer;
const responses: { method: string; path: string; text: string }[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const PASSWORD = "Correct1horse";
const newClient = (options: { cookie?: string; ip?: string } = {}) =>
  client(server.url, { ...options, onResponse: (r, req) => responses.push({ ...req, text: r.text }) });
const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}@example.test`;

/** A new member, registered (and so signed in) through the API. */
async function member(tag = "member") {
  const api = newClient();
  const email = uniqueEmail(tag);
  const res = await api.post("/api/auth/register", { firstName: "Ada", lastName: "Lovelace", email, password: PASSWORD });
  expect(res.status).toBe(201);
  return { api, email, user: res.json };
}

/** One member per purpose, registered on first use (for cases that change nothing). */
const shared = new Map<string, ReturnType<typeof member>>();
const sharedMember = (tag: string) => {
  if (!shared.has(tag)) shared.set(tag, member(tag));
  return shared.get(tag)!;
};

const expectJsonError = (res: ApiResponse, status: number, message: string | RegExp) => {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  if (typeof message === "string") expect(res.json.message).toBe(message);
  else expect(res.json.message).toMatch(message);
};

describe("GET /api/auth/user", () => {
  it("answers 401 with a message when nobody is signed in", async () => {
    const res = await newClient().get("/api/auth/user");
    expectJsonError(res, 401, "Not signed in");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers the signed-in user without the password hash", async () => {
    const { api, email } = await member("user");
    const res = await api.get("/api/auth/user");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.json).toMatchObject({ email, firstName: "Ada", lastName: "Lovelace", isAdmin: false, profileImageUrl: null });
    expect(res.json).not.toHaveProperty("password");
  });
});

describe("POST /api/auth/register", () => {
  it("creates the account, lower-cases the email and signs the new member in (201)", async () => {
    const api = newClient();
    const email = uniqueEmail("Register");
    const res = await api.post("/api/auth/register", { firstName: " Grace ", lastName: "Hopper", email: `  ${email.toUpperCase()} `, password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ email: email.toLowerCase(), firstName: "Grace", lastName: "Hopper" });
    expect(res.json.id).toEqual(expect.any(String));
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^__session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect((await api.get("/api/auth/user")).json.id).toBe(res.json.id);
  });

  it.each([
    [{ firstName: "A" }, "firstName", MESSAGES.firstNameMin],
    [{ lastName: "L" }, "lastName", MESSAGES.lastNameMin],
    [{ email: "not-an-email" }, "email", MESSAGES.email],
    [{ password: "Sh0rt" }, "password", MESSAGES.passwordMin],
    [{ password: "lowercase1" }, "password", MESSAGES.passwordUpper],
    [{ password: "NoNumbersHere" }, "password", MESSAGES.passwordNumber],
  ])("refuses %o with 400: %s → %s", async (change, field, message) => {
    const body = { firstName: "Ada", lastName: "Lovelace", email: uniqueEmail("invalid"), password: PASSWORD, ...change };
    const res = await newClient().post("/api/auth/register", body);
    expectJsonError(res, 400, message);
    expect(res.json.errors[field]).toContain(message);
  });

  it("spells out every missing field", async () => {
    const res = await newClient().post("/api/auth/register", {});
    expectJsonError(res, 400, MESSAGES.firstNameMin);
    expect(Object.keys(res.json.errors).sort()).toEqual(["email", "firstName", "lastName", "password"]);
  });

  it("answers 409 for a taken email, whatever its case", async () => {
    const { email } = await member("taken");
    const res = await newClient().post("/api/auth/register", { firstName: "Eve", lastName: "Other", email: email.toUpperCase(), password: PASSWORD });
    expectJsonError(res, 409, MESSAGES.emailTaken);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("limits new accounts per address (429 with Retry-After)", async () => {
    const api = newClient();
    for (let i = 0; i < 5; i++) {
      const ok = await api.post("/api/auth/register", { firstName: "Bulk", lastName: "Maker", email: uniqueEmail(`bulk${i}`), password: PASSWORD });
      expect(ok.status).toBe(201);
    }
    const res = await api.post("/api/auth/register", { firstName: "Bulk", lastName: "Maker", email: uniqueEmail("bulk5"), password: PASSWORD });
    expectJsonError(res, 429, /^Too many accounts were created from your network\. Please try again in \d+ minutes?\.$/);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("limits attempts to register one email address, from any address (429 with Retry-After)", async () => {
    const email = uniqueEmail("taken");
    expect((await newClient().post("/api/auth/register", { firstName: "Tia", lastName: "Taken", email, password: PASSWORD })).status).toBe(201);
    // Someone tries the address again and again, from a new network each time: told it is taken, then stopped.
    for (let i = 0; i < 4; i++) {
      expectJsonError(await newClient().post("/api/auth/register", { firstName: "Tia", lastName: "Again", email, password: PASSWORD }), 409, /already exists/);
    }
    const res = await newClient().post("/api/auth/register", { firstName: "Tia", lastName: "Again", email: email.toUpperCase(), password: PASSWORD });
    expectJsonError(res, 429, /^Too many attempts to register this email address\. Please try again in \d+ minutes?\.$/);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("answers 405 to other methods", async () => {
    const res = await newClient().put("/api/auth/register", {});
    expectJsonError(res, 405, "Method not allowed");
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe("POST /api/auth/login", () => {
  it("signs in with a brand-new session id (the caller's old session ends)", async () => {
    const { api, email, user } = await member("login");
    const before = api.cookie;
    const res = await api.post("/api/auth/login", { email: email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: user.id, email });
    expect(res.json).not.toHaveProperty("password");
    expect(res.headers.get("set-cookie")).toMatch(/^__session=/);
    expect(api.cookie).not.toBe(before);
    expect((await api.get("/api/auth/user")).status).toBe(200);
    expect((await newClient({ cookie: before }).get("/api/auth/user")).status).toBe(401);
  });

  it("answers 401 with the same message for a wrong password and an unknown email", async () => {
    const { email } = await member("wrong");
    const wrong = await newClient().post("/api/auth/login", { email, password: "Wrong1password" });
    expectJsonError(wrong, 401, MESSAGES.invalidLogin);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const unknown = await newClient().post("/api/auth/login", { email: uniqueEmail("nobody"), password: PASSWORD });
    expectJsonError(unknown, 401, MESSAGES.invalidLogin);
  });

  it.each([
    [{ email: "not-an-email", password: PASSWORD }, "email", MESSAGES.email],
    [{ email: "someone@example.test", password: "12345" }, "password", MESSAGES.loginPassword],
    [{ password: PASSWORD }, "email", MESSAGES.email],
  ])("refuses %o with 400: %s → %s", async (body, field, message) => {
    const res = await newClient().post("/api/auth/login", body);
    expectJsonError(res, 400, message);
    expect(res.json.errors[field]).toEqual([message]);
  });

  it("refuses the 6th attempt from an address after 5 wrong passwords there, even with the right password (429), while the owner signs in from theirs", async () => {
    const { email } = await member("locked");
    const stranger = newClient();
    for (let i = 0; i < 5; i++) expect((await stranger.post("/api/auth/login", { email, password: `Wrong${i}password` })).status).toBe(401);
    const res = await stranger.post("/api/auth/login", { email, password: PASSWORD });
    expectJsonError(res, 429, /^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(res.headers.get("set-cookie")).toBeNull();
    // The stranger's guesses do not lock the rightful owner out of their own address.
    expect((await newClient().post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
  });

  it("forgets earlier failures after a successful sign-in", async () => {
    const { email } = await member("reset");
    const api = newClient();
    for (let i = 0; i < 4; i++) expect((await api.post("/api/auth/login", { email, password: "Wrong1password" })).status).toBe(401);
    expect((await api.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    // Without the reset this would be the 5th failure, and the next attempt would be refused.
    expect((await api.post("/api/auth/login", { email, password: "Wrong1password" })).status).toBe(401);
    expect((await api.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
  });

  it("refuses a body that is not JSON (415) and malformed JSON (400)", async () => {
    const api = newClient();
    const form = await api.request("POST", "/api/auth/login", {
      body: "email=a%40example.test&password=Secret123",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expectJsonError(form, 415, "Expected a JSON body");
    const text = await api.request("POST", "/api/auth/login", { body: "hello", headers: { "Content-Type": "text/plain" } });
    expectJsonError(text, 415, "Expected a JSON body");
    const malformed = await api.request("POST", "/api/auth/login", { body: '{"email": "a@example.test",', headers: { "Content-Type": "application/json" } });
    expectJsonError(malformed, 400, "The request body is not valid JSON");
    const notAnObject = await api.request("POST", "/api/auth/login", { body: "[1,2]", headers: { "Content-Type": "application/json" } });
    expectJsonError(notAnObject, 400, "Expected a JSON object");
  });

  it("refuses a body over 64 kB (413), with or without a Content-Length", async () => {
    const res = await newClient().post("/api/auth/login", { email: "a@example.test", password: "x".repeat(200_000) });
    expectJsonError(res, 413, /larger than 64 KB/);

    // A stream body goes out chunked: the limit is counted as it arrives.
    const chunk = new TextEncoder().encode(`{"email":"a@example.test","password":"${"x".repeat(16_000)}`);
    let sent = 0;
    const chunked = new ReadableStream<Uint8Array>({
      pull: (controller) => (sent++ < 20 ? controller.enqueue(chunk) : controller.close()),
    });
    const response = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: chunked,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).message).toMatch(/larger than 64 KB/);
  });

  it("refuses a cross-origin POST (Origin or Sec-Fetch-Site) with 403 JSON, and accepts a same-origin one", async () => {
    const { email } = await member("origin");
    const api = newClient();
    const evil = await api.post("/api/auth/login", { email, password: PASSWORD }, { headers: { Origin: "https://evil.example" } });
    expectJsonError(evil, 403, /another website/);
    expect(evil.headers.get("set-cookie")).toBeNull();
    const crossSite = await api.post("/api/auth/login", { email, password: PASSWORD }, { headers: { "Sec-Fetch-Site": "cross-site" } });
    expectJsonError(crossSite, 403, /another website/);
    const same = await api.post("/api/auth/login", { email, password: PASSWORD }, { headers: { Origin: server.url, "Sec-Fetch-Site": "same-origin" } });
    expect(same.status).toBe(200);
  });

  it("answers a GET with a JSON error, not a page", async () => {
    // No loader: React Router's own refusal, as JSON.
    const res = await newClient().get("/api/auth/login");
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.json.message).toEqual(expect.any(String));
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.text).not.toMatch(/<html|\n\s+at /i);
  });
});

describe("POST /api/auth/logout", () => {
  it("ends the session: the old cookie no longer works", async () => {
    const { api } = await member("logout");
    const old = api.cookie;
    const res = await api.post("/api/auth/logout");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: "Signed out" });
    expect(res.headers.get("set-cookie")).toMatch(/^__session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i);
    expect(api.cookie).toBe("");
    expect((await api.get("/api/auth/user")).status).toBe(401);
    expectJsonError(await newClient({ cookie: old }).get("/api/auth/user"), 401, "Not signed in");
  });

  it("is fine when nobody is signed in", async () => {
    const res = await newClient().post("/api/auth/logout");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: "Signed out" });
  });
});

describe("PUT /api/auth/profile", () => {
  it("answers 401 when signed out", async () => {
    expectJsonError(await newClient().put("/api/auth/profile", { firstName: "A", lastName: "B", bio: "" }), 401, "Not signed in");
  });

  it("updates names and bio and answers the updated user", async () => {
    const { api, email } = await member("profile");
    const res = await api.put("/api/auth/profile", { firstName: " Ada ", lastName: "King", bio: "  Mathematician.  " });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ email, firstName: "Ada", lastName: "King", bio: "Mathematician." });
    expect(res.json).not.toHaveProperty("password");
    expect((await api.get("/api/auth/user")).json).toMatchObject({ lastName: "King", bio: "Mathematician." });
    // An empty or null bio clears it.
    expect((await api.put("/api/auth/profile", { firstName: "Ada", lastName: "King", bio: "" })).json.bio).toBeNull();
    expect((await api.put("/api/auth/profile", { firstName: "Ada", lastName: "King", bio: null })).json.bio).toBeNull();
  });

  it.each([
    [{ firstName: "", lastName: "King" }, "firstName", MESSAGES.firstNameRequired],
    [{ firstName: "   ", lastName: "King" }, "firstName", MESSAGES.firstNameRequired],
    [{ firstName: "Ada" }, "lastName", MESSAGES.lastNameRequired],
  ])("refuses %o with 400: %s → %s", async (body, field, message) => {
    const { api } = await sharedMember("profile-invalid");
    const res = await api.put("/api/auth/profile", body);
    expectJsonError(res, 400, message);
    expect(res.json.errors[field]).toEqual([message]);
  });

  it("answers 405 to other methods", async () => {
    const res = await newClient().post("/api/auth/profile", {});
    expectJsonError(res, 405, "Method not allowed");
    expect(res.headers.get("allow")).toBe("PUT");
  });
});

describe("PUT /api/auth/change-password", () => {
  const NEW_PASSWORD = "Brand1new-pass";

  it("answers 401 when signed out", async () => {
    expectJsonError(await newClient().put("/api/auth/change-password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }), 401, "Not signed in");
  });

  it.each([
    [{ currentPassword: "", newPassword: NEW_PASSWORD }, "currentPassword", MESSAGES.currentPasswordRequired],
    [{ newPassword: NEW_PASSWORD }, "currentPassword", MESSAGES.currentPasswordRequired],
    [{ currentPassword: PASSWORD, newPassword: "Sh0rt" }, "newPassword", MESSAGES.passwordMin],
    [{ currentPassword: PASSWORD, newPassword: "lowercase1" }, "newPassword", MESSAGES.passwordUpper],
    [{ currentPassword: PASSWORD, newPassword: "NoNumbersHere" }, "newPassword", MESSAGES.passwordNumber],
  ])("refuses %o with 400: %s → %s", async (body, field, message) => {
    const { api } = await sharedMember("cp-invalid");
    const res = await api.put("/api/auth/change-password", body);
    expectJsonError(res, 400, message);
    expect(res.json.errors[field]).toEqual([message]);
  });

  it("answers 400 when the current password is wrong, and changes nothing", async () => {
    const { api, email } = await member("cp-wrong");
    expectJsonError(
      await api.put("/api/auth/change-password", { currentPassword: "Not1theone", newPassword: NEW_PASSWORD }),
      400,
      "Current password is incorrect",
    );
    expect((await newClient().post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
  });

  it("changes the password and ends every other session, keeping the current one", async () => {
    const { api: first, email } = await member("cp");
    const second = newClient();
    expect((await second.post("/api/auth/login", { email, password: PASSWORD })).status).toBe(200);
    expect((await second.get("/api/auth/user")).status).toBe(200);

    const res = await first.put("/api/auth/change-password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ message: "Password changed" });

    expect((await first.get("/api/auth/user")).status).toBe(200);
    expectJsonError(await second.get("/api/auth/user"), 401, "Not signed in");
    expectJsonError(await newClient().post("/api/auth/login", { email, password: PASSWORD }), 401, MESSAGES.invalidLogin);
    expect((await newClient().post("/api/auth/login", { email, password: NEW_PASSWORD })).status).toBe(200);
  });

  it("counts every attempt: the 6th within the window is refused (429)", async () => {
    const { api } = await member("cp-limit");
    for (let i = 0; i < 5; i++) {
      expect((await api.put("/api/auth/change-password", { currentPassword: `Wrong${i}guess`, newPassword: NEW_PASSWORD })).status).toBe(400);
    }
    const res = await api.put("/api/auth/change-password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expectJsonError(res, 429, /^Too many password change attempts\. Please try again in \d+ minutes?\.$/);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("PUT /api/auth/profile-picture", () => {
  const png = () =>
    sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 180, g: 120, b: 90 } } })
      .png()
      .toBuffer();

  it("answers 401 when signed out", async () => {
    const image = `data:image/png;base64,${(await png()).toString("base64")}`;
    expectJsonError(await newClient().put("/api/auth/profile-picture", { profileImage: image }), 401, "Not signed in");
  });

  it("stores a PNG data URL and answers the user with its profileImageUrl", async () => {
    const { api } = await member("picture");
    const res = await api.put("/api/auth/profile-picture", { profileImage: `data:image/png;base64,${(await png()).toString("base64")}` });
    expect(res.status).toBe(200);
    expect(res.json.profileImageUrl).toEqual(expect.any(String));
    expect(res.json).not.toHaveProperty("password");
    expect((await api.get("/api/auth/user")).json.profileImageUrl).toBe(res.json.profileImageUrl);
  });

  it("accepts bare base64 without the data: prefix", async () => {
    const { api } = await member("picture-bare");
    const res = await api.put("/api/auth/profile-picture", { profileImage: (await png()).toString("base64") });
    expect(res.status).toBe(200);
    expect(res.json.profileImageUrl).toEqual(expect.any(String));
  });

  it("refuses a text file as 415 Invalid file type", async () => {
    const { api } = await sharedMember("picture-bad");
    const text = `data:text/plain;base64,${Buffer.from("Just some words, not a picture at all.\n").toString("base64")}`;
    expectJsonError(await api.put("/api/auth/profile-picture", { profileImage: text }), 415, "Invalid file type");
    expect((await api.get("/api/auth/user")).json.profileImageUrl).toBeNull();
  });

  it("refuses a 6 MB image as 413 File too large", async () => {
    const { api } = await sharedMember("picture-bad");
    const [width, height] = [1500, 1400]; // 6.3 MB of incompressible pixels
    const big = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(6_000_000);
    const res = await api.put("/api/auth/profile-picture", { profileImage: `data:image/png;base64,${big.toString("base64")}` });
    expectJsonError(res, 413, "File too large: Please select an image smaller than 5MB");
    // The connection survives the early answer.
    expect((await api.get("/api/auth/user")).json.profileImageUrl).toBeNull();
  });

  it.each([
    ["a data URL that is not base64", "data:image/png,rawbytes"],
    ["broken base64", "data:image/png;base64,@@not base64@@"],
    ["something that is not image data at all", "hello there!"],
    ["an empty string", ""],
  ])("refuses %s as 400 Invalid image data", async (_label, profileImage) => {
    const { api } = await sharedMember("picture-bad");
    expectJsonError(await api.put("/api/auth/profile-picture", { profileImage }), 400, "Invalid image data");
  });

  it("refuses a body without profileImage as 400 Invalid image data", async () => {
    const { api } = await sharedMember("picture-bad");
    const res = await api.put("/api/auth/profile-picture", {});
    expectJsonError(res, 400, "Invalid image data");
    expect(res.json.errors.profileImage).toEqual(["Invalid image data"]);
  });
});

describe("every response", () => {
  it("carries no password hash and no stack trace", () => {
    expect(responses.length).toBeGreaterThan(50);
    for (const { method, path, text } of responses) {
      expect(text, `${method} ${path}`).not.toMatch(/scrypt\$/);
      const body = JSON.parse(text || "null");
      if (body && typeof body === "object" && "email" in body) expect(body, `${method} ${path}`).not.toHaveProperty("password");
      expect(text, `${method} ${path}`).not.toMatch(/\n\s+at |<html/i);
    }
  });
});
