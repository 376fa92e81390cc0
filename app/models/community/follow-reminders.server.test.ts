import { beforeEach, describe, expect, it } from "vitest";
import { deliverDueMail } from "../../../server/mail-worker";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import type { MailTransport, OutgoingMail } from "~/services/mail.server";
import { isRememberedOn, monthDaysRememberedOn, reminderDayAt } from "~/utils/anniversaries";
import { anniversaryReminderFacts, deleteOldReminderRecords, remindersDue, runAnniversaryReminders } from "./anniversary-reminders.server";
import { confirmFollow, followAsMember, followAsVisitor, stopRemindersByLink, unfollowByLink } from "./follows.server";
import { followConfirmTokenFor } from "~/services/signed-links.server";
import { deleteMemorial } from "../memorials/deletion.server";

// Anniversary reminders (decision 025) on PGlite and PostgreSQL: a follower who asked
// for them gets one email a week before and one on the day of a birthday or of the anniversary of a
// passing, once however many instances run the job at once or how often; a day missed while no instance
// ran is caught up once; a follower who said no, or may not see the memorial, gets nothing.

let n = 0;
const at = (iso: string) => new Date(iso);

function capture() {
  const sent: OutgoingMail[] = [];
  const transport: MailTransport = { name: "outbox", send: async (m) => void sent.push(m), close() {} };
  return { sent, transport };
}

describe("which reminders a day's run queues", () => {
  it("starts a day at 07:00 UTC", () => {
    expect(reminderDayAt(at("2031-06-08T06:59:00Z"))).toBe("2031-06-07");
    expect(reminderDayAt(at("2031-06-08T07:00:00Z"))).toBe("2031-06-08");
  });

  it("queues today's and next week's, nothing for a day covered, and catches up missed days' week-before reminders only", () => {
    expect(remindersDue("2031-06-08", "2031-06-07")).toEqual([
      { occursOn: "2031-06-08", occasion: "on-the-day" },
      { occursOn: "2031-06-15", occasion: "week-before" },
    ]);
    expect(remindersDue("2031-06-08", "2031-06-08")).toEqual([]);
    // Two days missed: their "on the day" reminders would come late and are not sent; their "week before" ones are.
    expect(remindersDue("2031-06-08", "2031-06-05")).toEqual([
      { occursOn: "2031-06-08", occasion: "on-the-day" },
      { occursOn: "2031-06-13", occasion: "week-before" },
      { occursOn: "2031-06-14", occasion: "week-before" },
      { occursOn: "2031-06-15", occasion: "week-before" },
    ]);
    // A month down: a week before anything still ahead, never for today or a day gone.
    const long = remindersDue("2031-06-08", "2031-05-01");
    expect(long.filter((d) => d.occasion === "week-before").map((d) => d.occursOn)).toEqual([
      "2031-06-09",
      "2031-06-10",
      "2031-06-11",
      "2031-06-12",
      "2031-06-13",
      "2031-06-14",
      "2031-06-15",
    ]);
  });

  it("remembers a 29 February on 28 February in a common year, and on 29 February in a leap year", () => {
    expect(monthDaysRememberedOn("2031-02-28")).toEqual(["02-28", "02-29"]);
    expect(monthDaysRememberedOn("2032-02-28")).toEqual(["02-28"]);
    expect(isRememberedOn("1944-02-29", "2031-02-28")).toBe(true);
    expect(isRememberedOn("1944-02-29", "2032-02-28")).toBe(false);
    expect(isRememberedOn("1944-02-29", "2032-02-29")).toBe(true);
    expect(isRememberedOn("1944-02-29", "2031-03-01")).toBe(false);
    expect(isRememberedOn("2031-06-08", "2031-06-08")).toBe(false);
  });
});

describe.each(databaseKinds)("anniversary reminders on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  // Each test starts as if the job had never run (the first run covers its own day only).
  beforeEach(async () => {
    if (!skip) await app.db.prisma.dailyJobDay.deleteMany({});
  });
  const person = async () => {
    const u = await app.db.prisma.user.create({
      data: { email: `ar${Date.now().toString(36)}${n++}@example.com`, firstName: "Fern", lastName: `F${n}`, password: "x" },
    });
    return { id: u.id, email: u.email, isAdmin: false, ip: "127.0.0.1", firstName: u.firstName };
  };
  const memorialOf = (userId: string, name: [string, string], dates: { born?: string; died?: string }, visibility = "public") =>
    app.db.prisma.memorial.create({
      data: {
        userId,
        title: name.join(" "),
        firstName: name[0],
        lastName: name[1],
        visibility,
        isPublished: true,
        dateOfBirth: dates.born ? new Date(`${dates.born}T00:00:00Z`) : null,
        dateOfPassing: dates.died ? new Date(`${dates.died}T00:00:00Z`) : null,
      },
    });
  const visitorFollows = async (memorialId: string, reminders: boolean, confirm = true) => {
    const email = `guest${n++}@example.com`;
    const asked = await followAsVisitor(memorialId, { email, reminders }, `10.9.${n % 250}.${n++ % 250}`);
    if (!asked.ok || !asked.followId) throw new Error("not asked");
    if (confirm) await confirmFollow(followConfirmTokenFor(asked.followId));
    return { email, followId: asked.followId };
  };
  const reminders = (to: string) =>
    app.db.prisma.mailOutbox.findMany({ where: { to, kind: "anniversary-reminder" }, orderBy: { createdAt: "asc" }, select: { data: true } });
  const twoInstances = (now: Date) => Promise.all([runAnniversaryReminders(now), runAnniversaryReminders(now)]);

  it.skipIf(skip)(
    "reminds a week before and on the day, once across two instances and a re-run, with the memorial's links and one-click unsubscribe",
    async () => {
      const owner = await person();
      const fan = await person();
      const memorial = await memorialOf(owner.id, ["Iris", "Vale"], { born: "1950-06-15", died: "2020-03-03" });
      expect(await followAsMember(memorial.id, fan, { reminders: true, showName: false })).toEqual({ ok: true });
      const guest = await visitorFollows(memorial.id, true);

      const weekBefore = await twoInstances(at("2031-06-08T08:00:00Z"));
      expect(weekBefore.filter((r) => r.ran)).toHaveLength(1);
      expect(await reminders(fan.email)).toEqual([{ data: expect.objectContaining({ kind: "birthday", occursOn: "2031-06-15", occasion: "week-before" }) }]);
      expect(await reminders(guest.email)).toHaveLength(1);
      // The hourly check later that day: nothing more.
      expect(await runAnniversaryReminders(at("2031-06-08T15:00:00Z"))).toEqual({ ran: false });

      const { sent, transport } = capture();
      await deliverDueMail(transport);
      const [toFan] = sent.filter((m) => m.to === fan.email);
      expect(toFan.subject).toBe("Remembering Iris Vale: their birthday is next week");
      expect(toFan.text).toContain("Dear Fern,");
      expect(toFan.text).toContain("Next week, on June 15, 2031, is Iris Vale's birthday. It would have been their 81st.");
      expect(toFan.text).toMatch(new RegExp(`https?://[^\\s\\]]+/memorials/${memorial.id}#leave-tribute`));
      expect(toFan.html).toContain(`/memorials/${memorial.id}"`);
      expect(toFan.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      expect(toFan.headers?.["List-Unsubscribe"]).toMatch(/^<https?:\/\/[^>]+\/unsubscribe\?follow=[^&]+&sig=[^>]+>$/);
      expect(toFan.text).toMatch(/\/unsubscribe\?follow=[^&\s]+&only=reminders&sig=/);
      const [toGuest] = sent.filter((m) => m.to === guest.email);
      expect(toGuest.text).toContain("Hello,");

      // On the day (the days between were each a week before nothing), again two instances at once.
      await twoInstances(at("2031-06-15T07:30:00Z"));
      const onTheDay = await reminders(fan.email);
      expect(onTheDay).toHaveLength(2);
      expect(onTheDay[1].data).toEqual(expect.objectContaining({ kind: "birthday", occursOn: "2031-06-15", occasion: "on-the-day" }));
      await deliverDueMail(transport);
      const second = sent.filter((m) => m.to === fan.email)[1];
      expect(second.subject).toBe("Remembering Iris Vale today, on their birthday");
      expect(second.text).toContain("Today, June 15, 2031, is Iris Vale's birthday.");

      // The job's memory lost (a crash before it was written): the day is done again, and nothing is sent twice.
      await app.db.prisma.dailyJobDay.deleteMany({});
      expect(await runAnniversaryReminders(at("2031-06-15T09:00:00Z"))).toEqual({ ran: true, day: "2031-06-15", queued: expect.any(Number) });
      expect(await reminders(fan.email)).toHaveLength(2);
      expect(await reminders(guest.email)).toHaveLength(2);
    },
  );

  it.skipIf(skip)("remembers a leap-day birth on 28 February in a common year, and the anniversary of a passing", async () => {
    const owner = await person();
    const fan = await person();
    const memorial = await memorialOf(owner.id, ["Leah", "Leap"], { born: "1944-02-29", died: "2019-02-21" });
    await followAsMember(memorial.id, fan, { reminders: true, showName: false });
    await runAnniversaryReminders(at("2031-02-21T10:00:00Z"));
    const rows = (await reminders(fan.email)).map((r) => r.data);
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "passing", occursOn: "2031-02-21", occasion: "on-the-day" }),
        expect.objectContaining({ kind: "birthday", occursOn: "2031-02-28", occasion: "week-before" }),
      ]),
    );
    const { sent, transport } = capture();
    await deliverDueMail(transport);
    const mine = sent.filter((m) => m.to === fan.email);
    expect(mine.map((m) => m.subject).sort()).toEqual([
      "Remembering Leah Leap today, on the anniversary of their passing",
      "Remembering Leah Leap: their birthday is next week",
    ]);
    expect(mine.find((m) => m.subject.includes("passing"))?.text).toContain("Today, February 21, 2031, it is 12 years since Leah Leap passed away.");
    expect(mine.find((m) => m.subject.includes("birthday"))?.text).toContain(
      "Next week, on February 28, 2031, is Leah Leap's birthday. It would have been their 87th.",
    );
  });

  it.skipIf(skip)("after missed days catches up the week-before reminders still ahead, once; a missed on-the-day one is not sent late", async () => {
    const owner = await person();
    const fan = await person();
    const ahead = await memorialOf(owner.id, ["Rowan", "Ash"], { died: "2018-09-20" });
    const missed = await memorialOf(owner.id, ["Basil", "Gone"], { born: "1960-09-12" });
    await followAsMember(ahead.id, fan, { reminders: true, showName: false });
    await followAsMember(missed.id, fan, { reminders: true, showName: false });

    expect(await runAnniversaryReminders(at("2031-09-11T08:00:00Z"))).toEqual({ ran: true, day: "2031-09-11", queued: expect.any(Number) });
    expect(await reminders(fan.email)).toEqual([]);
    // No instance ran on 12 and 13 September; one starts on the 14th, and another checks at the same moment.
    const [a, b] = await twoInstances(at("2031-09-14T10:00:00Z"));
    expect([a.ran, b.ran].sort()).toEqual([false, true]);
    const rows = await reminders(fan.email);
    expect(rows.map((r) => r.data)).toEqual([expect.objectContaining({ kind: "passing", occursOn: "2031-09-20", occasion: "week-before" })]);
    // A re-run, that day or after its memory was lost, sends nothing more.
    expect(await runAnniversaryReminders(at("2031-09-14T11:00:00Z"))).toEqual({ ran: false });
    await app.db.prisma.dailyJobDay.updateMany({ data: { coveredThrough: at("2031-09-11T00:00:00Z") } });
    expect((await runAnniversaryReminders(at("2031-09-14T12:00:00Z"))).ran).toBe(true);
    expect(await reminders(fan.email)).toHaveLength(1);

    const { sent, transport } = capture();
    await deliverDueMail(transport);
    const [mail] = sent.filter((m) => m.to === fan.email);
    expect(mail.subject).toBe("Remembering Rowan Ash: the anniversary of their passing is next week");
    expect(mail.text).toContain("Next week, on September 20, 2031, it will be 13 years since Rowan Ash passed away.");
    // A reminder held up in the outbox past its day is not sent.
    const follow = await app.db.prisma.memorialFollow.findFirstOrThrow({ where: { memorialId: ahead.id, userId: fan.id } });
    expect(await anniversaryReminderFacts(follow.id, "passing", "2031-09-20", "week-before", at("2031-09-20T09:00:00Z"))).toEqual({
      skip: "too late to remind",
    });
    expect(await anniversaryReminderFacts(follow.id, "passing", "2031-09-20", "on-the-day", at("2031-09-21T09:00:00Z"))).toEqual({
      skip: "too late to remind",
    });
    expect(await anniversaryReminderFacts(follow.id, "passing", "2031-09-20", "on-the-day", at("2031-09-20T23:00:00Z"))).toEqual(
      expect.objectContaining({ memorialName: "Rowan Ash", years: 13 }),
    );
    // Housekeeping keeps the record for a month after the day, then deletes it.
    const records = () => app.db.prisma.anniversaryReminder.count({ where: { followId: follow.id } });
    await deleteOldReminderRecords(at("2031-10-19T12:00:00Z"));
    expect(await records()).toBe(1);
    await deleteOldReminderRecords(at("2031-10-21T12:00:00Z"));
    expect(await records()).toBe(0);
  });

  it.skipIf(skip)(
    "sends nothing to a follower who said no, stopped the reminders, unsubscribed or never confirmed, nor for a private or deleted memorial",
    async () => {
      const owner = await person();
      const [no, stopped, left, shut, gone, stillHere] = [await person(), await person(), await person(), await person(), await person(), await person()];
      const born = "1970-04-10";
      const open = await memorialOf(owner.id, ["Ivy", "Open"], { born });
      const hidden = await memorialOf(owner.id, ["Hal", "Hidden"], { born });
      const deleted = await memorialOf(owner.id, ["Del", "Deleted"], { born });
      await followAsMember(open.id, no, { reminders: false, showName: false });
      await followAsMember(open.id, stopped, { reminders: true, showName: false });
      await followAsMember(open.id, left, { reminders: true, showName: false });
      await followAsMember(open.id, stillHere, { reminders: true, showName: false });
      await followAsMember(hidden.id, shut, { reminders: true, showName: false });
      await followAsMember(deleted.id, gone, { reminders: true, showName: false });
      const unconfirmed = await visitorFollows(open.id, true, false);
      const visitorOfHidden = await visitorFollows(hidden.id, true);
      const followOf = (memorialId: string, userId: string) =>
        app.db.prisma.memorialFollow.findFirstOrThrow({ where: { memorialId, userId }, select: { id: true } });
      expect(await stopRemindersByLink((await followOf(open.id, stopped.id)).id)).toBe(true);
      expect(await unfollowByLink((await followOf(open.id, left.id)).id)).toBe(true);
      await app.db.prisma.memorial.update({ where: { id: hidden.id }, data: { visibility: "private" } });
      expect(await deleteMemorial(deleted.id, owner)).toBe(true);

      await runAnniversaryReminders(at("2031-04-03T08:00:00Z"));
      for (const to of [no.email, stopped.email, left.email, shut.email, gone.email, unconfirmed.email, visitorOfHidden.email]) {
        expect(await reminders(to), to).toEqual([]);
      }
      // The one who still wants them gets theirs: the run did run.
      expect(await reminders(stillHere.email)).toHaveLength(1);
      // And if the memorial is made private before it goes, it is not sent.
      await app.db.prisma.memorial.update({ where: { id: open.id }, data: { visibility: "private" } });
      const { sent, transport } = capture();
      await deliverDueMail(transport);
      expect(sent.filter((m) => m.to === stillHere.email)).toEqual([]);
      const skipped = await app.db.prisma.mailOutbox.findFirstOrThrow({ where: { to: stillHere.email, kind: "anniversary-reminder" } });
      expect(skipped.status).toBe("skipped");
      expect(skipped.lastError).toBe("the follower may no longer see the memorial");
    },
  );
});
