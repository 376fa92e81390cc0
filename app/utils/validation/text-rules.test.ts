import { describe, expect, it } from "vitest";
import { checkCalendarDate, hasControlCharacters, jsonHasControlCharacters, TEXT_MESSAGES } from "./text-rules";

describe("checkCalendarDate", () => {
  it.each([
    ["2024-02-29", null],
    ["2023-02-28", null],
    ["1000-01-01", null],
    ["2023-02-29", TEXT_MESSAGES.dateImpossible],
    ["2023-04-31", TEXT_MESSAGES.dateImpossible],
    ["1900-02-29", TEXT_MESSAGES.dateImpossible],
    ["2023-13-01", TEXT_MESSAGES.dateImpossible],
    ["2023-00-10", TEXT_MESSAGES.dateImpossible],
    ["0000-01-01", TEXT_MESSAGES.earliestYear],
    ["0099-06-15", TEXT_MESSAGES.earliestYear],
    ["0999-12-31", TEXT_MESSAGES.earliestYear],
    ["99999-01-01", TEXT_MESSAGES.dateFormat],
    ["2023-2-3", TEXT_MESSAGES.dateFormat],
    ["3 March 2020", TEXT_MESSAGES.dateFormat],
  ])("%s → %s", (value, expected) => {
    expect(checkCalendarDate(value)).toBe(expected);
  });
});

describe("control characters", () => {
  it("refuses NUL and the other C0 controls and DEL, and keeps tabs and line breaks", () => {
    expect(hasControlCharacters("a\u0000b")).toBe(true);
    expect(hasControlCharacters("bell\u0007")).toBe(true);
    expect(hasControlCharacters("del\u007f")).toBe(true);
    expect(hasControlCharacters("Tab\there,\r\nnew lines; emoji 🌷 and é")).toBe(false);
  });

  it("finds them anywhere in a JSON value, keys included", () => {
    expect(jsonHasControlCharacters({ a: [1, { b: "x\u0000" }] })).toBe(true);
    expect(jsonHasControlCharacters({ "k\u0000": 1 })).toBe(true);
    expect(jsonHasControlCharacters({ a: [1, null, true, { b: "fine" }] })).toBe(false);
  });
});
