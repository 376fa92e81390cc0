import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { composeMail } from "../mail/compose.server";
import { invitationTokenFor } from "~/services/signed-links.server";
import type { OutboxRow } from "../mail/outbox.server";
import { answerInvitation, findInvitation, inviteCoManager, listCoManagedMemorials, listMemorialPeople } from "./managers.server";
import { listMemorialsForViewer, updateOwnMemorial, MemorialRoleError } from "./records.server";
import { memorialRole } from "./access.server";

// Co-managers on PGlite and PostgreSQL: an invitation is used once even when two
// answers race, expires after 7 days, and makes the invitee see and edit the memorial; an editor cannot
// change its visibility; the invitation email carries the link only while it can be used.

let n = 0;
describe.each(databaseKinds)("co-managers on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const person = async (isAdmin = false) => {
    const u = await app.db.prisma.user.create({
      data: { email: `cm${Date.now().toString(36)}${n++}@example.com`, firstName: "Cora", lastName: `M${n}`, password: "x", isAdmin },
    });
    return { id: u.id, email: u.email, isAdmin, ip: "127.0.0.1" };
  };
  const draft = (userId: string) =>
    app.db.prisma.memorial.create({ data: { userId, title: "Nell Quill", firstName: "Nell", lastName: "Quill", visibility: "private", isPublished: false } });

  it.skipIf(skip)("makes one co-manager from one link, even when two accept at once, and lets them see and edit the draft", async () => {
    const owner = await person();
    const invitee = await person();
    const rival = await person();
    const memorial = await draft(owner.id);
    expect(await listMemorialsForViewer(invitee, {})).not.toContainEqual(expect.objectContaining({ id: memorial.id }));
    const sent = await inviteCoManager(memorial.id, owner, { email: invitee.email, role: "editor" });
    expect(sent.ok).toBe(true);
    const token = invitationTokenFor(sent.ok ? sent.invitationId : "");
    const [a, b] = await Promise.all([answerInvitation(token, invitee, "accept"), answerInvitation(token, rival, "accept")]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    const winner = a.ok ? invitee : rival;
    const loser = a.ok ? rival : invitee;
    expect(await memorialRole(memorial.id, winner)).toBe("editor");
    expect(await memorialRole(memorial.id, loser)).toBe("none");
    expect((await findInvitation(token)).state).toBe("used");
    expect(await listMemorialsForViewer(winner, {})).toContainEqual(expect.objectContaining({ id: memorial.id }));
    expect(await listCoManagedMemorials(winner.id)).toEqual([
      expect.objectContaining({ id: memorial.id, role: "editor", ownerName: expect.stringContaining("Cora") }),
    ]);
    // An editor edits the words, not who may see it.
    expect((await updateOwnMemorial(memorial.id, winner, { biography: "Kept the light." }))?.biography).toBe("Kept the light.");
    await expect(updateOwnMemorial(memorial.id, winner, { visibility: "public" })).rejects.toBeInstanceOf(MemorialRoleError);
    expect(await updateOwnMemorial(memorial.id, loser, { biography: "Not mine." })).toBeNull();
    const audit = await app.db.prisma.auditLog.findMany({ where: { targetId: memorial.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((r) => r.action)).toEqual(["memorial.invite", "memorial.invite-accept", "memorial.co-edit"]);
    const people = await listMemorialPeople(memorial.id);
    expect(people?.coManagers.map((m) => m.userId)).toEqual([winner.id]);
    expect(people?.pending).toEqual([]);
  });

  it.skipIf(skip)("limits how many invitations one member sends in an hour, saying when to try again", async () => {
    const owner = await person();
    const memorial = await draft(owner.id);
    const start = new Date();
    for (let i = 0; i < 20; i++) {
      expect((await inviteCoManager(memorial.id, owner, { email: `guest${i}@example.test`, role: "editor" }, start)).ok).toBe(true);
    }
    const refused = await inviteCoManager(memorial.id, owner, { email: "one-more@example.test", role: "editor" }, start);
    expect(refused).toMatchObject({ ok: false, reason: "rate-limited", message: expect.stringContaining("Too many invitations were sent from your account.") });
    expect(await app.db.prisma.memorialInvitation.count({ where: { memorialId: memorial.id } })).toBe(20);
    // An hour later the member may invite again.
    expect((await inviteCoManager(memorial.id, owner, { email: "one-more@example.test", role: "editor" }, new Date(start.getTime() + 3_600_001))).ok).toBe(
      true,
    );
  });

  it.skipIf(skip)("refuses an expired link and an editor's invitation, and emails the link only while it can be used", async () => {
    const owner = await person();
    const editor = await person();
    const memorial = await draft(owner.id);
    const first = await inviteCoManager(memorial.id, owner, { email: editor.email, role: "editor" });
    if (!first.ok) throw new Error("not invited");
    const token = invitationTokenFor(first.invitationId);
    const row = (await app.db.prisma.mailOutbox.findFirst({ where: { kind: "memorial-invitation", to: editor.email } }))!;
    const outbox = { id: row.id, to: row.to, kind: row.kind, data: row.data as Record<string, unknown>, attempts: 1, groupKey: null } satisfies OutboxRow;
    const composed = await composeMail(outbox);
    expect("props" in composed && composed.kind === "memorial-invitation" && (composed.props as { invitationUrl: string }).invitationUrl).toMatch(
      new RegExp(`/invitations/${encodeURIComponent(token)}$`),
    );
    expect(JSON.stringify(row.data)).not.toContain(token);
    const eightDaysOn = new Date(Date.now() + 8 * 24 * 3600_000);
    expect((await findInvitation(token, eightDaysOn)).state).toBe("expired");
    expect(await answerInvitation(token, editor, "accept", eightDaysOn)).toEqual({ ok: false, state: "expired" });
    expect(await answerInvitation(token, owner, "accept")).toEqual({ ok: false, state: "owner" });
    expect(await answerInvitation(token, editor, "accept")).toEqual({ ok: true, memorialId: memorial.id });
    expect(await composeMail(outbox)).toEqual({ skip: "the invitation can no longer be used" });
    expect(await inviteCoManager(memorial.id, editor, { email: "x@example.com", role: "editor" })).toEqual({ ok: false, reason: "forbidden" });
    expect(await inviteCoManager(memorial.id, owner, { email: owner.email, role: "editor" })).toMatchObject({ ok: false, reason: "invalid" });
  });
});
