import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { getObject, objectUrl, putObject } from "~/services/storage.server";
import { purgeDateOf, RECOVERY_DAYS } from "~/utils/deletion";
import { FREE_MEMORIAL_LIMIT } from "~/utils/plans";
import { deleteAccount } from "../accounts/account.server";
import { keepHouse } from "../housekeeping.server";
import {
  closeAccount,
  deleteMemorial,
  listDeletedAccountsForAdmin,
  listDeletedMemorialsForAdmin,
  listRecentlyDeleted,
  purgeDeleted,
  restoreAccount,
  restoreMemorial,
} from "./deletion.server";
import { browseMemorials } from "./gallery.server";
import { findMemorialForViewer } from "./access.server";
import { listMemorialsForViewer, publicMemorialVersion } from "./records.server";
import { listOwnMemorials } from "./own-memorials.server";
import { createSessionRow } from "../accounts/sessions.server";
import { listTributesForAdmin } from "../tributes/tributes.server";
import { getUserById, signIn } from "../accounts/users.server";
import { useTempDataDir } from "../../../test/data-dir";

// Deletion keeps its 30-day window, on PGlite and PostgreSQL: a deleted memorial is
// hidden from every reader at once and comes back whole; a deleted account is signed out, hidden and
// restorable; the purge tells the owner a few days before, then removes rows and files once, however
// many rounds (instances) run, and catches up after downtime.

useTempDataDir("deletion");
process.env.SESSION_SECRET ??= "deletion-test-secret-that-is-long-enough-0123456789";
process.env.PASSWORD_HASH_COST ??= "12";

const DAY = 86_400_000;
let n = 0;

describe.each(databaseKinds)("recoverable deletion on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const user = (data: { isAdmin?: boolean; subscriptionPlan?: string } = {}) =>
    app.db.prisma.user.create({
      data: { email: `del${Date.now().toString(36)}${n++}@example.com`, firstName: "Rose", lastName: "Hill", password: "x", ...data },
    });
  const as = (u: { id: string; email: string; isAdmin?: boolean }) => ({ id: u.id, email: u.email, isAdmin: !!u.isAdmin, ip: "203.0.113.7" });
  /** A published public memorial with a stored photo (its file really in storage) and an approved and a pending tribute. */
  const memorial = async (ownerId: string, name = `Ada${n++}`) => {
    const m = await app.db.prisma.memorial.create({
      data: { userId: ownerId, title: `${name} Lovelace`, firstName: name, lastName: "Lovelace", isPublished: true, visibility: "public" },
    });
    const key = `memorials/${m.id}/photo${n++}/original.jpg`;
    await putObject(key, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), "image/jpeg");
    await app.db.prisma.memorialMedia.create({ data: { memorialId: m.id, mediaUrl: objectUrl(key), mediaType: "image/jpeg" } });
    await app.db.prisma.tribute.create({ data: { memorialId: m.id, authorName: "Ann", content: "A kind and patient friend.", isApproved: true } });
    await app.db.prisma.tribute.create({ data: { memorialId: m.id, authorName: "Bob", content: "Waiting for approval here.", isApproved: false } });
    return { ...m, key };
  };
  const age = (table: "memorial_records" | "users", id: string, days: number) =>
    app.db.sql.query(`UPDATE "${table}" SET "deletedAt" = now() - make_interval(days => $2) WHERE "id" = $1`, [id, days]);
  const mails = (to: string, kind: string) => app.db.prisma.mailOutbox.count({ where: { to, kind } });

  it.skipIf(skip)("hides a deleted memorial from every reader at once, and restores it whole", async () => {
    const owner = await user();
    const admin = await user({ isAdmin: true });
    const m = await memorial(owner.id);
    expect(await publicMemorialVersion(m.id)).not.toBeNull();

    expect(await deleteMemorial(m.id, as(owner))).toBe(true);
    // A second click, or a second tab, finds nothing left to delete.
    expect(await deleteMemorial(m.id, as(owner))).toBe(false);
    for (const viewer of [null, owner, admin]) {
      expect((await findMemorialForViewer(m.id, viewer ? { id: viewer.id, isAdmin: viewer.isAdmin } : null)).status).toBe("not-found");
      expect((await listMemorialsForViewer(viewer ? { id: viewer.id, isAdmin: viewer.isAdmin } : null, { search: m.firstName })).map((x) => x.id)).toEqual([]);
    }
    expect((await browseMemorials({ search: m.firstName })).items).toEqual([]);
    expect((await listOwnMemorials(owner.id)).items.map((x) => x.id)).not.toContain(m.id);
    expect(await publicMemorialVersion(m.id)).toBeNull();
    expect((await listTributesForAdmin(false, 100)).map((t) => t.memorial.id)).not.toContain(m.id);
    // The family's photo stays stored through the window.
    expect(await getObject(m.key)).not.toBeNull();

    const deleted = await listRecentlyDeleted(owner.id);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({ id: m.id, title: m.title });
    expect(deleted[0].purgeAt.getTime() - deleted[0].deletedAt.getTime()).toBe(RECOVERY_DAYS * DAY);
    // Nobody else sees it in their Recently deleted, and nobody else can restore it.
    const stranger = await user();
    expect(await listRecentlyDeleted(stranger.id)).toEqual([]);
    expect(await restoreMemorial(m.id, as(stranger))).toEqual({ ok: false, reason: "not-found" });

    expect(await restoreMemorial(m.id, as(owner))).toEqual({ ok: true, title: m.title });
    expect(await restoreMemorial(m.id, as(owner))).toEqual({ ok: false, reason: "not-found" });
    const back = await findMemorialForViewer(m.id, null);
    expect(back.status).toBe("ok");
    expect(await app.db.prisma.tribute.count({ where: { memorialId: m.id } })).toBe(2);
    expect(await app.db.prisma.memorialMedia.count({ where: { memorialId: m.id } })).toBe(1);
    expect(await listRecentlyDeleted(owner.id)).toEqual([]);
    // An owner's own deletion and restore are theirs: nothing in the audit log.
    expect(await app.db.prisma.auditLog.count({ where: { targetId: m.id } })).toBe(0);
  });

  it.skipIf(skip)("restores within the free plan's limit; an administrator restores anything, audited", async () => {
    const owner = await user();
    const admin = await user({ isAdmin: true });
    const m = await memorial(owner.id);
    expect(await deleteMemorial(m.id, as(owner))).toBe(true);
    await app.db.prisma.memorial.createMany({
      data: Array.from({ length: FREE_MEMORIAL_LIMIT }, (_, i) => ({ userId: owner.id, title: `M${i}`, firstName: "A", lastName: "B" })),
    });
    expect(await restoreMemorial(m.id, as(owner))).toEqual({ ok: false, reason: "limit" });
    expect((await listDeletedMemorialsForAdmin()).map((x) => x.id)).toContain(m.id);
    expect(await restoreMemorial(m.id, as(admin))).toEqual({ ok: true, title: m.title });
    expect((await app.db.prisma.auditLog.findMany({ where: { targetId: m.id }, select: { action: true, actorId: true } })).map((a) => a.action)).toEqual([
      "memorial.restore",
    ]);
    // An administrator's deletion is audited too, with the date it goes for good.
    expect(await deleteMemorial(m.id, as(admin))).toBe(true);
    const entry = await app.db.prisma.auditLog.findFirstOrThrow({ where: { targetId: m.id, action: "memorial.delete" } });
    expect(entry.summary).toContain(purgeDateOf(new Date()).toISOString().slice(0, 7));
  });

  it.skipIf(skip)(
    "closes an account: signed out, hidden, its memorials with it; signing in offers it back, and restoring brings back what went with it",
    async () => {
      const member = await user();
      const m = await memorial(member.id);
      const before = await memorial(member.id);
      // One memorial the member had deleted already stays in Recently deleted after the account comes back.
      expect(await deleteMemorial(before.id, as(member))).toBe(true);
      const friend = await user();
      await app.db.prisma.friendship.createMany({
        data: [
          { userId: member.id, friendId: friend.id },
          { userId: friend.id, friendId: member.id },
        ],
      });
      await app.db.prisma.friendRequest.create({ data: { senderId: member.id, receiverId: (await user()).id } });
      const sid = await createSessionRow({ userId: member.id }, new Date(Date.now() + DAY));

      expect(await closeAccount(member, member)).toBe(true);
      expect(await closeAccount(member, member)).toBe(false);
      expect(await getUserById(member.id)).toBeNull();
      expect(await app.db.prisma.session.count({ where: { sid } })).toBe(0);
      expect((await findMemorialForViewer(m.id, null)).status).toBe("not-found");
      expect(await app.db.prisma.friendRequest.count({ where: { senderId: member.id } })).toBe(0);
      // Kept: the friendship comes back with the account, but the friend does not see them meanwhile.
      const { listFriends } = await import("../community/friends.server");
      expect((await listFriends(friend.id)).items).toEqual([]);
      expect((await listDeletedAccountsForAdmin()).map((a) => a.id)).toContain(member.id);
      expect(await mails(member.email, "account-deleted")).toBe(1);

      await app.db.prisma.user.update({
        where: { id: member.id },
        data: { password: await (await import("~/services/password.server")).hashPassword("Correct1horse") },
      });
      const attempt = await signIn(member.email, "Correct1horse", "203.0.113.50");
      expect(attempt).toMatchObject({ ok: false, reason: "deleted", userId: member.id });
      expect(await signIn(member.email, "Wrong1horse", "203.0.113.51")).toMatchObject({ ok: false, reason: "invalid" });

      expect(await restoreAccount(member.id, null)).toBe(true);
      expect(await restoreAccount(member.id, null)).toBe(false);
      expect(await getUserById(member.id)).not.toBeNull();
      expect((await findMemorialForViewer(m.id, null)).status).toBe("ok");
      expect((await listRecentlyDeleted(member.id)).map((x) => x.id)).toEqual([before.id]);
      expect((await listFriends(friend.id)).items.map((f) => f.id)).toEqual([member.id]);
      expect(await mails(member.email, "account-restored")).toBe(1);
      expect((await signIn(member.email, "Correct1horse", "203.0.113.52")).ok).toBe(true);
    },
  );

  it.skipIf(skip)("refuses to delete an account with the wrong password, and keeps everything", async () => {
    const member = await user();
    const m = await memorial(member.id);
    const result = await deleteAccount({ ...(await getUserById(member.id))! }, "not-the-password", "203.0.113.60");
    expect(result).toMatchObject({ ok: false, reason: "wrong-password" });
    expect(await getUserById(member.id)).not.toBeNull();
    expect((await findMemorialForViewer(m.id, null)).status).toBe("ok");
  });

  it.skipIf(skip)("tells the owner a few days before, then purges rows and files once, however many rounds run, catching up after downtime", async () => {
    const owner = await user();
    const soon = await memorial(owner.id);
    const due = await memorial(owner.id);
    const overdue = await memorial(owner.id);
    const fresh = await memorial(owner.id);
    for (const m of [soon, due, overdue, fresh]) expect(await deleteMemorial(m.id, as(owner))).toBe(true);
    await age("memorial_records", soon.id, RECOVERY_DAYS - 2);
    await age("memorial_records", due.id, RECOVERY_DAYS + 1);
    // Deleted before a long downtime: far past its date, removed at the first round, without a late notice.
    await age("memorial_records", overdue.id, RECOVERY_DAYS + 40);
    const gone = await user();
    const goneMemorial = await memorial(gone.id);
    await app.db.prisma.vaultFile.create({
      data: {
        userId: gone.id,
        fileName: "will.pdf",
        originalFileName: "will.pdf",
        fileSize: 3,
        fileType: "application/pdf",
        category: "document",
        storageKey: `vault/${gone.id}/will`,
        encryptionKey: "wrapped",
      },
    });
    await putObject(`vault/${gone.id}/will`, Buffer.from("abc"), "application/octet-stream");
    expect(await closeAccount(gone, gone)).toBe(true);
    await age("users", gone.id, RECOVERY_DAYS + 1);
    const leaving = await user();
    expect(await closeAccount(leaving, leaving)).toBe(true);
    await age("users", leaving.id, RECOVERY_DAYS - 1);

    // Two instances at once (on PostgreSQL truly in parallel: each claims with a row lock the other skips), then a later round.
    const rounds = await Promise.all([purgeDeleted(), purgeDeleted()]);
    const again = await keepHouse();
    expect(rounds.reduce((sum, r) => sum + r.memorials, 0) + again.memorials).toBe(2);
    expect(rounds.reduce((sum, r) => sum + r.accounts, 0) + again.accounts).toBe(1);
    expect(rounds.reduce((sum, r) => sum + r.noticed, 0) + again.noticed).toBe(2);

    const left = await app.db.sql.query<{ id: string }>(`SELECT "id" FROM "memorial_records" WHERE "userId" = $1`, [owner.id]);
    expect(left.map((r) => r.id).sort()).toEqual([soon.id, fresh.id].sort());
    expect(await app.db.prisma.tribute.count({ where: { memorialId: { in: [due.id, overdue.id] } } })).toBe(0);
    expect(await getObject(due.key)).toBeNull();
    expect(await getObject(overdue.key)).toBeNull();
    expect(await getObject(soon.key)).not.toBeNull();
    // The account past its window went with everything it held, files included.
    expect(await app.db.prisma.user.count({ where: { id: gone.id } })).toBe(0);
    expect(await app.db.sql.query(`SELECT 1 FROM "memorial_records" WHERE "id" = $1`, [goneMemorial.id])).toEqual([]);
    expect(await getObject(goneMemorial.key)).toBeNull();
    expect(await getObject(`vault/${gone.id}/will`)).toBeNull();

    // One notice each: the memorial two days from its end, and the account one day from its end; nothing for the overdue one.
    const notices = await app.db.prisma.mailOutbox.findMany({ where: { kind: "purge-notice", to: { in: [owner.email, leaving.email] } } });
    expect(notices.map((x) => (x.data as { what: string }).what).sort()).toEqual(["account", "memorial"]);
    expect((notices.find((x) => (x.data as { what: string }).what === "memorial")!.data as { title: string }).title).toBe(soon.title);
    // What is still in its window can be restored, notice or not.
    expect(await restoreMemorial(soon.id, as(owner))).toMatchObject({ ok: true });
    expect(await restoreMemorial(due.id, as(owner))).toEqual({ ok: false, reason: "not-found" });
  });
});
