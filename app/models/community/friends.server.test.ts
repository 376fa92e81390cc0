import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { REQUEST_AGAIN_AFTER_DAYS } from "~/utils/validation/friends";
import {
  cancelFriendRequest,
  friendCounts,
  listFriends,
  relationBetween,
  removeFriend,
  respondToFriendRequest,
  searchMemberByEmail,
  sendFriendRequest,
} from "./friends.server";
import { findMemorialForViewer } from "../memorials/access.server";
import { listMemorialsForViewer } from "../memorials/records.server";

// Friends on both databases: the statuses, the rules about repeating requests, both directions
// of a friendship added and removed together, the friends-only rule following at once, and the email.

let n = 0;
describe.each(databaseKinds)("friends on $name", (kind) => {
  const app = useAppDatabase(kind);
  const member = (overrides: { discoverable?: boolean; notificationPreferences?: object } = {}) =>
    app.db.prisma.user.create({
      data: { email: `f${Date.now().toString(36)}${n++}@example.test`, firstName: `Member${n}`, lastName: "Test", password: "x", ...overrides },
      select: { id: true, email: true, firstName: true, isAdmin: true },
    });
  const outboxFor = (to: string) => app.db.prisma.mailOutbox.findMany({ where: { to, kind: "friend-request" } });

  it.skipIf(kind.skip)("finds only members who allow it, with the same answer otherwise", async () => {
    const me = await member();
    const open = await member();
    const hidden = await member({ discoverable: false });
    expect(await searchMemberByEmail(me, open.email)).toMatchObject({ ok: true, match: { id: open.id, status: "none" } });
    const hiddenAnswer = await searchMemberByEmail(me, hidden.email);
    const unknownAnswer = await searchMemberByEmail(me, "nobody-at-all@example.test");
    expect(hiddenAnswer).toEqual({ ok: true, self: false, match: null });
    expect(unknownAnswer).toEqual(hiddenAnswer);
    expect(await searchMemberByEmail(me, me.email)).toEqual({ ok: true, self: true, match: null });
    // Nor can the hidden member be asked by id.
    expect(await sendFriendRequest(me, hidden.id)).toMatchObject({ ok: false, reason: "not-found" });
  });

  it.skipIf(kind.skip)("request, accept: friends both ways at once, the friends-only memorial opens, and closes again on removal", async () => {
    const ann = await member();
    const bob = await member();
    const memorial = await app.db.prisma.memorial.create({
      data: { userId: bob.id, title: "T", firstName: "Friends", lastName: "Only", visibility: "friends", isPublished: true },
    });
    const sent = await sendFriendRequest(ann, bob.id);
    expect(sent.ok).toBe(true);
    if (!sent.ok) return;
    expect(await outboxFor(bob.email)).toHaveLength(1);
    expect((await relationBetween(ann.id, bob.id)).status).toBe("pending_sent");
    expect((await relationBetween(bob.id, ann.id)).status).toBe("pending_received");
    // Not twice, either way.
    expect(await sendFriendRequest(ann, bob.id)).toMatchObject({ ok: false, reason: "already-sent" });
    expect(await sendFriendRequest(bob, ann.id)).toMatchObject({ ok: false, reason: "already-received" });
    expect((await findMemorialForViewer(memorial.id, ann)).status).toBe("locked");
    // Only the receiver answers.
    expect(await respondToFriendRequest(ann.id, sent.requestId, "accepted")).toMatchObject({ ok: false, reason: "not-found" });
    expect(await respondToFriendRequest(bob.id, sent.requestId, "accepted")).toMatchObject({ ok: true, status: "accepted" });
    expect(await app.db.prisma.friendship.count({ where: { OR: [{ userId: ann.id }, { userId: bob.id }] } })).toBe(2);
    expect((await relationBetween(ann.id, bob.id)).status).toBe("friends");
    expect((await findMemorialForViewer(memorial.id, ann)).status).toBe("ok");
    expect((await listMemorialsForViewer(ann, { userId: bob.id })).map((m) => m.id)).toContain(memorial.id);
    expect(await friendCounts(ann.id)).toEqual({ friends: 1, requests: 0 });
    expect((await listFriends(bob.id)).items.map((f) => f.id)).toEqual([ann.id]);
    expect(await sendFriendRequest(ann, bob.id)).toMatchObject({ ok: false, reason: "already-friends" });

    expect(await removeFriend(ann.id, bob.id)).toMatchObject({ ok: true });
    expect(await app.db.prisma.friendship.count({ where: { OR: [{ userId: ann.id }, { userId: bob.id }] } })).toBe(0);
    expect((await findMemorialForViewer(memorial.id, ann)).status).toBe("locked");
    expect(await removeFriend(ann.id, bob.id)).toMatchObject({ ok: false, reason: "not-found" });
    // Either may ask again after a removal.
    expect(await sendFriendRequest(bob, ann.id)).toMatchObject({ ok: true });
  });

  it.skipIf(kind.skip)("a rejected request may be sent again only after the waiting time; a cancelled one at once", async () => {
    const ann = await member();
    const bob = await member();
    const first = await sendFriendRequest(ann, bob.id);
    if (!first.ok) throw new Error("not sent");
    expect(await respondToFriendRequest(bob.id, first.requestId, "rejected")).toMatchObject({ ok: true, status: "rejected" });
    expect(await app.db.prisma.friendship.count({ where: { userId: ann.id } })).toBe(0);
    const relation = await relationBetween(ann.id, bob.id);
    expect(relation.status).toBe("none");
    expect(relation.requestAllowedFrom).not.toBeNull();
    expect(await sendFriendRequest(ann, bob.id)).toMatchObject({ ok: false, reason: "too-soon" });
    const later = new Date(Date.now() + (REQUEST_AGAIN_AFTER_DAYS + 1) * 24 * 3600_000);
    expect(await sendFriendRequest(ann, bob.id, later)).toMatchObject({ ok: true });
    // The rejected one cannot be answered again.
    expect(await respondToFriendRequest(bob.id, first.requestId, "accepted")).toMatchObject({ ok: false, reason: "not-found" });

    const cat = await member();
    const asked = await sendFriendRequest(cat, bob.id);
    if (!asked.ok) throw new Error("not sent");
    expect(await cancelFriendRequest(bob.id, asked.requestId)).toMatchObject({ ok: false, reason: "not-found" });
    expect(await cancelFriendRequest(cat.id, asked.requestId)).toMatchObject({ ok: true });
    expect(await respondToFriendRequest(bob.id, asked.requestId, "accepted")).toMatchObject({ ok: false, reason: "not-found" });
    expect(await sendFriendRequest(cat, bob.id)).toMatchObject({ ok: true });
  });

  it.skipIf(kind.skip)("two requests crossing at the same moment leave one", async () => {
    const ann = await member();
    const bob = await member();
    const results = await Promise.all([sendFriendRequest(ann, bob.id), sendFriendRequest(bob, ann.id)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(await app.db.prisma.friendRequest.count({ where: { OR: [{ senderId: ann.id }, { senderId: bob.id }], status: "pending" } })).toBe(1);
  });

  it.skipIf(kind.skip)("emails only members who want friend-request emails", async () => {
    const ann = await member();
    const quiet = await member({ notificationPreferences: { friendRequests: false } });
    expect(await sendFriendRequest(ann, quiet.id)).toMatchObject({ ok: true });
    expect(await outboxFor(quiet.email)).toHaveLength(0);
  });
});
