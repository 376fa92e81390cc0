import { describe, expect, it } from "vitest";
import { formatLongDate, formatShortDate, toIsoDate } from "./dates";

describe("dates", () => {
  it("formats calendar dates without shifting them by time zone", () => {
    expect(formatLongDate("1950-03-04")).toBe("March 4, 1950");
    expect(formatShortDate(new Date("2020-01-05T00:00:00Z"))).toBe("Jan 5, 2020");
    expect(toIsoDate(new Date("2020-01-05T00:00:00Z"))).toBe("2020-01-05");
  });
  it("gives an empty string for nothing or nonsense", () => {
    expect(formatLongDate(null)).toBe("");
    expect(formatShortDate("not a date")).toBe("");
    expect(toIsoDate(undefined)).toBe("");
  });
});
