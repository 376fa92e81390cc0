import { describe, expect, it } from "vitest";
import { initialsOf, initialsPortrait } from "./initials-portrait";

describe("a portrait for someone with no photograph", () => {
  it("shows the first letters of the first and last names, whatever the script", () => {
    expect(initialsOf("Mary Anne Ellis")).toBe("ME");
    expect(initialsOf("  winifred  ")).toBe("W");
    expect(initialsOf("Ærwyn Ó'Brien")).toBe("ÆÓ");
    expect(initialsOf("李 小龍")).toBe("李小");
    expect(initialsOf("(Jo) 'Smith'")).toBe("JS");
  });

  it("is the same for the same person, draws only letters, and differs in tint between people", () => {
    expect(initialsPortrait("Ada Lovelace")).toBe(initialsPortrait("Ada Lovelace"));
    const svg = decodeURIComponent(initialsPortrait("<b> &x").replace("data:image/svg+xml,", ""));
    expect(svg).toContain(">BX</text>");
    expect(svg).not.toContain("<b>");
    const tints = new Set(
      ["Ada Lovelace", "Mary Anning", "Alan Turing", "Grace Hopper", "Edith Cavell"].map((n) => initialsPortrait(n).match(/fill%3D%22(%23[0-9a-f]{6})/)![1]),
    );
    expect(tints.size).toBeGreaterThan(1);
  });
});
