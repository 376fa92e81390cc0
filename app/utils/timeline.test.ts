import { describe, expect, it } from "vitest";
import { formatTimelineDate, parseTimelineForm, TIMELINE_MESSAGES, timelineDateTime, timelinePrecision } from "./timeline";

// The timeline form's rules and how its dates are written.

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries({ kind: "born", year: "1950", month: "", day: "", title: "Born", description: "", photoId: "", ...fields })) f.set(k, v);
  return f;
};

describe("timeline form", () => {
  it("takes a year alone, a month and year, or a full date", () => {
    expect(parseTimelineForm(form({}), 2026)).toMatchObject({
      ok: true,
      input: { kind: "born", year: 1950, month: null, day: null, description: null, photoId: null },
    });
    expect(parseTimelineForm(form({ month: "3" }), 2026)).toMatchObject({ ok: true, input: { month: 3, day: null } });
    expect(parseTimelineForm(form({ month: "2", day: "29", year: "1960" }), 2026)).toMatchObject({ ok: true, input: { month: 2, day: 29 } });
  });

  it("says what is wrong next to each field and keeps what was typed", () => {
    const bad = parseTimelineForm(form({ kind: "party", year: "19x0", day: "3", title: " ", description: "d".repeat(1001) }), 2026);
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors).toEqual({
      kind: [TIMELINE_MESSAGES.kindRequired],
      year: [TIMELINE_MESSAGES.yearRange(2026)],
      title: [TIMELINE_MESSAGES.titleRequired],
      description: [TIMELINE_MESSAGES.descriptionTooLong],
    });
    expect(bad.values.year).toBe("19x0");
    const noYear = parseTimelineForm(form({ year: "" }), 2026);
    expect(!noYear.ok && noYear.errors).toEqual({ year: [TIMELINE_MESSAGES.yearRequired] });
    const dayAlone = parseTimelineForm(form({ day: "3" }), 2026);
    expect(!dayAlone.ok && dayAlone.errors).toEqual({ day: [TIMELINE_MESSAGES.dayNeedsMonth] });
    const noSuchDay = parseTimelineForm(form({ year: "1961", month: "2", day: "29" }), 2026);
    expect(!noSuchDay.ok && noSuchDay.errors).toEqual({ day: [TIMELINE_MESSAGES.dayInvalid] });
    const future = parseTimelineForm(form({ year: "2027" }), 2026);
    expect(!future.ok && future.errors).toEqual({ year: [TIMELINE_MESSAGES.yearRange(2026)] });
    const nul = parseTimelineForm(form({ title: "a\u0000b" }), 2026);
    expect(!nul.ok && Object.keys(nul.errors)).toEqual(["title"]);
    const long = parseTimelineForm(form({ title: "t".repeat(121) }), 2026);
    expect(!long.ok && long.errors).toEqual({ title: [TIMELINE_MESSAGES.titleTooLong] });
  });

  it("writes dates at their precision", () => {
    expect([formatTimelineDate({ year: 1950, month: null, day: null }), timelineDateTime({ year: 1950, month: null, day: null })]).toEqual(["1950", "1950"]);
    expect([formatTimelineDate({ year: 1950, month: 3, day: null }), timelineDateTime({ year: 1950, month: 3, day: null })]).toEqual(["March 1950", "1950-03"]);
    expect([formatTimelineDate({ year: 1950, month: 3, day: 7 }), timelineDateTime({ year: 1950, month: 3, day: 7 })]).toEqual(["March 7, 1950", "1950-03-07"]);
    expect(timelinePrecision({ year: 1950, month: 3, day: null })).toBe("month");
  });
});
