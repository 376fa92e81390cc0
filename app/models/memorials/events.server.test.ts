import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { ownerEditorStrangerAdmin } from "../../../test/memorial-people";
import { parseEventValues, parseRsvpForm, type EventFormValues, type EventInput, type RsvpInput } from "~/utils/events";
import { readMemorialCalendar } from "./calendar.server";
import {
  addEvent,
  confirmReply,
  emailAttendees,
  eventWithAnswers,
  listEvents,
  removeEvent,
  replyByLink,
  rsvpToEvent,
  stopReplyUpdates,
  updateEvent,
} from "./events.server";
import { composeMail } from "../mail/compose.server";
import { type OutboxRow } from "../mail/outbox.server";
import { publicMemorialVersion } from "./records.server";
import { readPageVersions } from "../page-version.server";

// A memorial's events on PGlite and PostgreSQL: the owner and co-managers add, edit and
// delete events, a stranger and an administrator are refused; a visitor answers once per address (a second
// answer replaces the first), is emailed a copy through the outbox, and is refused for a past event, a memorial
// they may not see or bad input; the family sees the answers with totals and emails everyone who answered;
// events are in the calendar feed at the right instants, across a change of the clocks, with stable UIDs.

let n = 0;
const form = (over: Partial<EventFormValues> = {}): EventFormValues => ({
  kind: "funeral",
  title: "Funeral of Ada Line",
  date: "2099-06-20",
  startTime: "11:00",
  endTime: "12:30",
  timeZone: "Europe/London",
  placeName: "St Mary's Church",
  address: "1 Church Lane, York YO1 7HH",
  livestreamUrl: "https://example.com/live/ada",
  note: "Bright colours, please. Donations to the hospice in lieu of flowers.",
  ...over,
});
const input = (over: Partial<EventFormValues> = {}): EventInput => {
  const parsed = parseEventValues(form(over));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.input;
};
const rsvp = (over: Partial<RsvpInput> = {}): RsvpInput => ({ name: "Rita Reply", email: `r${n++}@example.com`, partySize: 2, message: null, ...over });

describe("the event form's rules", () => {
  it("works out the instant in the event's zone, on both sides of a change of the clocks", () => {
    // London changes to summer time at 01:00 UTC on 28 March 2027.
    expect(input({ date: "2027-03-27", startTime: "10:00", endTime: "" }).startsAt.toISOString()).toBe("2027-03-27T10:00:00.000Z");
    expect(input({ date: "2027-03-28", startTime: "10:00", endTime: "11:15" })).toMatchObject({
      startsAt: new Date("2027-03-28T09:00:00Z"),
      endsAt: new Date("2027-03-28T10:15:00Z"),
    });
    expect(input({ date: "2027-01-10", startTime: "09:30", timeZone: "America/New_York" }).startsAt.toISOString()).toBe("2027-01-10T14:30:00.000Z");
    // The hour that happens twice (31 October 2027, 01:30) is taken the first time, in summer time.
    expect(input({ date: "2027-10-31", startTime: "01:30", endTime: "" }).startsAt.toISOString()).toBe("2027-10-31T00:30:00.000Z");
  });

  it("refuses bad dates and times, an unknown zone, a time the clocks skip and a livestream that is not https, each next to its field", () => {
    const errors = (over: Partial<EventFormValues>) => {
      const parsed = parseEventValues(form(over));
      return parsed.ok ? null : parsed.errors;
    };
    expect(errors({ date: "2027-02-30" })).toEqual({ date: ["Enter a real date, for example 2027-03-28"] });
    expect(errors({ date: "" })).toEqual({ date: ["Enter the date"] });
    expect(errors({ startTime: "25:00" })).toEqual({ startTime: ["Enter a time like 14:30"] });
    expect(errors({ endTime: "10:00" })).toEqual({ endTime: ["The end time must be after the start time, on the same day"] });
    expect(errors({ timeZone: "Mars/Olympus" })).toEqual({ timeZone: ["Choose a time zone from the list"] });
    expect(errors({ date: "2027-03-28", startTime: "01:30", endTime: "" })?.startTime?.[0]).toMatch(/does not exist/);
    expect(errors({ livestreamUrl: "http://example.com/live" })).toEqual({
      livestreamUrl: ["Enter a full https:// link, for example https://youtube.com/live/…"],
    });
    expect(errors({ livestreamUrl: "javascript:alert(1)" })?.livestreamUrl).toHaveLength(1);
    expect(errors({ title: "", placeName: "" })).toEqual({
      title: ["Enter a title, for example “Funeral of Ada Line”"],
      placeName: ["Enter the place, for example “St Mary’s Church”"],
    });
  });

  it("reads an answer: a party of 1 to 20, an email lower-cased, a message of at most 500 characters", () => {
    const fd = (v: Record<string, string>) => {
      const f = new FormData();
      for (const [k, val] of Object.entries(v)) f.set(k, val);
      return f;
    };
    expect(parseRsvpForm(fd({ name: " Rita ", email: "Rita@Example.COM", partySize: "3", message: "" }))).toMatchObject({
      ok: true,
      input: { name: "Rita", email: "rita@example.com", partySize: 3, message: null },
    });
    const bad = parseRsvpForm(fd({ name: "", email: "rita", partySize: "21", message: "x".repeat(501) }));
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(Object.keys(bad.errors).sort()).toEqual(["email", "message", "name", "partySize"]);
    expect(bad.values.email).toBe("rita");
    expect(parseRsvpForm(fd({ name: "R", email: "r@example.com", partySize: "0" })).ok).toBe(false);
  });
});

describe.each(databaseKinds)("memorial events on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const person = async (isAdmin = false) => {
    const u = await app.db.prisma.user.create({
      data: { email: `ev${Date.now().toString(36)}${n++}@example.com`, firstName: "Evan", lastName: `E${n}`, password: "x", isAdmin },
    });
    return { id: u.id, email: u.email, isAdmin, ip: "127.0.0.1" };
  };
  const memorialOf = (userId: string, visibility = "public") =>
    app.db.prisma.memorial.create({ data: { userId, title: "Ada Line", firstName: "Ada", lastName: "Line", visibility, isPublished: true } });
  const outboxTo = (to: string) => app.db.prisma.mailOutbox.findMany({ where: { to }, orderBy: { createdAt: "asc" } });

  it.skipIf(skip)("lets the owner add, edit and delete events in time order, moving the page's version each time", async () => {
    const owner = await person();
    const memorial = await memorialOf(owner.id);
    const v0 = await publicMemorialVersion(memorial.id);
    const funeral = await addEvent(memorial.id, owner, input());
    expect(funeral.ok).toBe(true);
    if (!funeral.ok) throw new Error("not added");
    const v1 = await publicMemorialVersion(memorial.id);
    expect(v1!.getTime()).toBeGreaterThan(v0!.getTime());
    await addEvent(memorial.id, owner, input({ kind: "scattering", title: "Scattering at Whitby", date: "2099-01-05" }));
    expect((await listEvents(memorial.id)).map((e) => e.title)).toEqual(["Scattering at Whitby", "Funeral of Ada Line"]);

    expect(await updateEvent(memorial.id, funeral.id, owner, input({ title: "Funeral of Ada", date: "2098-12-01" }))).toEqual({ ok: true, id: funeral.id });
    const v2 = await publicMemorialVersion(memorial.id);
    expect(v2!.getTime()).toBeGreaterThan(v1!.getTime());
    expect((await listEvents(memorial.id)).map((e) => e.title)).toEqual(["Funeral of Ada", "Scattering at Whitby"]);
    expect(await removeEvent(memorial.id, funeral.id, owner)).toEqual({ ok: true, id: funeral.id });
    expect((await publicMemorialVersion(memorial.id))!.getTime()).toBeGreaterThan(v2!.getTime());
    expect(await removeEvent(memorial.id, funeral.id, owner)).toEqual({ ok: false, reason: "gone" });
    expect(await app.db.prisma.auditLog.count({ where: { targetId: memorial.id } })).toBe(0);
  });

  it.skipIf(skip)("lets an editor manage events, audited; refuses a stranger and an administrator everything", async () => {
    const { editor, stranger, admin, memorial } = await ownerEditorStrangerAdmin(app, person, memorialOf);
    const added = await addEvent(memorial.id, editor, input({ title: "Service" }));
    if (!added.ok) throw new Error("not added");
    const answered = await rsvpToEvent(memorial.id, added.id, null, rsvp(), "10.0.0.1");
    if (!answered.ok) throw new Error("not answered");
    await confirmReply(answered.rsvpId);
    for (const who of [stranger, admin]) {
      expect(await addEvent(memorial.id, who, input())).toEqual({ ok: false, reason: "not-found" });
      expect(await updateEvent(memorial.id, added.id, who, input())).toEqual({ ok: false, reason: "not-found" });
      expect(await removeEvent(memorial.id, added.id, who)).toEqual({ ok: false, reason: "not-found" });
      expect(await eventWithAnswers(memorial.id, added.id, who)).toBeNull();
      expect(await emailAttendees(memorial.id, added.id, who, { subject: "Hi", body: "Spam" })).toEqual({ ok: false, reason: "not-found" });
    }
    expect((await eventWithAnswers(memorial.id, added.id, editor))?.totals).toEqual({ replies: 1, people: 2 });
    expect(await removeEvent(memorial.id, added.id, editor)).toEqual({ ok: true, id: added.id });
    const audit = await app.db.prisma.auditLog.findMany({ where: { targetId: memorial.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.summary)).toEqual(['As editor: added the event "Service"', 'As editor: deleted the event "Service"']);
    expect(await app.db.prisma.eventRsvp.count({ where: { eventId: added.id } })).toBe(0);
  });

  it.skipIf(skip)("counts an answer once its address confirms it, and never lets someone who only knows the address change it", async () => {
    const owner = await person();
    const memorial = await memorialOf(owner.id);
    const added = await addEvent(memorial.id, owner, input());
    if (!added.ok) throw new Error("not added");
    const rita = rsvp({ email: `rita${n++}@example.com` });
    const first = await rsvpToEvent(memorial.id, added.id, null, rita, "10.0.0.2");
    if (!first.ok) throw new Error("not answered");
    expect(first.status).toBe("check-email");
    expect((await eventWithAnswers(memorial.id, added.id, owner))?.totals).toEqual({ replies: 0, people: 0 });

    // The link goes to the address, and says nothing the person who typed it wrote.
    const [link] = await outboxTo(rita.email);
    const composed = await composeMail({ ...link, data: link.data as Record<string, unknown>, attempts: 1 } as OutboxRow);
    expect(composed).toMatchObject({
      to: rita.email,
      kind: "event-rsvp-confirm",
      props: { change: false, title: "Funeral of Ada Line", confirmUrl: expect.stringMatching(new RegExp(`/events/reply/${first.rsvpId}\\?sig=.+`)) },
    });
    expect(JSON.stringify(composed)).not.toContain("Rita Reply");

    expect(await confirmReply(first.rsvpId)).toBe(true);
    expect(await confirmReply(first.rsvpId)).toBe(false); // nothing left to confirm
    expect((await eventWithAnswers(memorial.id, added.id, owner))?.totals).toEqual({ replies: 1, people: 2 });
    expect((await outboxTo(rita.email)).map((m) => m.kind)).toEqual(["event-rsvp-confirm", "event-rsvp"]);

    // Someone else answers with Rita's address: her reply stays as it is; the change waits for her, and the
    // email asking her says nothing of its words.
    const forged = await rsvpToEvent(
      memorial.id,
      added.id,
      null,
      { ...rita, name: "Your bank", partySize: 9, message: "You have won! Click here" },
      "10.9.9.9",
    );
    expect(forged).toMatchObject({ ok: true, status: "check-email", rsvpId: first.rsvpId });
    const answers = await eventWithAnswers(memorial.id, added.id, owner);
    expect(answers?.rsvps.map((r) => [r.name, r.partySize, r.message])).toEqual([["Rita Reply", 2, null]]);
    // (The link still waiting to be sent is the one: it is composed when sent, and now asks about the change.)
    const ask = (await outboxTo(rita.email)).find((m) => m.kind === "event-rsvp-confirm")!;
    const asking = await composeMail({ ...ask, data: ask.data as Record<string, unknown>, attempts: 1 } as OutboxRow);
    expect(asking).toMatchObject({ kind: "event-rsvp-confirm", props: { change: true } });
    expect(JSON.stringify(asking)).not.toMatch(/Your bank|You have won/);
    const shown = await replyByLink(first.rsvpId);
    expect(shown).toMatchObject({ current: { name: "Rita Reply", partySize: 2 }, waiting: { name: "Your bank", partySize: 9 } });

    // A member answering with their own account's address counts at once, and changes it the same way.
    const member = await person();
    const mine = await rsvpToEvent(
      memorial.id,
      added.id,
      { id: member.id, isAdmin: false },
      rsvp({ email: member.email, name: "Mo", partySize: 1 }),
      "10.0.0.3",
    );
    expect(mine).toMatchObject({ ok: true, status: "confirmed" });
    await rsvpToEvent(memorial.id, added.id, { id: member.id, isAdmin: false }, rsvp({ email: member.email, name: "Mo", partySize: 3 }), "10.0.0.3");
    // A member giving someone else's address is anyone else.
    const theirs = await rsvpToEvent(memorial.id, added.id, { id: member.id, isAdmin: false }, rsvp({ email: `victim${n++}@example.com` }), "10.0.0.3");
    expect(theirs).toMatchObject({ ok: true, status: "check-email" });
    expect((await eventWithAnswers(memorial.id, added.id, owner))?.totals).toEqual({ replies: 2, people: 5 });

    // The family writes to confirmed answers only, saying who writes and how to stop.
    const mailed = await emailAttendees(memorial.id, added.id, owner, { subject: "Change of time", body: "Now at noon." });
    expect(mailed).toEqual({ ok: true, sent: 2 });
    const updates = await app.db.prisma.mailOutbox.findMany({ where: { kind: "event-update", data: { path: ["eventId"], equals: added.id } } });
    expect(updates.map((u) => u.to).sort()).toEqual([rita.email, member.email].sort());
    const toRita = updates.find((u) => u.to === rita.email)!;
    const update = await composeMail({ ...toRita, data: toRita.data as Record<string, unknown>, attempts: 1 } as OutboxRow);
    expect(update).toMatchObject({
      kind: "event-update",
      props: {
        subject: "Change of time",
        body: "Now at noon.",
        from: expect.stringMatching(/^Evan E\d+$/),
        manageUrl: expect.stringContaining(`/events/reply/${first.rsvpId}?sig=`),
      },
    });
    // Rita stops them: the next update is not sent to her, and the one waiting is skipped.
    expect(await stopReplyUpdates(first.rsvpId)).toBe(true);
    expect(await composeMail({ ...toRita, data: toRita.data as Record<string, unknown>, attempts: 1 } as OutboxRow)).toMatchObject({
      skip: expect.any(String),
    });
    expect(await emailAttendees(memorial.id, added.id, owner, { subject: "Parking", body: "Park at the church." })).toEqual({ ok: true, sent: 1 });
    // At most three updates an event a day, whoever of the family sends them.
    expect(await emailAttendees(memorial.id, added.id, owner, { subject: "Flowers", body: "No flowers, please." })).toEqual({ ok: true, sent: 1 });
    expect(await emailAttendees(memorial.id, added.id, owner, { subject: "Again", body: "One more." })).toMatchObject({ ok: false, reason: "rate-limited" });

    // Nobody has confirmed an answer to the other event: nothing to send.
    const quiet = await addEvent(memorial.id, owner, input({ title: "Quiet" }));
    if (!quiet.ok) throw new Error("not added");
    await rsvpToEvent(memorial.id, quiet.id, null, rsvp(), "10.0.0.4");
    expect(await emailAttendees(memorial.id, quiet.id, owner, { subject: "Hi", body: "Hello" })).toEqual({ ok: false, reason: "nobody" });
  });

  it.skipIf(skip)("refuses an answer to a past event, to a memorial the person may not see, and past the limit per address", async () => {
    const owner = await person();
    const memorial = await memorialOf(owner.id);
    const past = await addEvent(memorial.id, owner, input({ date: "2020-05-01" }));
    const future = await addEvent(memorial.id, owner, input());
    if (!past.ok || !future.ok) throw new Error("not added");
    expect(await rsvpToEvent(memorial.id, past.id, null, rsvp(), "10.0.0.4")).toEqual({ ok: false, reason: "past" });
    // Without an end time an event is over two hours after it starts.
    const noEnd = await addEvent(memorial.id, owner, input({ date: "2027-06-01", startTime: "10:00", endTime: "" }));
    if (!noEnd.ok) throw new Error("not added");
    expect(await rsvpToEvent(memorial.id, noEnd.id, null, rsvp(), "10.0.0.4", new Date("2027-06-01T10:30:00Z"))).toMatchObject({ ok: true });
    expect(await rsvpToEvent(memorial.id, noEnd.id, null, rsvp(), "10.0.0.4", new Date("2027-06-01T11:00:00Z"))).toEqual({ ok: false, reason: "past" });

    const hidden = await memorialOf(owner.id, "private");
    const secret = await addEvent(hidden.id, owner, input());
    if (!secret.ok) throw new Error("not added");
    const stranger = await person();
    expect(await rsvpToEvent(hidden.id, secret.id, null, rsvp(), "10.0.0.5")).toEqual({ ok: false, reason: "not-found" });
    expect(await rsvpToEvent(hidden.id, secret.id, { id: stranger.id, isAdmin: false }, rsvp(), "10.0.0.5")).toEqual({ ok: false, reason: "not-found" });
    // An event of another memorial, reached through this one's address: not found.
    expect(await rsvpToEvent(memorial.id, secret.id, null, rsvp(), "10.0.0.5")).toEqual({ ok: false, reason: "not-found" });
    expect(await app.db.prisma.eventRsvp.count({ where: { eventId: secret.id } })).toBe(0);

    const flood = `flood${n++}@example.com`;
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await rsvpToEvent(memorial.id, future.id, null, rsvp({ email: flood }), `10.1.${n}.${i}`));
    expect(results.slice(0, 5).every((r) => r.ok)).toBe(true);
    expect(results[5]).toMatchObject({ ok: false, reason: "rate-limited" });
    // One link waits for an address at a time: the answers before it was sent joined it.
    expect(await outboxTo(flood)).toHaveLength(1);
  });

  it.skipIf(skip)("moves the anonymous page cache's version when an event becomes past, though no row changes", async () => {
    const owner = await person();
    const memorial = await memorialOf(owner.id);
    const soon = new Date(Date.now() + 1500);
    // Written directly: the form takes minutes, and this event must end a moment from now.
    await app.db.prisma.memorialEvent.create({
      data: {
        memorialId: memorial.id,
        kind: "service",
        title: "Ends in a moment",
        startDate: new Date("2026-01-01"),
        startTime: "10:00",
        timeZone: "UTC",
        startsAt: new Date(soon.getTime() - 3600_000),
        endsAt: soon,
        placeName: "Chapel",
      },
    });
    const before = (await readPageVersions(memorial.id)).memorials.get(memorial.id);
    expect(before).toBe((await publicMemorialVersion(memorial.id))!.getTime());
    expect((await readPageVersions(memorial.id)).memorials.get(memorial.id)).toBe(before);
    await new Promise((r) => setTimeout(r, soon.getTime() - Date.now() + 200));
    const after = (await readPageVersions(memorial.id)).memorials.get(memorial.id);
    expect(after).toBe(soon.getTime());
    expect(after!).toBeGreaterThan(before!);
  });

  it.skipIf(skip)("puts the events in the calendar feed at the right instants across a change of the clocks, with stable UIDs", async () => {
    const owner = await person();
    const memorial = await app.db.prisma.memorial.create({
      data: {
        userId: owner.id,
        title: "Ada Line",
        firstName: "Ada",
        lastName: "Line",
        visibility: "public",
        isPublished: true,
        dateOfBirth: new Date("1930-04-02"),
      },
    });
    const before = await addEvent(memorial.id, owner, input({ title: "Vigil", date: "2027-03-27", startTime: "19:00", endTime: "20:00" }));
    const after = await addEvent(memorial.id, owner, input({ title: "Funeral", date: "2027-03-28", startTime: "11:00", endTime: "" }));
    if (!before.ok || !after.ok) throw new Error("not added");
    const read = async () => {
      const calendar = await readMemorialCalendar(memorial.id, null);
      const vcal = new ICAL.Component(ICAL.parse(calendar!.ics));
      return vcal.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    };
    const events = await read();
    const byTitle = (title: string) => events.find((e) => e.summary === title)!;
    expect(byTitle("Vigil").startDate.toJSDate().toISOString()).toBe("2027-03-27T19:00:00.000Z");
    expect(byTitle("Vigil").endDate.toJSDate().toISOString()).toBe("2027-03-27T20:00:00.000Z");
    // The same 11:00 on the clock is an hour earlier in UTC once the clocks have gone forward; two hours long.
    expect(byTitle("Funeral").startDate.toJSDate().toISOString()).toBe("2027-03-28T10:00:00.000Z");
    expect(byTitle("Funeral").endDate.toJSDate().toISOString()).toBe("2027-03-28T12:00:00.000Z");
    expect(byTitle("Funeral").location).toBe("St Mary's Church, 1 Church Lane, York YO1 7HH");
    expect(byTitle("Funeral").description).toContain("Livestream: https://example.com/live/ada");
    expect(byTitle("Funeral").uid).toBe(`event-${after.id}@everlight.uk`);
    // The anniversaries are still there.
    expect(events.some((e) => e.summary.includes("birthday") || e.summary.includes("Birthday") || e.summary.includes("born"))).toBe(true);
    await updateEvent(memorial.id, after.id, owner, input({ title: "Funeral, moved", date: "2027-03-28", startTime: "12:00", endTime: "" }));
    const moved = (await read()).find((e) => e.uid === `event-${after.id}@everlight.uk`)!;
    expect(moved.summary).toBe("Funeral, moved");
    expect(moved.startDate.toJSDate().toISOString()).toBe("2027-03-28T11:00:00.000Z");
  });
});
