import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";
import { mailsTo } from "./invitations";
import { formPost } from "./shop";

// A memorial's events over real HTTP against the built server: the owner adds events with
// plain form posts (303), bad input is a 400 with the message next to the field and the input kept; another
// member gets 404 and a visitor is sent to sign in; a visitor (who had the page cached) sees the event and
// replies with a plain form (303 back to #events), a bad reply is a 400 with the input kept, a reply to a past
// event is refused, and a private memorial's events take no reply from a stranger (404); the family's replies
// page and "Email attendees"; the calendar feed holds the events.

const plain = (html: string) => html.replace(/<!-- -->/g, "");

describe.each(serverDatabases())("memorial events over HTTP on %s", (database) => {
  let server: TestServer;
  let owner: Client;
  let other: Client;
  let memorialId: string;
  const events = (id = memorialId) => `/memorials/${id}/events`;
  const fields = (over: Record<string, string> = {}) => ({
    intent: "add",
    kind: "funeral",
    title: "Funeral of Iris",
    date: "2099-06-20",
    startTime: "11:00",
    endTime: "12:30",
    timeZone: "Europe/London",
    placeName: "St Mary's Church",
    address: "1 Church Lane, York",
    livestreamUrl: "",
    note: "",
    ...over,
  });
  const reply = (who: Client, eventId: string, over: Record<string, string> = {}, id = memorialId) =>
    formPost(who, `/memorials/${id}/events/${eventId}/rsvp`, { name: "Rita", email: "rita@example.com", partySize: "2", message: "", ...over });
  /** The id of the event with this title, from the family's list. */
  async function idOf(title: string, id = memorialId) {
    const list = plain((await owner.get(events(id))).text);
    const found = list
      .split('id="event-')
      .find((item) => item.includes(title))
      ?.slice(0, 36);
    expect(found, title).toBeTruthy();
    return found!;
  }

  beforeAll(async () => {
    server = await startServer({}, { database });
    owner = (await registerMember(server.url, { firstName: "Olive", lastName: "Owner" })).api;
    other = (await registerMember(server.url)).api;
    const created = await owner.post("/api/memorials", { firstName: "Iris", lastName: "Events", visibility: "public", isPublished: true });
    expect(created.status, created.text).toBe(201);
    memorialId = created.json.id;
  }, 120_000);
  afterAll(async () => server?.stop());

  it("adds events with plain forms; bad input is a 400 next to the field with the input kept, never a 500", async () => {
    const visitor = client(server.url);
    expect(plain((await visitor.get(`/memorials/${memorialId}`)).text)).not.toContain("Funeral of Iris");
    const added = await formPost(owner, events(), fields());
    expect(added.status, added.text).toBe(303);
    const page = plain((await visitor.get(`/memorials/${memorialId}`)).text);
    expect(page).toContain("Funeral of Iris");
    expect(page).toMatch(/June 20, 2099, 11:00–12:30 BST/);
    expect(page).toContain("https://www.openstreetmap.org/search?query=1+Church+Lane%2C+York");

    const bad = await formPost(owner, events(), fields({ livestreamUrl: "http://example.com/live", timeZone: "Mars/Base", title: "Kept <b>" }));
    expect(bad.status).toBe(400);
    const text = plain(bad.text);
    expect(text).toMatch(/id="event-livestreamUrl-error"[^>]*><li>Enter a full https:\/\/ link/);
    expect(text).toMatch(/id="event-timeZone-error"[^>]*><li>Choose a time zone from the list/);
    expect(text).toContain('value="Kept &lt;b&gt;"');
    const gap = await formPost(owner, events(), fields({ date: "2027-03-28", startTime: "01:30", endTime: "" }));
    expect(gap.status).toBe(400);
    expect(plain(gap.text)).toContain("That time does not exist on that day");
    for (const body of [
      fields({ date: "2027-02-30" }),
      fields({ intent: "nonsense" }),
      fields({ intent: "edit", eventId: "nope" }),
      fields({ title: "x".repeat(9000) }),
    ]) {
      const res = await formPost(owner, events(), body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBeLessThan(500);
    }
  });

  it("is 404 to another member and sends a visitor to sign in", async () => {
    expect((await other.get(events())).status).toBe(404);
    expect((await formPost(other, events(), fields({ title: "Not mine" }))).status).toBe(404);
    const id = await idOf("Funeral of Iris");
    expect((await other.get(`${events()}/${id}`)).status).toBe(404);
    expect((await formPost(other, `${events()}/${id}`, { subject: "Hi", body: "Spam" })).status).toBe(404);
    const res = await client(server.url).get(events());
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/login/);
  });

  it("takes a visitor's reply without JavaScript, refuses bad input, a past event and a private memorial", async () => {
    const id = await idOf("Funeral of Iris");
    const visitor = client(server.url);
    const bad = await reply(visitor, id, { email: "rita", partySize: "25", name: "Kept name" });
    expect(bad.status).toBe(400);
    const text = plain(bad.text);
    expect(text).toContain("Enter an email address like name@example.com");
    expect(text).toContain("Enter how many of you are coming, from 1 to 20");
    expect(text).toContain('value="Kept name"');
    expect(text).toContain('value="rita"');

    const ok = await reply(visitor, id, { partySize: "3" });
    expect(ok.status, ok.text).toBe(303);
    expect(ok.headers.get("Location")).toBe(`/memorials/${memorialId}#events`);
    // Nothing counts until the address confirms it through the link emailed to it, which nothing on GET changes.
    expect(plain((await owner.get(`${events()}/${id}`)).text)).toContain("0 replies, 0 people in all");
    const ritasLink = await replyLink("rita@example.com");
    expect(plain((await client(server.url).get(ritasLink)).text)).toContain("A reply waiting for you to confirm it");
    expect(plain((await owner.get(`${events()}/${id}`)).text)).toContain("0 replies, 0 people in all");
    expect((await client(server.url).get(ritasLink.replace(/sig=.{4}/, "sig=AAAA"))).status).toBe(404);
    expect((await formPost(client(server.url), ritasLink, { intent: "confirm" })).status).toBe(303);
    // Someone else giving the same address changes nothing: the change waits for Rita's own confirmation.
    const forged = await reply(client(server.url), id, { email: "RITA@example.com", name: "Your bank", partySize: "9", message: "You have won" });
    expect(forged.status).toBe(303);
    expect((await reply(visitor, id, { email: "sam@example.com", name: "Sam", partySize: "1" })).status).toBe(303);
    expect((await formPost(client(server.url), await replyLink("sam@example.com"), { intent: "confirm" })).status).toBe(303);
    const replies = plain((await owner.get(`${events()}/${id}`)).text);
    expect(replies).toContain("2 replies, 4 people in all");
    expect(replies).not.toContain("Your bank");

    expect((await formPost(owner, events(), fields({ title: "Vigil long ago", date: "2020-01-10" }))).status).toBe(303);
    const pastId = await idOf("Vigil long ago");
    const page = plain((await visitor.get(`/memorials/${memorialId}`)).text);
    const pastHeading = page.indexOf('id="past-events-heading"');
    expect(pastHeading).toBeGreaterThan(page.indexOf("Funeral of Iris"));
    expect(page.indexOf("Vigil long ago")).toBeGreaterThan(pastHeading);
    // No reply form for a past event.
    expect(page).not.toContain(`/events/${pastId}/rsvp`);
    expect(page).toContain(`/events/${id}/rsvp`);
    const past = await reply(visitor, pastId);
    expect(past.status).toBe(400);
    expect(plain(past.text)).toContain("This event has already taken place");

    const hidden = await owner.post("/api/memorials", { firstName: "Hidden", lastName: "Events", visibility: "private", isPublished: true });
    expect((await formPost(owner, events(hidden.json.id), fields({ title: "Private gathering" }))).status).toBe(303);
    const secret = await idOf("Private gathering", hidden.json.id);
    for (const who of [client(server.url), other]) {
      expect((await reply(who, secret, {}, hidden.json.id)).status).toBe(404);
      expect((await who.get(`/memorials/${hidden.json.id}/events/${secret}/rsvp`)).status).toBe(404);
    }
    // An event of the private memorial through the public one's address: not found either.
    expect((await reply(visitor, secret)).status).toBe(404);
    expect(plain((await owner.get(`${events(hidden.json.id)}/${secret}`)).text)).toContain("0 replies, 0 people in all");
  });

  it("emails everyone who replied, and refuses an empty update next to its field", async () => {
    const id = await idOf("Funeral of Iris");
    const empty = await formPost(owner, `${events()}/${id}`, { subject: "", body: "Hello" });
    expect(empty.status).toBe(400);
    expect(plain(empty.text)).toMatch(/id="mail-subject-error"[^>]*><li>Enter a subject/);
    const sent = await formPost(owner, `${events()}/${id}`, { subject: "Change of time", body: "Now at noon." });
    expect(sent.status, sent.text).toBe(303);
  });

  /** The link in the newest "confirm your reply" email to `to` (quoted-printable undone). */
  async function replyLink(to: string) {
    const mails = await mailsTo(server.dataDir, to, "Please confirm your reply");
    const found = /\/events\/reply\/([0-9a-f-]{36})\?sig=(?:3D)?([A-Za-z0-9_-]+)/.exec(mails.at(-1) ?? "");
    if (!found) throw new Error(`no reply link emailed to ${to}`);
    return `/events/reply/${found[1]}?sig=${found[2]}`;
  }

  it("puts the events in the calendar feed", async () => {
    const res = await client(server.url).get(`/memorials/${memorialId}/anniversaries.ics`);
    expect(res.status).toBe(200);
    const vevents = new ICAL.Component(ICAL.parse(res.text)).getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    const funeral = vevents.find((e) => e.summary === "Funeral of Iris")!;
    expect(funeral.startDate.toJSDate().toISOString()).toBe("2099-06-20T10:00:00.000Z");
    expect(funeral.uid).toMatch(/^event-[0-9a-f-]{36}@everlight\.uk$/);
    expect(vevents.some((e) => e.summary === "Vigil long ago")).toBe(true);
  });
});
