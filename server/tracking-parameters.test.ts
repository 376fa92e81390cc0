import { describe, expect, it } from "vitest";
import { withoutTracking } from "./tracking-parameters";

describe("withoutTracking", () => {
  it("leaves a query string without tracking parameters exactly as it is", () => {
    for (const search of ["", "?", "?search=rose", "?search=rose&view=grid", "?tributes=2", "?search=a%26b&&x=1", "?utm=1", "?reference=fb"])
      expect(withoutTracking(search)).toBe(search);
  });

  it("takes out click ids and campaign marks, keeping the rest in its order and spelling", () => {
    expect(withoutTracking("?fbclid=IwAR0x9")).toBe("");
    expect(withoutTracking("?tributes=2&fbclid=IwAR0x9")).toBe("?tributes=2");
    expect(withoutTracking("?utm_source=facebook&search=Rose+Hill&utm_medium=social&view=grid")).toBe("?search=Rose+Hill&view=grid");
    expect(withoutTracking("?gclid=a&msclkid=b&_ga=c&_gl=d&mc_cid=e&mc_eid=f&igshid=g&ttclid=h&twclid=i&li_fat_id=j")).toBe("");
    expect(withoutTracking("?search=caf%C3%A9&utm_campaign=spring%20appeal")).toBe("?search=caf%C3%A9");
  });

  it("knows a tracking name however it is spelled, and drops the empty pairs left beside it", () => {
    expect(withoutTracking("?FBCLID=1&search=x")).toBe("?search=x");
    expect(withoutTracking("?%66bclid=1")).toBe("");
    expect(withoutTracking("?utm_Source")).toBe("");
    expect(withoutTracking("?&search=x&&fbclid=1&")).toBe("?search=x");
  });

  it("leaves a name that cannot be decoded alone", () => {
    expect(withoutTracking("?%E0%A4%A=1&fbclid=2")).toBe("?%E0%A4%A=1");
    expect(withoutTracking("?%E0%A4%A=1")).toBe("?%E0%A4%A=1");
  });
});
