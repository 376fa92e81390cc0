import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { ownerEditorStrangerAdmin } from "../../../test/memorial-people";
import { TIMELINE_MAX_EVENTS, type TimelineInput } from "~/utils/timeline";
import { addTimelineEvent, listTimeline, removeTimelineEvent, updateTimelineEvent } from "./timeline.server";
import { publicMemorialVersion } from "./records.server";

// The life timeline on PGlite and PostgreSQL: the owner and co-managers add, edit and
// remove events; a stranger and an administrator are refused; events come back in date order with a date
// known to the year before one known to the day in the same year; at most TIMELINE_MAX_EVENTS; the photo must
// be one of the memorial's own photos and, when deleted, leaves the event's words; every change moves the
// public page's version; a co-manager's change is audited.

let n = 0;
const event = (over: Partial<TimelineInput> = {}): TimelineInput => ({
  kind: "other",
  year: 1960,
  month: null,
  day: null,
  title: "An event",
  description: null,
  photoId: null,
  ...over,
});

describe.each(databaseKinds)("life timeline on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const person = async (isAdmin = false) => {
    const u = await app.db.prisma.user.create({
      data: { email: `tl${Date.now().toString(36)}${n++}@example.com`, firstName: "Tess", lastName: `L${n}`, password: "x", isAdmin },
    });
    return { id: u.id, email: u.email, isAdmin, ip: "127.0.0.1" };
  };
  const memorialOf = (userId: string) =>
    app.db.prisma.memorial.create({ data: { userId, title: "Ada Line", firstName: "Ada", lastName: "Line", visibility: "public", isPublished: true } });
  const photoOf = (memorialId: string, mediaType = "image/jpeg") =>
    app.db.prisma.memorialMedia.create({ data: { memorialId, mediaUrl: `/media/memorials/${memorialId}/${n++}.jpg`, mediaType } });

  it.skipIf(skip)("lets the owner add, edit and remove events, in date order, and moves the page's version each time", async () => {
    const owner = await person();
    const memorial = await memorialOf(owner.id);
    const v0 = await publicMemorialVersion(memorial.id);
    const wedding = await addTimelineEvent(memorial.id, owner, event({ kind: "marriage", year: 1958, month: 6, day: 14, title: "Married Ben" }));
    expect(wedding.ok).toBe(true);
    const v1 = await publicMemorialVersion(memorial.id);
    expect(v1!.getTime()).toBeGreaterThan(v0!.getTime());
    // Known to the year only: before anything dated within 1958, after 1950.
    await addTimelineEvent(memorial.id, owner, event({ kind: "move", year: 1958, title: "Moved to Leeds" }));
    await addTimelineEvent(memorial.id, owner, event({ kind: "work", year: 1958, month: 3, title: "First job" }));
    await addTimelineEvent(memorial.id, owner, event({ kind: "born", year: 1936, month: 2, day: 29, title: "Born in York" }));
    await addTimelineEvent(memorial.id, owner, event({ kind: "school", year: 1950, title: "Grammar school" }));
    expect((await listTimeline(memorial.id)).map((e) => e.title)).toEqual(["Born in York", "Grammar school", "Moved to Leeds", "First job", "Married Ben"]);

    if (!wedding.ok) throw new Error("not added");
    const edited = await updateTimelineEvent(memorial.id, wedding.id, owner, event({ kind: "marriage", year: 1949, title: "Married Ben, at last" }));
    expect(edited).toEqual({ ok: true, id: wedding.id });
    const v2 = await publicMemorialVersion(memorial.id);
    expect(v2!.getTime()).toBeGreaterThan(v1!.getTime());
    const list = await listTimeline(memorial.id);
    expect(list.map((e) => e.title)).toEqual(["Born in York", "Married Ben, at last", "Grammar school", "Moved to Leeds", "First job"]);
    expect(list[1]).toMatchObject({ year: 1949, month: null, day: null });

    expect(await removeTimelineEvent(memorial.id, wedding.id, owner)).toEqual({ ok: true, id: wedding.id });
    expect((await publicMemorialVersion(memorial.id))!.getTime()).toBeGreaterThan(v2!.getTime());
    expect((await listTimeline(memorial.id)).map((e) => e.title)).not.toContain("Married Ben, at last");
    expect(await removeTimelineEvent(memorial.id, wedding.id, owner)).toEqual({ ok: false, reason: "gone" });
    // The owner's own changes are not in the co-managers' history.
    expect(await app.db.prisma.auditLog.count({ where: { targetId: memorial.id } })).toBe(0);
  });

  it.skipIf(skip)("lets an editor change the timeline, audited; refuses a stranger and an administrator", async () => {
    const { owner, editor, stranger, admin, memorial } = await ownerEditorStrangerAdmin(app, person, memorialOf);
    const added = await addTimelineEvent(memorial.id, editor, event({ title: "Opened the shop" }));
    expect(added.ok).toBe(true);
    if (!added.ok) throw new Error("not added");
    expect(await updateTimelineEvent(memorial.id, added.id, editor, event({ title: "Opened the bakery" }))).toEqual({ ok: true, id: added.id });
    for (const who of [stranger, admin]) {
      expect(await addTimelineEvent(memorial.id, who, event({ title: "Not theirs" }))).toEqual({ ok: false, reason: "not-found" });
      expect(await updateTimelineEvent(memorial.id, added.id, who, event({ title: "Not theirs" }))).toEqual({ ok: false, reason: "not-found" });
      expect(await removeTimelineEvent(memorial.id, added.id, who)).toEqual({ ok: false, reason: "not-found" });
    }
    expect((await listTimeline(memorial.id)).map((e) => e.title)).toEqual(["Opened the bakery"]);
    expect(await removeTimelineEvent(memorial.id, added.id, editor)).toEqual({ ok: true, id: added.id });
    const audit = await app.db.prisma.auditLog.findMany({ where: { targetId: memorial.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => [a.action, a.actorId, a.summary])).toEqual([
      ["memorial.co-edit", editor.id, 'As editor: added the timeline event "Opened the shop"'],
      ["memorial.co-edit", editor.id, 'As editor: edited the timeline event "Opened the bakery"'],
      ["memorial.co-edit", editor.id, 'As editor: removed the timeline event "Opened the bakery"'],
    ]);
    // An event of one memorial cannot be reached through another the editor manages.
    const other = await memorialOf(editor.id);
    const mine = await addTimelineEvent(other.id, editor, event());
    if (!mine.ok) throw new Error("not added");
    expect(await removeTimelineEvent(memorial.id, mine.id, owner)).toEqual({ ok: false, reason: "gone" });
  });

  it.skipIf(skip)("holds at most the limit, takes only the memorial's own photos, and keeps the words when the photo goes", async () => {
    const owner = await person();
    const memorial = await memorialOf(owner.id);
    const elsewhere = await memorialOf(owner.id);
    const photo = await photoOf(memorial.id);
    const video = await photoOf(memorial.id, "video/mp4");
    const foreign = await photoOf(elsewhere.id);
    expect(await addTimelineEvent(memorial.id, owner, event({ photoId: foreign.id }))).toEqual({ ok: false, reason: "photo" });
    expect(await addTimelineEvent(memorial.id, owner, event({ photoId: video.id }))).toEqual({ ok: false, reason: "photo" });
    expect(await addTimelineEvent(memorial.id, owner, event({ photoId: "not-an-id" }))).toEqual({ ok: false, reason: "photo" });
    const withPhoto = await addTimelineEvent(memorial.id, owner, event({ title: "On the pier", photoId: photo.id }));
    expect(withPhoto.ok).toBe(true);
    expect((await listTimeline(memorial.id))[0].photo).toMatchObject({ id: photo.id });
    await app.db.prisma.memorialMedia.delete({ where: { id: photo.id } });
    expect(await listTimeline(memorial.id)).toEqual([expect.objectContaining({ title: "On the pier", photoId: null, photo: null })]);

    await app.db.prisma.memorialTimelineEvent.createMany({
      data: Array.from({ length: TIMELINE_MAX_EVENTS - 2 }, (_, i) => ({ memorialId: memorial.id, kind: "other", year: 1900 + (i % 100), title: `E${i}` })),
    });
    // Two at once for the one place left: exactly one gets in.
    const [a, b] = await Promise.all([
      addTimelineEvent(memorial.id, owner, event({ title: "A" })),
      addTimelineEvent(memorial.id, owner, event({ title: "B" })),
    ]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect([a, b].find((r) => !r.ok)).toEqual({ ok: false, reason: "full" });
    expect(await app.db.prisma.memorialTimelineEvent.count({ where: { memorialId: memorial.id } })).toBe(TIMELINE_MAX_EVENTS);
    expect(await listTimeline(memorial.id)).toHaveLength(TIMELINE_MAX_EVENTS);
  });

  it.skipIf(skip)("goes with the memorial when it is purged, and the database refuses an impossible date shape", async () => {
    const owner = await person();
    const memorial = await memorialOf(owner.id);
    await addTimelineEvent(memorial.id, owner, event());
    await expect(
      app.db.prisma.memorialTimelineEvent.create({ data: { memorialId: memorial.id, kind: "other", year: 1950, day: 3, title: "x" } }),
    ).rejects.toThrow();
    await expect(app.db.prisma.memorialTimelineEvent.create({ data: { memorialId: memorial.id, kind: "party", year: 1950, title: "x" } })).rejects.toThrow();
    await app.db.prisma.$executeRaw`DELETE FROM "memorial_records" WHERE "id" = ${memorial.id}`;
    expect(await app.db.prisma.memorialTimelineEvent.count({ where: { memorialId: memorial.id } })).toBe(0);
  });
});
