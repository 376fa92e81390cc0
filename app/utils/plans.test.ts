import { describe, expect, it } from "vitest";
import { formatPence } from "./money";
import { describeInstalments, describePrice, instalments, MEMORIAL_LIMIT_MESSAGE, PLANS, FREE_MEMORIAL_LIMIT } from "./plans";

describe("the plans", () => {
  it("are priced as the plans page sells them, in pence", () => {
    expect(PLANS.free.pricePence).toBe(0);
    expect(formatPence(PLANS.forever.pricePence)).toBe("£279.00");
    expect(formatPence(PLANS.forever_plus.pricePence)).toBe("£429.00");
  });

  it("pay in instalments that add up to exactly the price", () => {
    for (const plan of Object.values(PLANS)) {
      const amounts = instalments(plan);
      if (plan.pricePence === 0) expect(amounts).toEqual([]);
      else expect(amounts.reduce((a, b) => a + b, 0)).toBe(plan.pricePence);
    }
    expect(new Set(instalments(PLANS.forever))).toEqual(new Set([775]));
    const plus = instalments(PLANS.forever_plus);
    expect(plus).toHaveLength(36);
    expect(plus.slice(0, 35).every((a) => a === 1192)).toBe(true);
    expect(plus[35]).toBe(1180);
  });

  it("say so in words", () => {
    expect(describeInstalments(PLANS.forever)).toBe("36 monthly payments of £7.75");
    expect(describeInstalments(PLANS.forever_plus)).toBe("36 monthly payments of £11.92 (the last £11.80)");
    expect(describePrice(PLANS.forever)).toBe("£279.00 one-time, or 36 monthly payments of £7.75");
    expect(describePrice(PLANS.free)).toBe("Free");
  });

  it("open the vault on Forever Plus only", () => {
    expect(
      Object.values(PLANS)
        .filter((p) => p.vault)
        .map((p) => p.id),
    ).toEqual(["forever_plus"]);
  });

  it("word the free limit from the number itself", () => {
    expect(MEMORIAL_LIMIT_MESSAGE).toBe(
      `You've reached the ${FREE_MEMORIAL_LIMIT} memorial limit for free users. Please subscribe to create unlimited memorials.`,
    );
    expect(MEMORIAL_LIMIT_MESSAGE).toContain("25 memorial limit");
  });
});
