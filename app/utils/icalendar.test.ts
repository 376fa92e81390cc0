import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { anniversaryEvents, calendarFileName, yearlyRule } from "./anniversaries";
import { escapeText, foldLine, nextDay, writeCalendar, type CalendarEvent } from "./icalendar";

// The iCalendar writer (RFC 5545) on its own: folding at 75 octets, TEXT escaping, CRLF, and what a real
// parser (ical.js) reads back from it.

const octets = (line: string) => new TextEncoder().encode(line).length;

const event = (overrides: Partial<CalendarEvent> = {}): CalendarEvent => ({
  uid: "memorial-1-birthday@everlight.uk",
  stamp: new Date("2026-11-26T08:00:00.123Z"),
  start: { date: "1815-12-10" },
  rrule: "FREQ=YEARLY",
  summary: "Birthday of Ada Lovelace (born 1815)",
  ...overrides,
});

describe("escapeText", () => {
  it("escapes backslashes, semicolons, commas and newlines, and drops other control characters", () => {
    expect(escapeText("a\\b;c,d\ne\r\nf\rg")).toBe("a\\\\b\\;c\\,d\\ne\\nf\\ng");
    expect(escapeText("tab\there\u0000\u0007!")).toBe("tab\there!");
    expect(escapeText("colon: stays")).toBe("colon: stays");
  });
});

describe("foldLine", () => {
  it("leaves a line of 75 octets alone and folds the 76th onto a line starting with a space", () => {
    const exact = "X".repeat(75);
    expect(foldLine(exact)).toBe(exact);
    expect(foldLine(`${exact}Y`)).toBe(`${exact}\r\n Y`);
  });

  it("keeps every physical line within 75 octets, counting the leading space, and unfolds to the original", () => {
    const line = `SUMMARY:${"Remembering Zoë ".repeat(20)}`;
    const folded = foldLine(line);
    const lines = folded.split("\r\n");
    expect(lines.length).toBeGreaterThan(4);
    for (const l of lines) expect(octets(l)).toBeLessThanOrEqual(75);
    for (const l of lines.slice(1)) expect(l.startsWith(" ")).toBe(true);
    expect(folded.replace(/\r\n /g, "")).toBe(line);
  });

  it("never splits a multi-byte character", () => {
    // 74 octets, then a 4-octet emoji that does not fit: it moves whole to the next line.
    const folded = foldLine(`${"a".repeat(74)}🕯️b`);
    const [first, second] = folded.split("\r\n");
    expect(first).toBe("a".repeat(74));
    expect(second.startsWith(" 🕯")).toBe(true);
    expect(new TextDecoder("utf-8", { fatal: true }).decode(new TextEncoder().encode(folded))).toBe(folded);
  });
});

describe("writeCalendar", () => {
  it("writes CRLF lines only, ends with one, and an all-day event as VALUE=DATE with the next day as its end", () => {
    const ics = writeCalendar({ productId: "-//Everlight//Test//EN", name: "Remembering Ada", events: [event()] });
    expect(ics.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    expect(ics).toContain("\r\nDTSTART;VALUE=DATE:18151210\r\n");
    expect(ics).toContain("\r\nDTEND;VALUE=DATE:18151211\r\n");
    expect(ics).toContain("\r\nDTSTAMP:20261126T080000Z\r\n");
  });

  it("is read back by a real parser with the text as it was written, commas, semicolons and newlines included", () => {
    const description = 'She said: "Be kind; be brave, always."\nBackslash \\ too.\n\n' + "A long line that goes on and on ".repeat(6);
    const ics = writeCalendar({
      productId: "-//Everlight//Test//EN",
      name: "Remembering O'Brien, Ada; née Byron",
      events: [event({ description, url: "https://example.test/memorials/1?a=1,2;b" })],
    });
    for (const l of ics.split("\r\n")) expect(octets(l)).toBeLessThanOrEqual(75);
    const calendar = new ICAL.Component(ICAL.parse(ics));
    // ical.js reads an X- property's value raw; the calendar apps that read X-WR-CALNAME unescape it as TEXT.
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("Remembering O'Brien\\, Ada\\; née Byron");
    const vevent = calendar.getFirstSubcomponent("vevent")!;
    expect(vevent.getFirstPropertyValue("summary")).toBe("Birthday of Ada Lovelace (born 1815)");
    expect(vevent.getFirstPropertyValue("description")).toBe(description);
    expect(vevent.getFirstPropertyValue("url")).toBe("https://example.test/memorials/1?a=1,2;b");
    expect(new ICAL.Event(vevent).startDate.isDate).toBe(true);
  });

  it("writes a timed event in UTC and refuses one without an end", () => {
    const at = new Date("2027-03-28T00:30:00Z");
    const ics = writeCalendar({
      productId: "-//E//T//EN",
      name: "x",
      events: [event({ start: { at }, end: { at: new Date("2027-03-28T02:30:00Z") }, rrule: undefined })],
    });
    expect(ics).toContain("\r\nDTSTART:20270328T003000Z\r\n");
    expect(() => writeCalendar({ productId: "-//E//T//EN", name: "x", events: [event({ start: { at } })] })).toThrow(/needs an end/);
    expect(() => writeCalendar({ productId: "-//E//T//EN", name: "x", events: [event({ start: { date: "2025-02-29" } })] })).toThrow(/Not a calendar date/);
  });
});

describe("anniversary events", () => {
  const memorial = {
    id: "m1",
    firstName: "Ada",
    lastName: "Lovelace",
    dateOfBirth: "1815-12-10",
    dateOfPassing: "1852-11-27",
    updatedAt: new Date("2026-01-01T00:00:00Z"),
  };

  it("makes a birthday and an anniversary of passing with stable UIDs, and none for a missing date", () => {
    const events = anniversaryEvents(memorial, "https://e.test/memorials/m1", "everlight.uk");
    expect(events.map((e) => [e.uid, e.summary])).toEqual([
      ["memorial-m1-birthday@everlight.uk", "Birthday of Ada Lovelace (born 1815)"],
      ["memorial-m1-passing@everlight.uk", "Remembering Ada Lovelace (passed away 1852)"],
    ]);
    expect(anniversaryEvents({ ...memorial, dateOfBirth: null }, "u", "d").map((e) => e.uid)).toEqual(["memorial-m1-passing@d"]);
    expect(anniversaryEvents({ ...memorial, dateOfBirth: null, dateOfPassing: null }, "u", "d")).toEqual([]);
  });

  it("recurs a 29 February date on the last day of February, every other date plainly yearly", () => {
    expect(yearlyRule("2000-02-29")).toBe("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1");
    expect(yearlyRule("2000-02-28")).toBe("FREQ=YEARLY");
    expect(nextDay("2000-02-29")).toBe("2000-03-01");
    expect(nextDay("2001-02-28")).toBe("2001-03-01");
  });

  it("names the download after the person, in plain letters", () => {
    expect(calendarFileName("Zoë O'Brien-Smith")).toBe("zoe-o-brien-smith-anniversaries.ics");
    expect(calendarFileName("李 明")).toBe("memorial-anniversaries.ics");
  });
});
