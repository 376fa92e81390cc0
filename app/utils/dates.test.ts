import { describe, expect, it } from "vitest";
import { formatLifeDates, formatLongDate, formatShortDate, toIsoDate } from "./dates";

describe("dates", () => {
  it("writes a life's dates as the memorial page does, leaving them out when neither is known", () => {
    expect(formatLifeDates("1930-01-05", new Date("2024-03-02T00:00:00Z"))).toBe("January 5, 1930 – March 2, 2024");
    expect(formatLifeDates(null, "2024-03-02")).toBe("Unknown – March 2, 2024");
    expect(formatLifeDates("1930-01-05", null)).toBe("January 5, 1930 – Unknown");
    expect(formatLifeDates(null, undefined)).toBe("");
  });
  it("formats calendar dates without shifting them by time zone", () => {
    expect(formatLongDate("1950-03-04")).toBe("March 4, 1950");
    expect(formatShortDate(new Date("2020-01-05T00:00:00Z"))).toBe("Jan 5, 2020");
    expect(toIsoDate(new Date("2020-01-05T00:00:00Z"))).toBe("2020-01-05");
  });
  it("writes what Intl writes for en-US in UTC, every month, long and short", () => {
    const long = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
    const short = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
    for (const iso of [
      "1901-01-01",
      "1950-02-28",
      "1999-03-31",
      "2000-04-09",
      "2020-05-05",
      "2024-06-30",
      "1888-07-04",
      "1969-08-20",
      "2001-09-11",
      "1918-10-31",
      "1989-11-09",
      "2026-12-25",
    ]) {
      expect(formatLongDate(iso)).toBe(long.format(new Date(`${iso}T00:00:00Z`)));
      expect(formatShortDate(iso)).toBe(short.format(new Date(`${iso}T00:00:00Z`)));
    }
    expect(formatLongDate("2020-01-05T23:30:00-05:00")).toBe("January 6, 2020");
  });
  it("gives an empty string for nothing or nonsense", () => {
    expect(formatLongDate(null)).toBe("");
    expect(formatShortDate("not a date")).toBe("");
    expect(toIsoDate(undefined)).toBe("");
  });
});
