import { afterEach, expect, it, vi } from "vitest";

// In the browser zod must not try `new Function` (our CSP allows no eval; Chromium reports the try as an
// issue, which Lighthouse counts against best practices). The server keeps compiled parsers.

afterEach(async () => {
  vi.unstubAllGlobals();
  // zod's settings belong to the process, which later test files share: the server's default again.
  (await import("./zod")).z.config({ jitless: false });
  vi.resetModules();
});

it("in the browser, zod is told not to compile parsers, so it never builds a function from text", async () => {
  vi.stubGlobal("document", {});
  const { z } = await import("./zod");
  expect(z.config().jitless).toBe(true);
  // Every way zod compiles (its probe and its parsers) calls the global Function: watched while a schema is built and used.
  const built: unknown[][] = [];
  vi.stubGlobal(
    "Function",
    new Proxy(Function, {
      construct: (target, args) => (built.push(args), Reflect.construct(target, args)),
      apply: (target, self, args) => (built.push(args), Reflect.apply(target, self, args)),
    }),
  );
  expect(z.object({ name: z.string() }).parse({ name: "Winnie" })).toEqual({ name: "Winnie" });
  expect(built).toEqual([]);
});
