import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { deleteAccount } from "../accounts/account.server";
import { hashPassword } from "~/services/password.server";
import { composeMail } from "../mail/compose.server";
import { invitationTokenFor } from "~/services/signed-links.server";
import type { OutboxRow } from "../mail/outbox.server";
import { restoreAccount } from "./deletion.server";
import { answerInvitation, inviteCoManager, listMemorialPeople, removeCoManager } from "./managers.server";
import { memorialRole } from "./access.server";
import { clearSuccessor, handOverForAbsentOwners, nameSuccessor, successionPlanFor } from "./succession.server";
import { getSignedInUser } from "../accounts/users.server";

// A successor on PGlite and PostgreSQL: one per memorial, always a co-manager; the
// memorial passes to them when the owner deletes the account (or to whom the owner chooses), and after the
// owner's chosen absence, only after two reminders a week apart, once however many instances run the
// round, and never if the owner comes back.

const DAY = 86_400_000;
let n = 0;

describe.each(databaseKinds)("successor on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const person = async (password = "x", firstName = "Sam") => {
    const u = await app.db.prisma.user.create({
      data: { email: `sc${Date.now().toString(36)}${n++}@example.com`, firstName, lastName: `S${n}`, password },
    });
    return { id: u.id, email: u.email, firstName: u.firstName, lastName: u.lastName, isAdmin: false, ip: "127.0.0.1" };
  };
  const memorialOf = (userId: string, firstName = "Ada") =>
    app.db.prisma.memorial.create({ data: { userId, title: `${firstName} Vale`, firstName, lastName: "Vale", visibility: "private", isPublished: true } });
  const coManage = (memorialId: string, userId: string, role = "editor") => app.db.prisma.memorialManager.create({ data: { memorialId, userId, role } });
  // The database is shared by the tests of one kind: each looks at the mail of its own people.
  const outbox = (kind: string, to: string | string[]) =>
    app.db.prisma.mailOutbox.findMany({ where: { kind, to: { in: [to].flat() } }, orderBy: [{ createdAt: "asc" }, { to: "asc" }] });
  const ownerOf = async (id: string) => (await app.db.prisma.memorial.findUnique({ where: { id }, select: { userId: true } }))?.userId;

  it.skipIf(skip)("keeps one successor per memorial, always one of its co-managers, named by the owner alone", async () => {
    const owner = await person();
    const [ann, ben, stranger] = [await person(), await person(), await person()];
    const memorial = await memorialOf(owner.id);
    await coManage(memorial.id, ann.id, "manager");
    await coManage(memorial.id, ben.id);

    expect(await nameSuccessor(memorial.id, stranger.id, owner)).toEqual({ ok: false, reason: "not-found" });
    expect(await nameSuccessor(memorial.id, ben.id, ann)).toEqual({ ok: false, reason: "forbidden" });
    expect(await nameSuccessor(memorial.id, ben.id, stranger)).toEqual({ ok: false, reason: "forbidden" });
    expect(await nameSuccessor(memorial.id, ann.id, owner)).toEqual({ ok: true });
    expect(await nameSuccessor(memorial.id, ben.id, owner)).toEqual({ ok: true });
    const people = await listMemorialPeople(memorial.id);
    expect(people?.coManagers.filter((m) => m.isSuccessor).map((m) => m.userId)).toEqual([ben.id]);
    expect((await outbox("successor-named", [ann.email, ben.email])).map((m) => m.to)).toEqual([ann.email, ben.email]);
    const mail = (await outbox("successor-named", ben.email))[0];
    const composed = await composeMail({ ...mail, data: mail.data as Record<string, unknown> } as OutboxRow);
    expect("props" in composed && composed.props).toMatchObject({ name: "Ada Vale", owner: `${owner.firstName} ${owner.lastName}` });

    // Removing the successor as a co-manager leaves no successor; the owner then chooses at deletion.
    expect(await removeCoManager(memorial.id, ben.id, ann)).toEqual({ ok: true });
    const plan = await successionPlanFor(owner.id);
    expect(plan.handedOn).toEqual([]);
    expect(plan.choose.map((m) => m.coManagers.map((p) => p.userId))).toEqual([[ann.id]]);

    // Two owners' clicks at once: still one successor.
    await coManage(memorial.id, ben.id);
    await Promise.all([nameSuccessor(memorial.id, ann.id, owner), nameSuccessor(memorial.id, ben.id, owner)]);
    expect(await app.db.prisma.memorialManager.count({ where: { memorialId: memorial.id, isSuccessor: true } })).toBe(1);
    expect(await clearSuccessor(memorial.id, ann)).toEqual({ ok: false, reason: "forbidden" });
    expect(await clearSuccessor(memorial.id, owner)).toEqual({ ok: true });
    expect(await app.db.prisma.memorialManager.count({ where: { memorialId: memorial.id, isSuccessor: true } })).toBe(0);
    const actions = (await app.db.prisma.auditLog.findMany({ where: { targetId: memorial.id, action: "memorial.successor" } })).length;
    expect(actions).toBe(5);
  });

  it.skipIf(skip)(
    "makes whoever accepts an invitation to be the successor the successor, in place of the one before; only the owner may send one",
    async () => {
      const owner = await person();
      const [ann, invitee, manager] = [await person(), await person(), await person()];
      const memorial = await memorialOf(owner.id);
      await coManage(memorial.id, ann.id);
      await coManage(memorial.id, manager.id, "manager");
      await nameSuccessor(memorial.id, ann.id, owner);
      expect(await inviteCoManager(memorial.id, manager, { email: invitee.email, role: "editor", successor: true })).toEqual({
        ok: false,
        reason: "forbidden",
      });
      const sent = await inviteCoManager(memorial.id, owner, { email: invitee.email, role: "editor", successor: true });
      if (!sent.ok) throw new Error("not invited");
      expect((await successionPlanFor(owner.id)).handedOn[0].successor.userId).toBe(ann.id);
      expect(await answerInvitation(invitationTokenFor(sent.invitationId), invitee, "accept")).toMatchObject({ ok: true });
      const people = await listMemorialPeople(memorial.id);
      expect(people?.coManagers.filter((m) => m.isSuccessor).map((m) => m.userId)).toEqual([invitee.id]);
      expect(await memorialRole(memorial.id, invitee)).toBe("editor");
    },
  );

  it.skipIf(skip)("hands memorials on when the owner deletes the account: to the successor, to whom the owner chose, or with the account", async () => {
    const password = "correct horse battery staple";
    const owner = await person(await hashPassword(password), "Olive");
    const [heir, helper, other] = [await person(), await person(), await person()];
    const named = await memorialOf(owner.id, "Named");
    const chosen = await memorialOf(owner.id, "Chosen");
    const alone = await memorialOf(owner.id, "Alone");
    const declined = await memorialOf(owner.id, "Declined");
    await coManage(named.id, heir.id);
    await coManage(named.id, other.id, "manager");
    await nameSuccessor(named.id, heir.id, owner);
    await coManage(chosen.id, helper.id);
    await coManage(declined.id, other.id);
    const user = (await getSignedInUser(owner.id))!;

    // Every memorial without a successor but with co-managers needs an answer; a missing one is asked for, nothing done.
    const unanswered = await deleteAccount(user, password, "127.0.0.1", { [chosen.id]: helper.id });
    expect(unanswered).toMatchObject({ ok: false, reason: "choices", choiceErrors: { [declined.id]: expect.any(String) } });
    const stranger = await deleteAccount(user, password, "127.0.0.1", { [chosen.id]: other.id, [declined.id]: "delete" });
    expect(stranger).toMatchObject({ ok: false, reason: "choices", choiceErrors: { [chosen.id]: expect.any(String) } });
    expect(await app.db.prisma.user.count({ where: { id: owner.id, deletedAt: null } })).toBe(1);

    expect(await deleteAccount(user, password, "127.0.0.1", { [chosen.id]: helper.id, [declined.id]: "delete" })).toMatchObject({ ok: true });
    expect(await ownerOf(named.id)).toBe(heir.id);
    expect(await ownerOf(chosen.id)).toBe(helper.id);
    expect(await ownerOf(alone.id)).toBeUndefined();
    expect(await ownerOf(declined.id)).toBeUndefined();
    // The new owner is no longer their own co-manager; the others stay.
    expect(await memorialRole(named.id, heir)).toBe("owner");
    expect(await memorialRole(named.id, other)).toBe("manager");
    expect((await outbox("memorial-handed-over", [heir.email, helper.email, other.email, owner.email])).map((m) => m.to).sort()).toEqual(
      [heir.email, helper.email].sort(),
    );
    const audit = await app.db.prisma.auditLog.findMany({ where: { action: "memorial.hand-over", targetId: { in: [named.id, chosen.id] } } });
    expect(audit).toHaveLength(2);

    // Restoring the account brings back what went with it, not what passed on.
    expect(await restoreAccount(owner.id, null)).toBe(true);
    expect(await ownerOf(alone.id)).toBe(owner.id);
    expect(await ownerOf(declined.id)).toBe(owner.id);
    expect(await ownerOf(named.id)).toBe(heir.id);
  });

  it.skipIf(skip)("refuses choices that went stale while the owner decided", async () => {
    const password = "correct horse battery staple";
    const owner = await person(await hashPassword(password));
    const helper = await person();
    const memorial = await memorialOf(owner.id);
    const user = (await getSignedInUser(owner.id))!;
    // The screen showed no co-managers; one accepted meanwhile: the owner must decide again.
    await coManage(memorial.id, helper.id);
    expect(await deleteAccount(user, password, "127.0.0.1", {})).toMatchObject({ ok: false, reason: "choices" });
    expect(await ownerOf(memorial.id)).toBe(owner.id);
  });

  it.skipIf(skip)("reminds an absent owner twice, a week apart, then hands on once, however many instances run the round", async () => {
    const owner = await person();
    const heir = await person();
    const lonely = await person();
    const memorial = await memorialOf(owner.id, "Kept");
    const unshared = await memorialOf(owner.id, "Unshared");
    const lonelyMemorial = await memorialOf(lonely.id, "Lonely");
    const mine = [owner.email, heir.email, lonely.email];
    await coManage(memorial.id, heir.id);
    await nameSuccessor(memorial.id, heir.id, owner);
    const start = new Date();
    const seen = new Date(start.getTime() - 400 * DAY); // past the default 12 months already: downtime, or a long absence
    await app.db.prisma.user.updateMany({ where: { id: { in: [owner.id, lonely.id] } }, data: { lastActiveAt: seen } });
    const at = (days: number) => new Date(start.getTime() + days * DAY);
    const round = (now: Date) => Promise.all([handOverForAbsentOwners(now), handOverForAbsentOwners(now)]);

    await round(at(0));
    expect((await outbox("inactivity-reminder", mine)).map((m) => m.to)).toEqual([owner.email]); // nobody with nothing to hand on is bothered
    await round(at(3));
    expect(await outbox("inactivity-reminder", mine)).toHaveLength(1);
    expect(await ownerOf(memorial.id)).toBe(owner.id);
    await round(at(7.1));
    expect(await outbox("inactivity-reminder", mine)).toHaveLength(2);
    expect(await ownerOf(memorial.id)).toBe(owner.id);
    // What the first reminder promised: not before two weeks from when it went.
    const first = (await outbox("inactivity-reminder", mine))[0];
    expect(new Date(String((first.data as { handOverAt: string }).handOverAt)).getTime()).toBeGreaterThanOrEqual(at(14).getTime());
    await round(at(10));
    expect(await ownerOf(memorial.id)).toBe(owner.id);
    await round(at(14.2));
    expect(await ownerOf(memorial.id)).toBe(heir.id);
    expect(await ownerOf(unshared.id)).toBe(owner.id); // no successor: it stays, nothing is deleted
    expect(await ownerOf(lonelyMemorial.id)).toBe(lonely.id);
    expect(await memorialRole(memorial.id, owner)).toBe("manager"); // the previous owner keeps a way in
    expect((await outbox("memorial-handed-over", mine)).map((m) => m.to).sort()).toEqual([heir.email, owner.email].sort());
    await round(at(30));
    expect(await outbox("memorial-handed-over", mine)).toHaveLength(2);
    expect(await outbox("inactivity-reminder", mine)).toHaveLength(2);
  });

  it.skipIf(skip)("starts over when the owner comes back, and never hands on an owner who chose never", async () => {
    const owner = await person();
    const never = await person();
    const heir = await person();
    const mine = [owner.email, never.email, heir.email];
    for (const who of [owner, never]) {
      const m = await memorialOf(who.id);
      await coManage(m.id, heir.id);
      await nameSuccessor(m.id, heir.id, who);
    }
    await app.db.prisma.user.update({ where: { id: never.id }, data: { handOverAfterMonths: 0 } });
    const start = new Date();
    await app.db.prisma.user.updateMany({ where: { id: { in: [owner.id, never.id] } }, data: { lastActiveAt: new Date(start.getTime() - 360 * DAY) } });
    await handOverForAbsentOwners(start);
    const reminders = await outbox("inactivity-reminder", mine);
    expect(reminders.map((m) => m.to)).toEqual([owner.email]);

    // Seen again (any page while signed in): the reminder queued before is not sent, and the count starts over.
    await getSignedInUser(owner.id, new Date(start.getTime() + DAY));
    const composed = await composeMail({ ...reminders[0], data: reminders[0].data as Record<string, unknown> } as OutboxRow);
    expect(composed).toHaveProperty("skip");
    for (const days of [8, 16, 24]) await handOverForAbsentOwners(new Date(start.getTime() + days * DAY));
    expect(await outbox("inactivity-reminder", mine)).toHaveLength(1);
    expect(await outbox("memorial-handed-over", mine)).toHaveLength(0);
  });
});
