import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, registerMember, serverDatabases, startServer, type Client, type TestServer } from "./http";
import { invitationLink } from "./invitations";
import { formPost } from "./shop";

// The life timeline over real HTTP against the built server: the owner adds, edits and
// removes events with plain form posts (303); bad input is a 400 with the message next to the field and what
// was typed kept; another member gets 404 and a visitor is sent to sign in; the public page shows the events
// in date order (and a visitor who had it cached sees the change at once); a private memorial's timeline is not
// shown to a visitor; the copy's memorial.json holds the events (and the memorial's gatherings, decision 026).

/** The page's text without the markers React puts between adjacent pieces of text. */
const plain = (html: string) => html.replace(/<!-- -->/g, "");

describe.each(serverDatabases())("life timeline over HTTP on %s", (database) => {
  let server: TestServer;
  let owner: Client;
  let other: Client;
  let memorialId: string;
  const timeline = () => `/memorials/${memorialId}/timeline`;
  const add = (who: Client, fields: Record<string, string>, path = timeline()) =>
    formPost(who, path, { intent: "add", kind: "other", year: "", month: "", day: "", title: "", description: "", ...fields });

  beforeAll(async () => {
    server = await startServer({}, { database });
    owner = (await registerMember(server.url, { firstName: "Olive", lastName: "Owner" })).api;
    other = (await registerMember(server.url)).api;
    const created = await owner.post("/api/memorials", { firstName: "Iris", lastName: "Timeline", visibility: "public", isPublished: true });
    expect(created.status, created.text).toBe(201);
    memorialId = created.json.id;
  }, 120_000);
  afterAll(async () => server?.stop());

  it("adds, edits and removes events with plain forms, shown on the public page in date order", async () => {
    const visitor = client(server.url);
    // The visitor's first look puts the page in the anonymous cache; the events must still show afterwards.
    expect(plain((await visitor.get(`/memorials/${memorialId}`)).text)).not.toContain("Life timeline");

    const wedding = await add(owner, { kind: "marriage", year: "1961", month: "5", day: "20", title: "Married Frank in Whitby" });
    expect(wedding.status, wedding.text).toBe(303);
    expect(wedding.headers.get("Location")).toMatch(new RegExp(`^/memorials/${memorialId}/timeline#event-`));
    expect((await add(owner, { kind: "school", year: "1950", title: "Started at the mill school", description: "Her first\nday." })).status).toBe(303);

    const page = plain((await visitor.get(`/memorials/${memorialId}`)).text);
    expect(page).toContain('<h2 id="timeline-heading"');
    const school = page.indexOf('<time dateTime="1950">1950</time>');
    const married = page.indexOf('<time dateTime="1961-05-20">May 20, 1961</time>');
    expect(school).toBeGreaterThan(-1);
    expect(married).toBeGreaterThan(school);
    expect(page).toContain("Married Frank in Whitby");
    expect(page).toContain("Marriage or partnership");

    // Edit: the edit link opens the form prefilled; saving moves the event.
    const list = plain((await owner.get(timeline())).text);
    const id = list
      .split('id="event-')
      .find((item) => item.includes("Married Frank in Whitby"))
      ?.slice(0, 36);
    expect(id).toBeTruthy();
    const editPage = plain((await owner.get(`${timeline()}?edit=${id}`)).text);
    expect(editPage).toContain("Edit an event");
    expect(editPage).toContain('value="Married Frank in Whitby"');
    const edited = await formPost(owner, timeline(), {
      intent: "edit",
      eventId: id!,
      kind: "marriage",
      year: "1949",
      month: "",
      day: "",
      title: "Married Frank",
      description: "",
    });
    expect(edited.status, edited.text).toBe(303);
    const after = plain((await visitor.get(`/memorials/${memorialId}`)).text);
    expect(after.indexOf("Married Frank")).toBeLessThan(after.indexOf("Started at the mill school"));
    expect(after).not.toContain("Whitby");

    const removed = await formPost(owner, timeline(), { intent: "remove", eventId: id! });
    expect(removed.status).toBe(303);
    expect(plain((await visitor.get(`/memorials/${memorialId}`)).text)).not.toContain("Married Frank");
    // Removing it again is not an error page.
    const again = await formPost(owner, timeline(), { intent: "remove", eventId: id! });
    expect(again.status).toBe(303);
  });

  it("answers bad input with 400, the message next to the field and the input kept; never a 500", async () => {
    const bad = await add(owner, { year: "19x9", day: "12", title: "Kept title <b>" });
    expect(bad.status).toBe(400);
    const text = plain(bad.text);
    expect(text).toMatch(/id="timeline-year-error"[^>]*><li>Enter a year from 1000 to \d{4}<\/li>/);
    expect(text).toContain('value="19x9"');
    expect(text).toContain('value="Kept title &lt;b&gt;"');
    expect(text).toContain('aria-invalid="true"');
    const noTitle = await add(owner, { year: "1950", title: "" });
    expect(noTitle.status).toBe(400);
    expect(plain(noTitle.text)).toContain("Enter a title for this event");
    const dayOnly = await add(owner, { year: "1950", day: "3", title: "A day" });
    expect(dayOnly.status).toBe(400);
    expect(plain(dayOnly.text)).toContain("Choose the month too, or leave the day empty");
    const photo = await add(owner, { year: "1950", title: "A photo", photoId: "00000000-0000-4000-8000-000000000000" });
    expect(photo.status).toBe(400);
    expect(plain(photo.text)).toContain("Choose one of this memorial&#x27;s photos, or no photo");
    const odd: Record<string, string>[] = [
      { intent: "nonsense" },
      { intent: "add", year: "1950", title: "x".repeat(5000), kind: "born" },
      { intent: "edit", eventId: "nope", year: "1950", title: "t", kind: "born" },
    ];
    for (const body of odd) {
      const res = await formPost(owner, timeline(), body);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
    }
    for (const [type, body] of [
      ["application/json", '{"intent":"add","year":1950}'],
      ["multipart/form-data; boundary=x", "--x\r\nbroken"],
      ["text/plain", "intent=add"],
    ]) {
      const res = await owner.request("POST", timeline(), { body, headers: { "Content-Type": type } });
      expect(res.status, type).toBeGreaterThanOrEqual(400);
      expect(res.status, type).toBeLessThan(500);
    }
    const nul = await add(owner, { year: "1950", title: "a\u0000b" });
    expect(nul.status).toBe(400);
  });

  it("is 404 to another member and sends a visitor to sign in", async () => {
    expect((await other.get(timeline())).status).toBe(404);
    expect((await add(other, { year: "1950", title: "Not mine" })).status).toBe(404);
    const visitor = client(server.url);
    const res = await visitor.get(timeline());
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/login/);
    expect(plain((await owner.get(`/memorials/${memorialId}`)).text)).not.toContain("Not mine");
  });

  it("lets an editor invited by the owner change the timeline, and the change is in the memorial's history", async () => {
    const editor = (await registerMember(server.url, { firstName: "Eddie", lastName: "Editor" })).api;
    const editorEmail = (await editor.get("/api/auth/user")).json.email;
    const sent = await formPost(owner, `/memorials/${memorialId}/managers`, { intent: "invite", email: editorEmail, role: "editor" });
    expect(sent.status, sent.text).toBe(303);
    const accepted = await formPost(editor, await invitationLink(server.dataDir, editorEmail), { answer: "accept" });
    expect(accepted.status).toBe(303);
    expect((await add(editor, { kind: "move", year: "1980", title: "Moved to the coast" })).status).toBe(303);
    const history = plain((await owner.get(`/memorials/${memorialId}/managers`)).text);
    expect(history).toContain("Edited a memorial as a co-manager");
    expect(history).toContain("As editor: added the timeline event &quot;Moved to the coast&quot;");
  });

  it("keeps a private memorial's timeline from a visitor and another member", async () => {
    const created = await owner.post("/api/memorials", { firstName: "Hidden", lastName: "Life", visibility: "private", isPublished: true });
    const id = created.json.id;
    expect((await add(owner, { year: "1970", title: "A private moment" }, `/memorials/${id}/timeline`)).status).toBe(303);
    expect(plain((await owner.get(`/memorials/${id}`)).text)).toContain("A private moment");
    for (const who of [client(server.url), other]) {
      const res = await who.get(`/memorials/${id}`);
      expect(res.status).toBe(403);
      expect(res.text).not.toContain("A private moment");
    }
  });

  it("puts the events in the copy's memorial.json, and the memorial's gatherings beside them", async () => {
    expect((await add(owner, { kind: "work", year: "1975", month: "9", title: "Opened the tea room" })).status).toBe(303);
    const gathering = await formPost(owner, `/memorials/${memorialId}/events`, {
      intent: "add",
      kind: "celebration",
      title: "Tea for Iris",
      date: "2099-06-20",
      startTime: "11:00",
      endTime: "12:30",
      timeZone: "Europe/London",
      placeName: "The tea room",
      address: "",
      livestreamUrl: "",
      note: "",
    });
    expect(gathering.status, gathering.text).toBe(303);
    const page = `/memorials/${memorialId}/export`;
    const asked = await formPost(owner, page, {});
    expect([302, 303]).toContain(asked.status);
    const deadline = Date.now() + 30_000;
    let text = "";
    while (Date.now() < deadline && !text.includes("Your copy is ready")) {
      text = (await owner.get(page)).text;
      if (!text.includes("Your copy is ready")) await new Promise((r) => setTimeout(r, 250));
    }
    const res = await fetch(`${server.url}${page}/download`, { headers: { Cookie: owner.cookie, "X-Forwarded-For": owner.ip } });
    expect(res.status).toBe(200);
    const zip = Buffer.from(await res.arrayBuffer());
    for (const s of [
      '"timeline": [',
      '"title": "Opened the tea room"',
      '"date": "1975-09"',
      '"precision": "month"',
      '<time datetime="1975-09">September 1975</time>',
      '"events": [',
      '"title": "Tea for Iris"',
      '"when": "Saturday, June 20, 2099, 11:00–12:30 BST"',
      '<h2 id="events-heading">Events</h2>',
    ])
      expect(zip.includes(Buffer.from(s)), s).toBe(true);
  });
});
