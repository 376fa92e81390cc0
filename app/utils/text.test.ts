import { describe, expect, it } from "vitest";
import { fullName, truncate, withThousands } from "./text";

describe("truncate", () => {
  it("returns text that fits unchanged", () => {
    expect(truncate("Beloved grandmother", 120)).toBe("Beloved grandmother");
  });

  it("returns text of exactly the maximum length unchanged", () => {
    const text = "a".repeat(200);
    expect(truncate(text, 200)).toBe(text);
  });

  it("cuts one character over the maximum", () => {
    expect(truncate("one two three", 12)).toBe("one two…");
  });

  it("cuts at the last word boundary and adds an ellipsis", () => {
    const text = "She taught at the little primary school in Church Stretton for thirty-one years.";
    const result = truncate(text, 30);
    expect(result).toBe("She taught at the little…");
    expect(result.length).toBeLessThanOrEqual(30);
  });

  it("keeps a word that ends exactly on the budget", () => {
    // "abcd efgh" is 9 characters: with max 10 there is room for it plus the ellipsis.
    expect(truncate("abcd efgh ijkl", 10)).toBe("abcd efgh…");
  });

  it("trims punctuation and spaces before the ellipsis", () => {
    expect(truncate("Gardener, teacher, friend and neighbour", 20)).toBe("Gardener, teacher…");
    expect(truncate("It was over.   Then came spring", 16)).toBe("It was over…");
  });

  it("treats newlines as word boundaries", () => {
    expect(truncate("First paragraph ends.\n\nSecond paragraph", 25)).toBe("First paragraph ends…");
  });

  it("cuts a very long single word mid-word", () => {
    const result = truncate("x".repeat(500), 120);
    expect(result).toBe(`${"x".repeat(119)}…`);
    expect(result).toHaveLength(120);
  });

  it("never returns more than max characters", () => {
    const text = "Margaret listened to Gardeners' Question Time every Sunday and argued with the panel out loud.";
    for (let max = 1; max <= text.length + 5; max++) {
      expect(truncate(text, max).length).toBeLessThanOrEqual(max);
    }
  });

  it("does not split an emoji in half", () => {
    const result = truncate(`${"a".repeat(8)}🌹🌹🌹`, 10);
    expect(result).toBe(`${"a".repeat(8)}…`);
  });

  it("returns an empty string for null, undefined and empty input", () => {
    expect(truncate(null, 120)).toBe("");
    expect(truncate(undefined, 120)).toBe("");
    expect(truncate("", 120)).toBe("");
  });

  it("returns an empty string for whitespace-only input", () => {
    expect(truncate("   \n\t  ", 120)).toBe("");
  });

  it("drops surrounding whitespace", () => {
    expect(truncate("  In loving memory \n", 120)).toBe("In loving memory");
  });
});

describe("fullName", () => {
  it("joins first and last name with a space", () => {
    expect(fullName({ firstName: "Margaret", lastName: "Ellis" })).toBe("Margaret Ellis");
  });

  it("does not leave stray spaces when a part is empty or padded", () => {
    expect(fullName({ firstName: " Amara ", lastName: "" })).toBe("Amara");
    expect(fullName({ firstName: "", lastName: "Okafor" })).toBe("Okafor");
  });
});

describe("withThousands", () => {
  it("writes what toLocaleString('en-GB') writes for whole numbers", () => {
    for (const n of [0, 7, 999, 1000, 5000, 12345, 999999, 1000000, 123456789]) expect(withThousands(n)).toBe(n.toLocaleString("en-GB"));
  });
});
