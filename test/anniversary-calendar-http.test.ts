import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";

// Anniversaries in the calendar over real HTTP against the built server (decision 022):
// a public memorial's feed read by a real parser (ical.js) with its yearly birthday and anniversary of
// passing, a 29 February birth on a day in every year, the same UIDs each time, the feed's and the
// download's headers; a private and a friends-only memorial's feed only through the private link its owner
// sees; a draft's and a deleted memorial's feed nobody's; the memorial page's "Remember the dates" block.

type Feed = { name: string; events: ICAL.Event[] };

function parseFeed(ics: string): Feed {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return { name: String(calendar.getFirstPropertyValue("x-wr-calname")), events: calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v)) };
}

/** The dates (YYYY-MM-DD) an event falls on in the given years, from its recurrence as the parser expands it. */
function occurrencesIn(event: ICAL.Event, from: number, to: number): string[] {
  const found: string[] = [];
  const iterator = event.iterator();
  for (let next = iterator.next(); next && next.year <= to; next = iterator.next()) {
    if (next.year >= from) found.push(next.toString());
  }
  return found;
}

const plain = (html: string) => html.replace(/<!-- -->/g, "").replace(/&#x27;/g, "'");

describe.each(serverDatabases())("anniversary calendars over HTTP on %s", (database) => {
  let server: TestServer;
  let owner: Client;
  let other: Client;
  let visitor: Client;
  const ids = {} as Record<"ada" | "leap" | "private" | "friends" | "draft" | "undated" | "deleted", string>;

  const feed = (id: string, query = "") => `/memorials/${id}/anniversaries.ics${query}`;
  async function create(fields: Record<string, unknown>) {
    const created = await owner.post("/api/memorials", { visibility: "public", isPublished: true, ...fields });
    expect(created.status, created.text).toBe(201);
    return created.json.id as string;
  }
  /** The private link the owner sees on the memorial page (the calendar address field). */
  async function privateLinkOnPage(id: string) {
    const page = await owner.get(`/memorials/${id}`);
    expect(page.status).toBe(200);
    const address = /id="calendar-address"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*id="calendar-address"/.exec(page.text);
    expect(address, "the calendar address field").not.toBeNull();
    return new URL((address![1] ?? address![2]).replace(/&amp;/g, "&"));
  }

  beforeAll(async () => {
    server = await startServer({}, { database });
    owner = (await registerMember(server.url, { firstName: "Olive", lastName: "Owner" })).api;
    other = (await registerMember(server.url)).api;
    visitor = client(server.url);
    ids.ada = await create({ firstName: "Ada", lastName: "Lovelace", dateOfBirth: "1815-12-10", dateOfPassing: "1852-11-27", biography: "Poetical science." });
    ids.leap = await create({ firstName: "Leap", lastName: "Day", dateOfBirth: "1944-02-29", dateOfPassing: "2024-03-31" });
    ids.private = await create({ firstName: "Priya", lastName: "Private", dateOfBirth: "1950-06-01", visibility: "private" });
    ids.friends = await create({ firstName: "Fern", lastName: "Friends", dateOfPassing: "2021-01-15", visibility: "friends" });
    ids.draft = await create({ firstName: "Dora", lastName: "Draft", dateOfBirth: "1960-07-07", visibility: "private", isPublished: false });
    ids.undated = await create({ firstName: "Una", lastName: "Undated" });
    ids.deleted = await create({ firstName: "Del", lastName: "Deleted", dateOfBirth: "1930-03-03" });
  });
  afterAll(async () => server?.stop());

  it("gives a public memorial's birthday and anniversary of passing as yearly all-day events a real parser reads", async () => {
    const res = await visitor.get(feed(ids.ada));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toBe("public, no-cache");
    expect(res.headers.get("Content-Disposition")).toBeNull();
    expect(res.headers.get("ETag")).toMatch(/^"[\w-]+"$/);
    expect(Date.parse(res.headers.get("Last-Modified") ?? "")).not.toBeNaN();
    // CRLF everywhere, and no line longer than 75 octets.
    expect(res.text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of res.text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    const { name, events } = parseFeed(res.text);
    expect(name).toBe("Remembering Ada Lovelace");
    expect(events.map((e) => e.summary)).toEqual(["Birthday of Ada Lovelace (born 1815)", "Remembering Ada Lovelace (passed away 1852)"]);
    const [birthday, passing] = events;
    expect(birthday.startDate.isDate).toBe(true);
    expect(birthday.startDate.toString()).toBe("1815-12-10");
    expect(birthday.endDate.toString()).toBe("1815-12-11");
    expect(birthday.isRecurring()).toBe(true);
    expect(occurrencesIn(birthday, 2025, 2028)).toEqual(["2025-12-10", "2026-12-10", "2027-12-10", "2028-12-10"]);
    expect(occurrencesIn(passing, 2025, 2026)).toEqual(["2025-11-27", "2026-11-27"]);
    expect(birthday.description).toContain("Ada Lovelace was born on December 10, 1815.");
    expect(birthday.description).toMatch(new RegExp(`leave a tribute: https?://[^\\s]+/memorials/${ids.ada}$`));
    expect(String(birthday.component.getFirstPropertyValue("url"))).toMatch(new RegExp(`/memorials/${ids.ada}$`));
  });

  it("keeps a 29 February birthday on a day in every year: 28 February, and 29 February in leap years", async () => {
    const { events } = parseFeed((await visitor.get(feed(ids.leap))).text);
    const [birthday, passing] = events;
    expect(birthday.summary).toBe("Birthday of Leap Day (born 1944)");
    expect(occurrencesIn(birthday, 2025, 2028)).toEqual(["2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29"]);
    // Each lasts the one day.
    const details = birthday.getOccurrenceDetails(birthday.iterator(ICAL.Time.fromDateString("2027-01-01")).next()!);
    expect(details.endDate.toString()).toBe("2027-03-01");
    expect(occurrencesIn(passing, 2025, 2028)).toEqual(["2025-03-31", "2026-03-31", "2027-03-31", "2028-03-31"]);
  });

  it("gives the same UIDs and bytes on every request, answers 304 to its ETag, and changes when a date does", async () => {
    const first = await visitor.get(feed(ids.ada));
    const second = await other.get(feed(ids.ada));
    expect(second.text).toBe(first.text);
    const uids = (text: string) => parseFeed(text).events.map((e) => e.uid);
    expect(uids(first.text)).toEqual([`memorial-${ids.ada}-birthday@everlight.uk`, `memorial-${ids.ada}-passing@everlight.uk`]);
    const etag = first.headers.get("ETag")!;
    const unchanged = await visitor.get(feed(ids.ada), { headers: { "If-None-Match": etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe("");

    const edited = await owner.put(`/api/memorials/${ids.ada}`, { dateOfBirth: "1815-12-11" });
    expect(edited.status, edited.text).toBe(200);
    const after = await visitor.get(feed(ids.ada), { headers: { "If-None-Match": etag } });
    expect(after.status).toBe(200);
    expect(uids(after.text)).toEqual(uids(first.text));
    expect(occurrencesIn(parseFeed(after.text).events[0], 2026, 2026)).toEqual(["2026-12-11"]);
  });

  it("downloads the same calendar as a named .ics file", async () => {
    const res = await visitor.get(feed(ids.ada, "?download=1"));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="ada-lovelace-anniversaries.ics"');
    expect(parseFeed(res.text).events).toHaveLength(2);
  });

  it("shows the public links on a public memorial's page to every visitor, without a private key", async () => {
    const page = await visitor.get(`/memorials/${ids.ada}`);
    expect(page.status).toBe(200);
    const text = plain(page.text);
    expect(text).toContain("Remember the dates");
    expect(text).toContain("Keep Ada's birthday and the anniversary of their passing in your calendar, every year.");
    expect(page.text).toMatch(new RegExp(`href="webcal://[^"]+/memorials/${ids.ada}/anniversaries\\.ics"`));
    expect(page.text).toContain(`href="/memorials/${ids.ada}/anniversaries.ics?download=1"`);
    expect(page.text).not.toContain("key=");
    // A memorial with no dates has nothing to add; its feed still answers, valid and empty.
    expect(plain((await visitor.get(`/memorials/${ids.undated}`)).text)).not.toContain("Remember the dates");
    const empty = await visitor.get(feed(ids.undated));
    expect(empty.status).toBe(200);
    expect(parseFeed(empty.text)).toEqual({ name: "Remembering Una Undated", events: [] });
  });

  it("gives a private or friends-only memorial's feed only through the private link its owner sees, which says who can use it", async () => {
    for (const id of [ids.private, ids.friends]) {
      const link = await privateLinkOnPage(id);
      const key = link.searchParams.get("key")!;
      expect(key.length).toBeGreaterThanOrEqual(40);
      expect(link.pathname).toBe(`/memorials/${id}/anniversaries.ics`);
      // Without the key, or with a wrong one, nobody learns the memorial exists: the same 404 as for none.
      for (const who of [visitor, other, owner]) expect((await who.get(feed(id))).status).toBe(404);
      const nowhere = await visitor.get(feed("00000000-0000-4000-8000-000000000000"));
      const wrong = await visitor.get(feed(id, `?key=${key.slice(0, -2)}xx`));
      expect(wrong.status).toBe(404);
      expect(wrong.text).toBe(nowhere.text);
      expect((await visitor.get(feed(id, "?key="))).status).toBe(404);
      // Another memorial's key opens nothing here.
      const otherKey = (await privateLinkOnPage(id === ids.private ? ids.friends : ids.private)).searchParams.get("key")!;
      expect((await visitor.get(feed(id, `?key=${otherKey}`))).status).toBe(404);

      const res = await visitor.get(feed(id, `?key=${key}`));
      expect(res.status).toBe(200);
      expect(res.headers.get("Cache-Control")).toBe("private, no-cache");
      expect(res.headers.get("X-Robots-Tag")).toBe("noindex");
      expect(parseFeed(res.text).events).toHaveLength(1);
      const download = await visitor.get(feed(id, `?key=${key}&download=1`));
      expect(download.status).toBe(200);
      expect(download.headers.get("Content-Disposition")).toMatch(/^attachment; filename="(priya-private|fern-friends)-anniversaries\.ics"$/);
    }
    const page = plain((await owner.get(`/memorials/${ids.private}`)).text);
    expect(page).toContain("Anyone who has this link can see Priya Private's birthday and date of passing, without signing in.");
    // Nobody else is shown the private link: another member cannot even open the page.
    expect((await other.get(`/memorials/${ids.private}`)).text).not.toContain("anniversaries.ics");
  });

  it("gives a draft's and a deleted memorial's feed to nobody", async () => {
    const draftPage = await owner.get(`/memorials/${ids.draft}`);
    expect(draftPage.status).toBe(200);
    expect(draftPage.text).not.toContain("anniversaries.ics");
    expect((await visitor.get(feed(ids.draft))).status).toBe(404);

    const before = await visitor.get(feed(ids.deleted));
    expect(before.status).toBe(200);
    expect((await owner.delete(`/api/memorials/${ids.deleted}`)).status).toBeLessThan(300);
    for (const query of ["", "?download=1"]) {
      const res = await visitor.get(feed(ids.deleted, query));
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    }
  });
});
