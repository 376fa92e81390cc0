import { describe, expect, it } from "vitest";
import { personNameFrom, splitPersonName } from "./person-name";

describe("personNameFrom", () => {
  it.each([
    ["Obituary: Jane Smith", "Jane Smith"],
    ["Jane Smith obituary", "Jane Smith"],
    ["Margaret O'Brien-Hughes obituary", "Margaret O'Brien-Hughes"],
    ["Tributes paid to Owen Llewelyn, hill farmer", "Owen Llewelyn"],
    ["Doris Appleby, 1922–2024", "Doris Appleby"],
    ["Sir Alan McIntyre dies aged 92", "Alan McIntyre"],
    ["In memory of Morag Buchanan", "Morag Buchanan"],
    ["Remembering Beryl Ashdown: the seamstress of Bristol", "Beryl Ashdown"],
  ])("finds the person in %j", (headline, name) => {
    expect(personNameFrom(headline)).toBe(name);
  });

  it.each([
    "Kent village restores wartime bench",
    "Obituary: the village mourns",
    "The Queen dies",
    "Nottingham bereavement café marks five years",
    "Obituary",
    "",
  ])("names nobody in %j", (headline) => {
    expect(personNameFrom(headline)).toBeNull();
  });

  it("splits a name into first and last", () => {
    expect(splitPersonName("Mary Anne Jones")).toEqual({ firstName: "Mary Anne", lastName: "Jones" });
  });
});
