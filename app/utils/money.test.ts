import { describe, expect, it } from "vitest";
import { basketTotals, formatPence, parsePounds, taxOn } from "./money";

describe("formatPence", () => {
  it.each([
    [0, "£0.00"],
    [5, "£0.05"],
    [2999, "£29.99"],
    [27900, "£279.00"],
    [123456, "£1,234.56"],
    [-1250, "-£12.50"],
  ])("%i → %s", (pence, text) => expect(formatPence(pence)).toBe(text));

  it("refuses what is not a whole number of pence", () => {
    expect(() => formatPence(1.5)).toThrow(RangeError);
  });
});

describe("tax and totals", () => {
  it("is 8% of the subtotal to the nearest penny", () => {
    expect(taxOn(10000)).toBe(800);
    expect(taxOn(1299)).toBe(104); // 103.92
    expect(taxOn(1306)).toBe(104); // 104.48
    expect(taxOn(1319)).toBe(106); // 105.52
    expect(basketTotals(2598)).toEqual({ subtotal: 2598, tax: 208, total: 2806 });
  });
});

describe("parsePounds", () => {
  it.each([
    ["12", 1200],
    ["12.5", 1250],
    ["12.50", 1250],
    ["£1,299.99", 129999],
    [" 0.99 ", 99],
    ["12.345", null],
    ["-3", null],
    ["abc", null],
    ["", null],
    ["1e3", null],
  ])("%j → %s", (text, pence) => expect(parsePounds(text)).toBe(pence));
});
