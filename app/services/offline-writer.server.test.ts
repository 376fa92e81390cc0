import { describe, expect, it } from "vitest";
import { expectPassages } from "../../test/text";
import type { BiographyFacts, TributeFacts } from "~/utils/validation/ai";
import { cleanRelationship, formatFactDate, splitMemories, splitQualities, tributeSentences, writeBiography, writeTribute } from "./offline-writer.server";

// The offline writer must say everything it was told and nothing it was not:
// every fact appears in the text, and no name or date appears that the facts did not contain.

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/**
 * Every capitalised word is sentence-initial, a month, the pronoun "I" (and its contractions), or a
 * word of the input; every four-digit number is a year of the input's dates.
 */
function expectNothingInvented(output: string, input: unknown) {
  const source = JSON.stringify(input);
  const inputWords = new Set(source.match(/[\p{L}'’-]+/gu) ?? []);
  const words = [...output.matchAll(/[\p{L}'’-]+/gu)];
  for (const match of words) {
    const word = match[0];
    if (!/^\p{Lu}/u.test(word)) continue;
    const before = output.slice(0, match.index).trimEnd();
    const sentenceInitial = before === "" || /[.!?…]["'”’)\]]*$/.test(before);
    const allowed =
      sentenceInitial || MONTHS.includes(word) || /^I(?:'m|'ll|'d|'ve)?$/.test(word) || inputWords.has(word) || inputWords.has(word.replace(/'s$/, ""));
    expect(allowed, `"${word}" (at ${match.index}) is neither sentence-initial, a month, nor in the input:\n${output}`).toBe(true);
  }
  for (const year of output.match(/\b\d{4}\b/g) ?? []) {
    expect(source, `year ${year} is not in the input`).toContain(year);
  }
}

const edith: BiographyFacts = {
  firstName: "Edith",
  lastName: "Hart",
  dateOfBirth: "1950-03-04",
  dateOfPassing: "2023-01-12",
  personalStory: "she grew up in Whitby and worked as a nurse at the Royal Infirmary for thirty years. Weekends were for the allotment and her grandchildren",
  keyQualities: "kind, generous and funny; a wonderful cook",
};

describe("formatFactDate", () => {
  it("writes dates the British way, without shifting the day", () => {
    expect(formatFactDate("1950-03-04")).toBe("March 4, 1950");
    expect(formatFactDate("2023-12-31T23:30:00.000Z")).toBe("December 31, 2023");
    expect(formatFactDate(null)).toBe("");
  });
});

describe("the offline biography", () => {
  it("mentions every fact: names, formatted dates, age, story and each quality", () => {
    const text = writeBiography(edith);
    expectPassages(text, [
      "Edith Hart",
      "March 4, 1950",
      "January 12, 2023",
      "aged 72",
      "She grew up in Whitby and worked as a nurse at the Royal Infirmary for thirty years.",
      "Weekends were for the allotment and her grandchildren.",
    ]);
    for (const quality of ["kind", "generous", "funny", "a wonderful cook"]) expect(text).toContain(quality);
    expect(text).toContain("kind, generous, funny and a wonderful cook");
    expectNothingInvented(text, edith);
  });

  it("has 2 to 4 paragraphs, whatever is missing", () => {
    const cases: BiographyFacts[] = [
      edith,
      { ...edith, personalStory: "", keyQualities: "" },
      { ...edith, dateOfBirth: null, dateOfPassing: null, personalStory: "" },
      { firstName: "Tomasz", lastName: "Nowak", dateOfBirth: null, dateOfPassing: "2020-06-01", personalStory: "", keyQualities: "patient" },
    ];
    for (const facts of cases) {
      const paragraphs = writeBiography(facts).split("\n\n");
      expect(paragraphs.length).toBeGreaterThanOrEqual(2);
      expect(paragraphs.length).toBeLessThanOrEqual(4);
      expectNothingInvented(writeBiography(facts), facts);
    }
  });

  it("says only what it knows about dates", () => {
    const born = writeBiography({ ...edith, dateOfPassing: null });
    expect(born).toContain("was born on March 4, 1950.");
    expect(born).not.toMatch(/passed away|aged/);
    const none = writeBiography({ ...edith, dateOfBirth: null, dateOfPassing: null });
    expect(none).not.toMatch(/\d/);
    expect(none).toContain("Edith Hart");
  });

  it("never guesses a gender", () => {
    const text = writeBiography({ ...edith, personalStory: "" });
    expect(text).not.toMatch(/\b(he|she|him|her|his|hers)\b/i);
  });

  it("is deterministic", () => {
    expect(writeBiography(edith)).toBe(writeBiography({ ...edith }));
  });
});

describe("the offline tribute", () => {
  const visitor: TributeFacts = {
    name: "Edith Hart",
    firstName: "Edith",
    title: "Forever in our hearts",
    biography: "Edith was born in Whitby in 1950.",
    relationship: "granddaughter",
    tone: "warm",
    memories: "she taught me to bake bread on Sunday mornings\n- We walked the dog along the beach every evening.",
  };

  it.each(["warm", "respectful", "celebratory", "gentle"] as const)(
    "in a %s tone, mentions the name, relationship and each memory in one paragraph",
    (tone) => {
      const facts = { ...visitor, tone };
      const text = writeTribute(facts);
      expect(text).toContain("Edith Hart's granddaughter");
      expect(text).toContain("She taught me to bake bread on Sunday mornings.");
      expect(text).toContain("We walked the dog along the beach every evening.");
      expect(text).not.toContain("\n");
      expectNothingInvented(text, { name: facts.name, relationship: facts.relationship, memories: facts.memories });
    },
  );

  it("gives each tone its own words", () => {
    const texts = new Set((["warm", "respectful", "celebratory", "gentle"] as const).map((tone) => writeTribute({ ...visitor, tone })));
    expect(texts.size).toBe(4);
  });

  it("does not retell the memorial's biography or title (they are background for a model)", () => {
    const text = writeTribute(visitor);
    expect(text).not.toContain("Whitby");
    expect(text).not.toContain("1950");
    expect(text).not.toContain("Forever");
  });

  it("writes a third-person tribute from key details when no relationship is given", () => {
    const facts: TributeFacts = { name: "Tomasz Nowak", firstName: "Tomasz", keyDetails: "a carpenter who built the village hall's stage" };
    const text = writeTribute(facts);
    expect(text).toContain("Tomasz Nowak");
    expect(text).toContain("A carpenter who built the village hall's stage.");
    expectNothingInvented(text, facts);
  });

  it("streams as sentences that join back into the same paragraph", () => {
    expect(tributeSentences(visitor).join(" ")).toBe(writeTribute(visitor));
    expect(tributeSentences(visitor).length).toBeGreaterThan(3);
  });
});

describe("splitting the facts", () => {
  it("splits qualities on commas, semicolons, 'and' and new lines, each once", () => {
    expect(splitQualities("kind, generous and funny;\nloyal & brave, Kind")).toEqual(["kind", "generous", "funny", "loyal", "brave"]);
    expect(splitQualities("")).toEqual([]);
  });

  it("takes one memory a line, without bullets", () => {
    expect(splitMemories("- the beach\n\n2. Sunday bread\n* the dog")).toEqual(["the beach", "Sunday bread", "the dog"]);
  });

  it("reads a relationship as it would sit after a name", () => {
    expect(cleanRelationship("I was her Granddaughter.")).toBe("granddaughter");
    expect(cleanRelationship("a friend from church")).toBe("friend from church");
    expect(cleanRelationship("Uncle")).toBe("uncle");
    expect(cleanRelationship("Bridge club partner")).toBe("Bridge club partner");
  });
});
