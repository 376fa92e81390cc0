import { beforeAll, describe, expect, it } from "vitest";
import { A4, mm, newPdf, wrapText, type PdfFonts } from "./pdf.server";

// Lines for the printed book and the QR sheet: never wider than their measure, whatever a family or a
// visitor typed, and found in time that grows with the text, not with its square (an unbroken word of
// 2,000 characters took 83 s to wrap, holding every other request).

let fonts: PdfFonts;
beforeAll(async () => {
  fonts = (await newPdf({ title: "Lines" })).fonts;
});

const measure = A4.width - mm(40);

describe("wrapping text", () => {
  it("keeps words whole, paragraphs apart, and every line within the measure", () => {
    const text = "She grew sweet peas and taught at the village school for forty years.\n\nShe loved the sea.";
    const lines = wrapText(text, fonts.regular, 40, mm(120));
    expect(lines.join(" ").replace(/\s+/g, " ").trim()).toBe(text.replace(/\s+/g, " "));
    expect(lines).toContain("");
    for (const line of lines) expect(fonts.regular.widthOfTextAtSize(line, 40)).toBeLessThanOrEqual(mm(120));
    expect(lines.filter(Boolean).every((line) => !line.startsWith(" ") && !line.endsWith(" "))).toBe(true);
  });

  it("breaks an unbroken word where it must, losing no character, measuring each character a bounded number of times", () => {
    const word = "Ä".repeat(7) + "w".repeat(2000) + "i".repeat(1000);
    const text = `Before ${word} after`;
    // Counts what is measured: the work grows with the text's length, not its square (it took 83 s for 2,000 characters).
    let measured = 0;
    const counting = new Proxy(fonts.oblique, {
      get(target, property, receiver) {
        if (property !== "widthOfTextAtSize") return Reflect.get(target, property, receiver);
        return (s: string, size: number) => ((measured += s.length), target.widthOfTextAtSize(s, size));
      },
    });
    const lines = wrapText(text, counting, 11, measure);
    expect(lines.join("").replace(/ /g, "")).toBe(`Before${word}after`);
    for (const line of lines) expect(fonts.oblique.widthOfTextAtSize(line, 11)).toBeLessThanOrEqual(measure);
    // Each broken piece but the last fills its line to within one character.
    for (const piece of lines.slice(1, -2)) expect(fonts.oblique.widthOfTextAtSize(piece + "w", 11)).toBeGreaterThan(measure);
    expect(measured).toBeLessThan(3 * text.length);
    measured = 0;
    const twice = `${text} ${text}`;
    wrapText(twice, counting, 11, measure);
    expect(measured).toBeLessThan(3 * twice.length);
  });
});
