import { afterEach, expect, it, vi } from "vitest";

// In the browser zod must not try `new Function` (our CSP allows no eval; Chromium reports the try as an
// issue, which Lighthouse counts against best practices). The server keeps compiled parsers.

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

it("in the browser, zod is told not to compile parsers, so it never tries eval", async () => {
  vi.stubGlobal("document", {});
  const { z } = await import("./zod");
  const { util } = await import("zod/v4/core");
  expect(z.config().jitless).toBe(true);
  expect(util.allowsEval.value).toBe(false);
  expect(z.object({ name: z.string() }).parse({ name: "Winnie" })).toEqual({ name: "Winnie" });
});
