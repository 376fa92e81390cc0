import { describe, expect, it } from "vitest";
import { checkAssistant, tributeAssistantSchema } from "./ai";
import { checkTributeField, TRIBUTE_FIELDS, TRIBUTE_MESSAGES } from "./tribute-rules";
import { tributeSchema } from "./tribute";

// The memorial page checks its forms in the browser with small zod-free rules (tribute-rules.ts,
// ai-rules.ts) and the server checks them again with zod. A visitor must never meet a form that the
// browser passes and the server refuses, or the other way round: here both judge the same inputs.

const tributes = [
  { authorName: "Ann", authorEmail: "", content: "She taught me to swim." },
  { authorName: " A ", authorEmail: "", content: "She taught me to swim." },
  { authorName: "Ann", authorEmail: "ann@example.com", content: "short" },
  { authorName: "Ann", authorEmail: "Ann.Lee@Example.CO.UK", content: "  Ten chars  " },
  { authorName: "Ann", authorEmail: "not-an-email", content: "x".repeat(2000) },
  { authorName: "A".repeat(81), authorEmail: "a@b", content: "x".repeat(2001) },
  { authorName: "Ann", authorEmail: "ann..lee@example.com", content: "Long enough text." },
  { authorName: "Ann", authorEmail: ".ann@example.com", content: "Long enough text." },
  { authorName: "Ann", authorEmail: `${"a".repeat(250)}@example.com`, content: "Long enough text." },
  { authorName: "", authorEmail: " ann+tag@example.org ", content: "" },
  { authorName: "A\u0000nn", authorEmail: "ann@exa\u0000mple.com", content: "Long enough \u0000 text." },
  { authorName: "Ann\u0007", authorEmail: "", content: "Tabs\tand\r\nnew lines are fine." },
];

describe("the tribute form's checks in the browser and on the server", () => {
  it.each(tributes)("agree on %o", (input) => {
    const server = tributeSchema.safeParse(input);
    const serverErrors = server.success ? {} : Object.fromEntries(server.error.issues.map((i) => [String(i.path[0]), i.message]));
    const browserErrors = Object.fromEntries(TRIBUTE_FIELDS.map((f) => [f, checkTributeField(f, input[f])] as const).filter(([, message]) => message !== null));
    expect(browserErrors).toEqual(serverErrors);
  });

  it("says what is wrong in the words members are shown", () => {
    expect(checkTributeField("authorName", "")).toBe(TRIBUTE_MESSAGES.name);
    expect(checkTributeField("content", "too short")).toBe(TRIBUTE_MESSAGES.content);
    expect(checkTributeField("authorEmail", "nope")).toBe(TRIBUTE_MESSAGES.email);
    expect(checkTributeField("authorEmail", "")).toBeNull();
  });
});

const assistants = [
  { relationship: "granddaughter", tone: "warm", memories: "Bread on Sundays." },
  { relationship: "", tone: "", memories: "" },
  { relationship: "friend", tone: "Gentle and light", memories: "Walks." },
  { relationship: "friend", tone: "furious", memories: "Walks." },
  { relationship: "f".repeat(101), tone: "warm", memories: "m".repeat(1501) },
  { relationship: "  ", tone: "Celebratory", memories: "  " },
  { relationship: "fri\u0000end", tone: "warm\u0000", memories: "Walks\u001b." },
];

describe("the tribute assistant's checks in the browser and on the server", () => {
  it.each(assistants)("agree on %o", (input) => {
    const server = tributeAssistantSchema.safeParse(input);
    const serverErrors: Record<string, string[]> = {};
    if (!server.success) for (const issue of server.error.issues) (serverErrors[String(issue.path[0])] ??= []).push(issue.message);
    expect(checkAssistant(input) ?? {}).toEqual(serverErrors);
  });
});
