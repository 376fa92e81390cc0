import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { BiographyFacts, TributeFacts } from "~/utils/validation/ai";
import { startOpenAiServer, type OpenAiTestServer } from "../../test/openai-server";
import { AiUnavailableError, getWritingProvider, OFFLINE_LABEL, readAiConfig } from "./ai.server";
import { parseEnv } from "./env.server";

// The writing adapter with the real `openai` package pointed (through OPENAI_BASE_URL) at a local
// server speaking chat completions: what is sent, what comes
// back, streaming, and every way the service can fail turning into AiUnavailableError.

let openai: OpenAiTestServer;
const saved = { ...process.env };

beforeAll(async () => {
  openai = await startOpenAiServer();
});
afterAll(async () => {
  await openai?.stop();
});
beforeEach(() => {
  process.env.OPENAI_API_KEY = "sk-test-key";
  process.env.OPENAI_BASE_URL = openai.baseURL;
  process.env.OPENAI_MODEL = "test-model";
  delete process.env.OPENAI_TIMEOUT_MS;
  openai.behave({ reply: "A short reply." });
});
afterEach(() => {
  for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_TIMEOUT_MS"]) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  vi.restoreAllMocks();
});

const biography: BiographyFacts = {
  firstName: "Edith",
  lastName: "Hart",
  dateOfBirth: "1950-03-04",
  dateOfPassing: "2023-01-12",
  personalStory: "Grew up in Whitby and nursed at the Royal Infirmary for thirty years.",
  keyQualities: "kind, generous, funny",
};

const tribute: TributeFacts = {
  name: "Edith Hart",
  firstName: "Edith",
  title: "Forever in our hearts",
  biography: "Edith was a nurse in Whitby.",
  relationship: "granddaughter",
  tone: "gentle",
  memories: "Baking bread on Sunday mornings.\nWalking the dog along the beach.",
};

async function collect(pieces: AsyncIterable<string>) {
  const out: string[] = [];
  for await (const piece of pieces) out.push(piece);
  return out;
}

describe("with OPENAI_API_KEY set", () => {
  it("asks for a biography with every fact in the user message and a system prompt that forbids inventing", async () => {
    openai.behave({ reply: "  Edith Hart was born on March 4, 1950.\n\nShe nursed for thirty years.  " });
    const provider = getWritingProvider();
    expect(provider.name).toBe("openai");
    expect(provider.label).toBe("Written by AI (test-model) from the details you gave");

    await expect(provider.biography(biography)).resolves.toBe("Edith Hart was born on March 4, 1950.\n\nShe nursed for thirty years.");
    const request = openai.requests.at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer sk-test-key");
    expect(request.body.model).toBe("test-model");
    expect(request.body.stream).toBeFalsy();

    const { system, user } = openai.lastMessages();
    expect(system).toMatch(/Use only the facts given/);
    expect(system).toMatch(/Never invent names, dates, places, events/);
    expect(system).toMatch(/British English/);
    expect(system).toMatch(/2 to 4 short paragraphs/);
    for (const fact of [
      "First name: Edith",
      "Last name: Hart",
      "Date of birth: March 4, 1950",
      "Date of passing: January 12, 2023",
      "Key qualities: kind, generous, funny",
      biography.personalStory,
    ]) {
      expect(user).toContain(fact);
    }
  });

  it("marks a missing fact as not given rather than leaving room to guess", async () => {
    await getWritingProvider().biography({ ...biography, dateOfBirth: null, personalStory: "" });
    const { user } = openai.lastMessages();
    expect(user).toContain("Date of birth: (not given)");
    expect(user).toContain("Personal story: (not given)");
  });

  it("asks for a one-paragraph tribute with the visitor's relationship, tone and memories", async () => {
    openai.behave({ reply: "As Edith's granddaughter, I remember the bread." });
    await expect(getWritingProvider().tribute(tribute)).resolves.toBe("As Edith's granddaughter, I remember the bread.");
    const { system, user } = openai.lastMessages();
    expect(system).toMatch(/Never invent names, dates, places, events/);
    expect(system).toMatch(/exactly 1 paragraph/);
    for (const fact of [
      "Person remembered: Edith Hart",
      "relationship to them: granddaughter",
      "Tone: gentle and light",
      "Baking bread on Sunday mornings.",
      "Walking the dog along the beach.",
      "Edith was a nurse in Whitby.",
    ]) {
      expect(user).toContain(fact);
    }
  });

  it("streams the tribute in the order the pieces arrive", async () => {
    const pieces = ["As Edith's ", "granddaughter, ", "I think of ", "Sunday bread."];
    openai.behave({ reply: pieces.join(""), pieces });
    const provider = getWritingProvider();
    await expect(collect(provider.streamTribute!(tribute))).resolves.toEqual(pieces);
    expect(openai.requests.at(-1)!.body.stream).toBe(true);
    expect(openai.lastMessages().user).toContain("granddaughter");
  });

  it("turns an error status into AiUnavailableError, without logging the facts", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    openai.behave({ status: 500 });
    const provider = getWritingProvider();
    await expect(provider.biography(biography)).rejects.toBeInstanceOf(AiUnavailableError);
    await expect(provider.tribute(tribute)).rejects.toBeInstanceOf(AiUnavailableError);
    await expect(collect(provider.streamTribute!(tribute))).rejects.toBeInstanceOf(AiUnavailableError);
    const logged = log.mock.calls.flat().join(" ");
    expect(logged).toMatch(/AI writing service failed/);
    expect(logged).not.toContain("Whitby");
    expect(logged).not.toContain("Sunday");
  });

  it("turns an empty answer into AiUnavailableError", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    openai.behave({ reply: "   " });
    await expect(getWritingProvider().tribute(tribute)).rejects.toBeInstanceOf(AiUnavailableError);
    openai.behave({ reply: "", pieces: [] });
    await expect(collect(getWritingProvider().streamTribute!(tribute))).rejects.toBeInstanceOf(AiUnavailableError);
  });

  it("gives up after OPENAI_TIMEOUT_MS when the service never answers", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    process.env.OPENAI_TIMEOUT_MS = "300";
    openai.behave({ hang: true });
    const provider = getWritingProvider();
    const started = Date.now();
    await expect(provider.biography(biography)).rejects.toBeInstanceOf(AiUnavailableError);
    await expect(collect(provider.streamTribute!(tribute))).rejects.toBeInstanceOf(AiUnavailableError);
    // Two calls, each given up at about 300 ms (and never retried).
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("refuses a server that cannot be reached as AiUnavailableError", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    process.env.OPENAI_BASE_URL = "http://127.0.0.1:9/v1";
    await expect(getWritingProvider().tribute(tribute)).rejects.toBeInstanceOf(AiUnavailableError);
  });
});

describe("without OPENAI_API_KEY", () => {
  it("uses the offline writer, labelled as such, and sends nothing anywhere", async () => {
    delete process.env.OPENAI_API_KEY;
    const before = openai.requests.length;
    const provider = getWritingProvider();
    expect(provider.name).toBe("offline");
    expect(provider.label).toBe(OFFLINE_LABEL);
    expect(OFFLINE_LABEL).toMatch(/offline writer/);
    expect(await provider.biography(biography)).toContain("March 4, 1950");
    const whole = await provider.tribute(tribute);
    expect((await collect(provider.streamTribute!(tribute))).join("")).toBe(whole);
    expect(openai.requests.length).toBe(before);
  });

  it("treats an empty key as no key", () => {
    expect(getWritingProvider(readAiConfig(parseEnv({ OPENAI_API_KEY: "  " }))).name).toBe("offline");
  });
});

describe("readAiConfig", () => {
  it("has defaults for everything", () => {
    expect(readAiConfig(parseEnv({}))).toEqual({ apiKey: undefined, baseURL: undefined, model: "gpt-4o-mini", timeoutMs: 20_000 });
  });

  it("explains a bad base URL or timeout, once, where the whole environment is checked", () => {
    expect(() => parseEnv({ OPENAI_BASE_URL: "not a url" })).toThrow(/OPENAI_BASE_URL/);
    expect(() => parseEnv({ OPENAI_TIMEOUT_MS: "soon" })).toThrow(/OPENAI_TIMEOUT_MS/);
    expect(() => parseEnv({ OPENAI_TIMEOUT_MS: "-5" })).toThrow(/OPENAI_TIMEOUT_MS/);
  });
});
