import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "~/models/rate-limit.server";
import { AI_MESSAGES } from "~/utils/validation/ai";
import { client, startServer, type ApiResponse, type Client, type TestServer } from "../../../test/http";
import { startOpenAiServer, type OpenAiTestServer } from "../../../test/openai-server";

// The AI writing /api over real HTTP against the built server: with no
// OPENAI_API_KEY (the offline writer), then with the real `openai` package talking to a local
// chat-completions server, to see a model's answer and its failures come through.

const PASSWORD = "Correct1horse";
const OFFLINE = "Written by Everlight's offline writer from the details you gave";
const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}@example.test`;

const expectJsonError = (res: ApiResponse, status: number, message: string | RegExp) => {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  if (typeof message === "string") expect(res.json.message).toBe(message);
  else expect(res.json.message).toMatch(message);
};

const biographyBody = {
  firstName: "Edith",
  lastName: "Hart",
  dateOfBirth: "1950-03-04",
  dateOfPassing: "2023-01-12",
  personalStory: "Edith nursed at the Royal Infirmary for thirty years.",
  keyQualities: "kind, generous and funny",
};
const memorialTribute = {
  memorialInfo: { name: "Edith Hart", title: "Forever loved", biography: "Edith nursed for thirty years." },
  relationship: "granddaughter",
  tone: "warm",
  memories: "She taught me to bake bread on Sunday mornings.",
};
const personalTribute = { personalDetails: { firstName: "Edith", lastName: "Hart" }, keyDetails: "a nurse for thirty years" };

async function member(url: string, tag = "member") {
  const api = client(url);
  const res = await api.post("/api/auth/register", { firstName: "Ada", lastName: "Lovelace", email: uniqueEmail(tag), password: PASSWORD });
  expect(res.status, res.text).toBe(201);
  return api;
}

async function memorial(api: Client, fields: Record<string, unknown> = {}) {
  const res = await api.post("/api/memorials", { firstName: "Edith", lastName: "Hart", visibility: "public", isPublished: true, ...fields });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
}

describe("with the offline writer (no OPENAI_API_KEY)", () => {
  let server: TestServer;
  let owner: Client;
  let publicId: string;
  beforeAll(async () => {
    server = await startServer({ OPENAI_API_KEY: "" });
    owner = await member(server.url, "owner");
    publicId = await memorial(owner);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const visitor = () => client(server.url);

  describe("POST /api/ai/generate-biography", () => {
    it("writes a biography from the facts for a member, saying who wrote it", async () => {
      const res = await owner.post("/api/ai/generate-biography", biographyBody);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      expect(res.json).toMatchObject({ provider: "offline", providerLabel: OFFLINE });
      for (const fact of ["Edith Hart", "March 4, 1950", "January 12, 2023", "Royal Infirmary", "kind, generous and funny"])
        expect(res.json.biography).toContain(fact);
    });

    it("answers 401 to a visitor", async () => {
      expectJsonError(await visitor().post("/api/ai/generate-biography", biographyBody), 401, "Not signed in");
    });

    it("needs the first and last name (Missing Information)", async () => {
      for (const body of [{ ...biographyBody, firstName: "" }, { ...biographyBody, lastName: "  " }, { personalStory: "Only a story" }]) {
        expectJsonError(await owner.post("/api/ai/generate-biography", body), 400, AI_MESSAGES.missingNames);
      }
    });

    it("refuses a bad date, dates out of order and a fact over 2,000 characters", async () => {
      expectJsonError(await owner.post("/api/ai/generate-biography", { ...biographyBody, dateOfBirth: "March 4, 1950" }), 400, AI_MESSAGES.date);
      expectJsonError(await owner.post("/api/ai/generate-biography", { ...biographyBody, dateOfPassing: "1949-01-01" }), 400, AI_MESSAGES.dateOrder);
      const res = await owner.post("/api/ai/generate-biography", { ...biographyBody, personalStory: "x".repeat(2001) });
      expectJsonError(res, 400, /at most 2,000 characters/);
      expect(res.json.errors.personalStory).toBeDefined();
    });

    it("answers 413 to a body over the bound, and 415 to one that is not JSON", async () => {
      expectJsonError(await owner.post("/api/ai/generate-biography", { ...biographyBody, personalStory: "x".repeat(25_000) }), 413, AI_MESSAGES.tooLarge);
      expectJsonError(
        await owner.request("POST", "/api/ai/generate-biography", {
          body: "firstName=Edith",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        }),
        415,
        /JSON/,
      );
    });

    it("answers 405 to other methods", async () => {
      for (const res of [await owner.get("/api/ai/generate-biography"), await owner.put("/api/ai/generate-biography", biographyBody)]) {
        expectJsonError(res, 405, "Method not allowed");
        expect(res.headers.get("allow")).toBe("POST");
      }
    });
  });

  describe("POST /api/ai/generate-tribute", () => {
    it("writes a visitor's tribute from the memorial's details, relationship, tone and memories", async () => {
      const res = await visitor().post("/api/ai/generate-tribute", memorialTribute);
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ provider: "offline", providerLabel: OFFLINE });
      expect(res.json.tribute).toContain("Edith Hart's granddaughter");
      expect(res.json.tribute).toContain("She taught me to bake bread on Sunday mornings.");
    });

    it("writes a tribute from personal details and key details", async () => {
      const res = await owner.post("/api/ai/generate-tribute", personalTribute);
      expect(res.status, res.text).toBe(200);
      expect(res.json.tribute).toContain("In loving memory of Edith Hart.");
      expect(res.json.tribute).toContain("A nurse for thirty years.");
    });

    it("needs relationship, tone and memories (Please fill in all fields)", async () => {
      for (const missing of ["relationship", "tone", "memories"] as const) {
        const res = await visitor().post("/api/ai/generate-tribute", { ...memorialTribute, [missing]: "" });
        expectJsonError(res, 400, AI_MESSAGES.missingFieldsTitle);
        expect(res.json.errors[missing]).toEqual([AI_MESSAGES.missingFieldsTitle]);
      }
      expectJsonError(await visitor().post("/api/ai/generate-tribute", {}), 400, AI_MESSAGES.missingFieldsTitle);
    });

    it("refuses an unknown tone, missing names and an over-long fact", async () => {
      expectJsonError(await visitor().post("/api/ai/generate-tribute", { ...memorialTribute, tone: "sarcastic" }), 400, AI_MESSAGES.tone);
      expectJsonError(await visitor().post("/api/ai/generate-tribute", { personalDetails: { firstName: "Edith" } }), 400, AI_MESSAGES.missingTributeNames);
      expectJsonError(await visitor().post("/api/ai/generate-tribute", { ...memorialTribute, memories: "m".repeat(2001) }), 400, /at most 2,000 characters/);
    });

    it("answers 413 to a body over the bound and 405 to GET", async () => {
      expectJsonError(await visitor().post("/api/ai/generate-tribute", { ...memorialTribute, memories: "m".repeat(30_000) }), 413, AI_MESSAGES.tooLarge);
      expectJsonError(await visitor().get("/api/ai/generate-tribute"), 405, "Method not allowed");
    });

    it(`limits a visitor's address to ${RATE_LIMITS.aiPerIp.limit} an hour (429 with Retry-After)`, async () => {
      const api = visitor();
      for (let i = 0; i < RATE_LIMITS.aiPerIp.limit; i++) expect((await api.post("/api/ai/generate-tribute", memorialTribute)).status).toBe(200);
      const res = await api.post("/api/ai/generate-tribute", memorialTribute);
      expectJsonError(res, 429, /^You have asked the writing assistant for a lot of text in a short time\. Please try again in \d+ minutes?\.$/);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      // Another address is not affected.
      expect((await visitor().post("/api/ai/generate-tribute", memorialTribute)).status).toBe(200);
    });
  });

  describe("POST /api/ai/stream-tribute", () => {
    const assistant = { relationship: "granddaughter", tone: "gentle", memories: "She taught me to bake bread.\nWe walked the dog." };

    it("streams the tribute as plain text for a memorial the caller may see", async () => {
      const res = await fetch(new URL("/api/ai/stream-tribute", server.url), {
        method: "POST",
        headers: { "Content-Type": "application/json", "Accept-Encoding": "gzip, br", "X-Forwarded-For": `10.9.${randomBytes(1)[0]}.${randomBytes(1)[0]}` },
        body: JSON.stringify({ memorialId: publicId, ...assistant }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("private, no-store, no-transform");
      // Not compressed: the compression middleware would hold pieces back until its buffer fills.
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(res.headers.get("x-writing-provider")).toBe("offline");
      expect(res.headers.get("x-writing-provider-label")).toBe(OFFLINE);
      const pieces: string[] = [];
      const decoder = new TextDecoder();
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        pieces.push(decoder.decode(value, { stream: true }));
      }
      const text = pieces.join("");
      expect(text).toMatch(/^As Edith Hart's granddaughter, I can't think of Edith without smiling\./);
      expect(text).toContain("She taught me to bake bread. We walked the dog.");
    });

    it("is 404 for a memorial the caller may not see, or that does not exist", async () => {
      const privateId = await memorial(owner, { visibility: "private" });
      expectJsonError(await visitor().post("/api/ai/stream-tribute", { memorialId: privateId, ...assistant }), 404, AI_MESSAGES.memorialNotFound);
      expectJsonError(await visitor().post("/api/ai/stream-tribute", { memorialId: "not-an-id", ...assistant }), 404, AI_MESSAGES.memorialNotFound);
      expect((await owner.post("/api/ai/stream-tribute", { memorialId: privateId, ...assistant })).status).toBe(200);
    });

    it("checks the fields like the form does, and answers 405 to GET", async () => {
      const res = await visitor().post("/api/ai/stream-tribute", { memorialId: publicId, ...assistant, memories: " " });
      expectJsonError(res, 400, AI_MESSAGES.missingFieldsTitle);
      expectJsonError(
        await visitor().post("/api/ai/stream-tribute", { memorialId: publicId, ...assistant, memories: "m".repeat(1501) }),
        400,
        /at most 1,500 characters/,
      );
      expectJsonError(await visitor().get("/api/ai/stream-tribute"), 405, "Method not allowed");
    });
  });
});

describe("with OPENAI_API_KEY (the real openai package, a local chat-completions server)", () => {
  let openai: OpenAiTestServer;
  let server: TestServer;
  let owner: Client;
  let publicId: string;
  beforeAll(async () => {
    openai = await startOpenAiServer();
    server = await startServer({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: openai.baseURL, OPENAI_MODEL: "test-model", OPENAI_TIMEOUT_MS: "2000" });
    owner = await member(server.url, "ai-owner");
    publicId = await memorial(owner, { biography: "Edith nursed in Whitby." });
  });
  afterAll(async () => {
    await server?.stop();
    await openai?.stop();
  });

  it("returns the model's text, labelled with the model", async () => {
    openai.behave({ reply: "Edith Hart was born on March 4, 1950." });
    const res = await owner.post("/api/ai/generate-biography", biographyBody);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      biography: "Edith Hart was born on March 4, 1950.",
      provider: "openai",
      providerLabel: "Written by AI (test-model) from the details you gave",
    });
    expect(openai.lastMessages().user).toContain("Date of birth: March 4, 1950");
  });

  it("streams the model's pieces and gives it the memorial's own details", async () => {
    const pieces = ["As Edith's ", "granddaughter, ", "I remember the bread."];
    openai.behave({ reply: pieces.join(""), pieces });
    const res = await client(server.url).post("/api/ai/stream-tribute", {
      memorialId: publicId,
      relationship: "granddaughter",
      tone: "warm",
      memories: "The bread.",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe(pieces.join(""));
    const { user } = openai.lastMessages();
    expect(user).toContain("Person remembered: Edith Hart");
    expect(user).toContain("Edith nursed in Whitby.");
  });

  it("answers 502 with the messages members are shown when the model fails", async () => {
    openai.behave({ status: 500 });
    expectJsonError(await owner.post("/api/ai/generate-biography", biographyBody), 502, AI_MESSAGES.biographyFailed);
    expectJsonError(await client(server.url).post("/api/ai/generate-tribute", memorialTribute), 502, AI_MESSAGES.tributeFailed);
    const stream = await client(server.url).post("/api/ai/stream-tribute", { memorialId: publicId, relationship: "friend", tone: "warm", memories: "Tea." });
    expectJsonError(stream, 502, AI_MESSAGES.tributeFailed);
    expect(server.output()).not.toContain("Tea.");
  });

  it("writes into the memorial form without JavaScript, and says so when the model fails, keeping what was typed", async () => {
    // The Create Memorial form's "Generate AI Biography" button (intent ai-biography), as a browser
    // without JavaScript posts it: multipart, same origin, everything typed so far.
    const post = async () => {
      const form = new FormData();
      for (const [name, value] of Object.entries({
        ...biographyBody,
        title: "Nurse of Whitby",
        visibility: "friends",
        category: "individual",
        biography: "",
        intent: "ai-biography",
      }))
        form.append(name, value);
      const encoded = new Response(form);
      const body = new Uint8Array(await encoded.arrayBuffer());
      return owner.request("POST", "/memorials/create", { body, headers: { "Content-Type": encoded.headers.get("content-type")!, Origin: server.url } });
    };
    openai.behave({ reply: "Edith Hart nursed at the Royal Infirmary." });
    const written = await post();
    expect(written.status, written.text).toBe(200);
    expect(written.text).toMatch(/<textarea[^>]*name="biography"[^>]*>Edith Hart nursed at the Royal Infirmary\.<\/textarea>/);
    expect(written.text).toContain("Written by AI (test-model) from the details you gave");
    expect(openai.lastMessages().user).toContain("Edith nursed at the Royal Infirmary for thirty years.");

    openai.behave({ status: 500 });
    const failed = await post();
    expect(failed.status).toBe(502);
    expect(failed.text).toContain(AI_MESSAGES.biographyFailed);
    expect(failed.text).toMatch(/name="title"[^>]*value="Nurse of Whitby"|value="Nurse of Whitby"[^>]*name="title"/);
    expect(failed.text).toContain("Edith nursed at the Royal Infirmary for thirty years.");
  });

  it("answers 502 when the model does not answer within OPENAI_TIMEOUT_MS", async () => {
    openai.behave({ hang: true });
    const started = Date.now();
    expectJsonError(await client(server.url).post("/api/ai/generate-tribute", memorialTribute), 502, AI_MESSAGES.tributeFailed);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
