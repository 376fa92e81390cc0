import { describe, expect, it } from "vitest";
import { checkFormGuard, issueFormStamp, MIN_FILL_MS } from "./form-guard.server";

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe("anonymous form guard", () => {
  const t0 = 1_800_000_000_000;
  it("accepts a form sent back after the minimum fill time with an empty honeypot", () => {
    expect(checkFormGuard(form({ formStartedAt: issueFormStamp(t0), website: "" }), t0 + MIN_FILL_MS)).toBe("ok");
  });
  it("refuses a form sent back too fast", () => {
    expect(checkFormGuard(form({ formStartedAt: issueFormStamp(t0) }), t0 + 500)).toBe("too-fast");
  });
  it("refuses a filled honeypot whatever the timing", () => {
    expect(checkFormGuard(form({ formStartedAt: issueFormStamp(t0), website: "http://spam.example" }), t0 + 60_000)).toBe("honeypot");
  });
  it("refuses a missing, forged or back-dated stamp", () => {
    expect(checkFormGuard(form({}), t0)).toBe("invalid");
    const [ts, sig] = issueFormStamp(t0).split(".");
    expect(checkFormGuard(form({ formStartedAt: `${Number(ts) - 60_000}.${sig}` }), t0 + 5000)).toBe("invalid");
    expect(checkFormGuard(form({ formStartedAt: `${ts}.AAAA` }), t0 + 5000)).toBe("invalid");
    expect(checkFormGuard(form({ formStartedAt: issueFormStamp(t0) }), t0 + 2 * 24 * 60 * 60 * 1000)).toBe("invalid");
  });
});
