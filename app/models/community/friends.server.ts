import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { holdAdvisoryLock } from "~/services/transaction-locks.server";
import { formatLongDate } from "~/utils/dates";
import { FRIEND_MESSAGES, FRIENDS_PAGE_SIZE, REQUEST_AGAIN_AFTER_DAYS, type FriendshipStatus } from "~/utils/validation/friends";

import { describeRetry, hitRateLimit, RATE_LIMITS, type RateLimited } from "../rate-limit.server";
import { wantsEmail } from "~/utils/validation/account";
import { queueMail, type Db } from "../mail/outbox.server";

// Friends (friend_requests and friendships):
// each flow one use case, shared by the /friends screens and the /api. Friendship is what the viewing rule
// reads (memorials/access-rules.ts, visibleWhere): a friendship is two rows, one per direction, added and removed
// together in one transaction, so a friends-only memorial opens to a new friend at once and closes when
// the friendship ends. Every change to one pair of members runs under that pair's lock, so two requests
// crossing (A asks B while B asks A), or an accept racing a cancel, cannot leave both or neither.

export type Person = { id: string; firstName: string; lastName: string; email: string; profileImageUrl: string | null };
const personFields = { id: true, firstName: true, lastName: true, email: true, profileImageUrl: true } as const satisfies Prisma.UserSelect;

const DAY_MS = 24 * 60 * 60_000;
const LIST_LIMIT = 100;

type Tx = Prisma.TransactionClient;

/** Serialises every change between two members (in either order) until the transaction ends. */
async function lockPair(tx: Tx, a: string, b: string) {
  const [first, second] = a < b ? [a, b] : [b, a];
  await holdAdvisoryLock(tx, `friends:${first}:${second}`);
}

const betweenPair = (a: string, b: string) => ({
  OR: [
    { senderId: a, receiverId: b },
    { senderId: b, receiverId: a },
  ],
});

/**
 * A friend whose account is deleted (kept 30 days, restorable) is left out of the lists, and comes back
 * with the account: the friendship rows stay. Pending requests go with the deletion (closeAccount).
 */
const LIVE_PERSON = { deletedAt: null } satisfies Prisma.UserWhereInput;

/** The tab counts: friends, and requests waiting for this member's answer. */
export async function friendCounts(userId: string) {
  const [friends, requests] = await Promise.all([
    prisma().friendship.count({ where: { userId, friend: LIVE_PERSON } }),
    prisma().friendRequest.count({ where: { receiverId: userId, status: "pending" } }),
  ]);
  return { friends, requests };
}

export type FriendListItem = Person & { friendsSince: Date };

/** One page of the member's friends, by name. */
export async function listFriends(userId: string, page = 1) {
  const total = await prisma().friendship.count({ where: { userId, friend: LIVE_PERSON } });
  const pages = Math.max(1, Math.ceil(total / FRIENDS_PAGE_SIZE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const rows = await prisma().friendship.findMany({
    where: { userId, friend: LIVE_PERSON },
    orderBy: [{ friend: { firstName: "asc" } }, { friend: { lastName: "asc" } }, { id: "asc" }],
    skip: (current - 1) * FRIENDS_PAGE_SIZE,
    take: FRIENDS_PAGE_SIZE,
    select: { createdAt: true, friend: { select: personFields } },
  });
  const items: FriendListItem[] = rows.map((r) => ({ ...r.friend, friendsSince: r.createdAt }));
  return { items, total, page: current, pages };
}

/** Requests waiting for this member's answer, newest first (the Requests tab's list). */
export function listReceivedRequests(userId: string) {
  return prisma().friendRequest.findMany({
    where: { receiverId: userId, status: "pending" },
    orderBy: { createdAt: "desc" },
    take: LIST_LIMIT,
    select: { id: true, createdAt: true, sender: { select: personFields } },
  });
}

/** Requests this member sent that wait for an answer (they may cancel them). */
export function listSentRequests(userId: string) {
  return prisma().friendRequest.findMany({
    where: { senderId: userId, status: "pending" },
    orderBy: { createdAt: "desc" },
    take: LIST_LIMIT,
    select: { id: true, createdAt: true, receiver: { select: personFields } },
  });
}

export type Relation = {
  status: FriendshipStatus;
  /** The waiting request between the two, when there is one (to accept, reject or cancel). */
  requestId: string | null;
  /** After a rejected request: when its sender may ask again. */
  requestAllowedFrom: Date | null;
};

/** Where two members stand, read inside a transaction or not. */
export async function relationBetween(viewerId: string, otherId: string, db: Tx = prisma(), now = new Date()): Promise<Relation> {
  const [friendship, waiting, lastRejected] = await Promise.all([
    db.friendship.findUnique({ where: { userId_friendId: { userId: viewerId, friendId: otherId } }, select: { id: true } }),
    db.friendRequest.findFirst({ where: { ...betweenPair(viewerId, otherId), status: "pending" }, select: { id: true, senderId: true } }),
    db.friendRequest.findFirst({
      where: { senderId: viewerId, receiverId: otherId, status: "rejected" },
      orderBy: { updatedAt: "desc" },
      select: { updatedAt: true },
    }),
  ]);
  if (friendship) return { status: "friends", requestId: null, requestAllowedFrom: null };
  if (waiting) return { status: waiting.senderId === viewerId ? "pending_sent" : "pending_received", requestId: waiting.id, requestAllowedFrom: null };
  const allowedFrom = lastRejected ? new Date(lastRejected.updatedAt.getTime() + REQUEST_AGAIN_AFTER_DAYS * DAY_MS) : null;
  return { status: "none", requestId: null, requestAllowedFrom: allowedFrom && allowedFrom > now ? allowedFrom : null };
}

export type SearchResult = { ok: true; self: boolean; match: (Person & Relation) | null } | RateLimited;

/**
 * Find Friends: one member by their exact email address, only if they allow it (Account → Privacy). An
 * unknown address and a member who chose not to be found give the same answer, from the same one query.
 */
export async function searchMemberByEmail(viewer: { id: string; email: string }, email: string): Promise<SearchResult> {
  const limit = await hitRateLimit(RATE_LIMITS.friendSearchPerUser, viewer.id);
  if (!limit.allowed) return rateLimited(`Too many searches. ${describeRetry(limit.retryAfterSeconds)}`, limit.retryAfterSeconds);
  if (email === viewer.email.toLowerCase()) return { ok: true, self: true, match: null };
  const person = await prisma().user.findFirst({ where: { email, discoverable: true, deletedAt: null }, select: personFields });
  if (!person) return { ok: true, self: false, match: null };
  return { ok: true, self: false, match: { ...person, ...(await relationBetween(viewer.id, person.id)) } };
}

type Refusal<R extends string> = { ok: false; reason: R; message: string; status: number };

export type SendRequestResult =
  | { ok: true; requestId: string; receiver: Person }
  | Refusal<"not-found" | "self" | "already-friends" | "already-sent" | "already-received" | "too-soon">
  | RateLimited;

/**
 * Sends a friend request, and the receiver an email about it (if they want one) in the same transaction.
 * Only to members who can be found (a member who opted out of search cannot be asked by guessing their
 * id either); never a second one while one is waiting either way; after a rejection, only once
 * REQUEST_AGAIN_AFTER_DAYS have passed.
 */
export async function sendFriendRequest(sender: { id: string }, receiverId: string, now = new Date()): Promise<SendRequestResult> {
  const limit = await hitRateLimit(RATE_LIMITS.friendRequestPerUser, sender.id);
  if (!limit.allowed) return rateLimited(`You have sent a lot of friend requests. ${describeRetry(limit.retryAfterSeconds)}`, limit.retryAfterSeconds);
  if (receiverId === sender.id) return { ok: false, reason: "self", status: 400, message: "You cannot send a friend request to yourself." };
  const receiver = await prisma().user.findFirst({ where: { id: receiverId, discoverable: true, deletedAt: null }, select: personFields });
  if (!receiver) return { ok: false, reason: "not-found", status: 404, message: FRIEND_MESSAGES.memberNotFound };
  const name = receiver.firstName;
  return prisma().$transaction(async (tx): Promise<SendRequestResult> => {
    await lockPair(tx, sender.id, receiver.id);
    const relation = await relationBetween(sender.id, receiver.id, tx, now);
    if (relation.status === "friends") return { ok: false, reason: "already-friends", status: 409, message: `You and ${name} are already friends.` };
    if (relation.status === "pending_sent") return { ok: false, reason: "already-sent", status: 409, message: `You have already sent ${name} a request.` };
    if (relation.status === "pending_received") {
      return { ok: false, reason: "already-received", status: 409, message: `${name} has already sent you a request: accept it under Requests.` };
    }
    if (relation.requestAllowedFrom) {
      return {
        ok: false,
        reason: "too-soon",
        status: 409,
        message: `${name} declined your last request. You can send another from ${formatLongDate(relation.requestAllowedFrom)}.`,
      };
    }
    const request = await tx.friendRequest.create({ data: { senderId: sender.id, receiverId: receiver.id }, select: { id: true } });
    await queueFriendRequestMail(tx, request.id);
    return { ok: true, requestId: request.id, receiver };
  });
}

export type RespondResult = { ok: true; status: "accepted" | "rejected"; sender: Person } | Refusal<"not-found">;

/** Accepts or rejects a request made to this member; accepting makes them friends both ways at once. */
export async function respondToFriendRequest(receiverId: string, requestId: string, response: "accepted" | "rejected"): Promise<RespondResult> {
  const request = await prisma().friendRequest.findFirst({
    where: { id: requestId, receiverId },
    select: { senderId: true, sender: { select: personFields } },
  });
  if (!request) return { ok: false, reason: "not-found", status: 404, message: FRIEND_MESSAGES.requestNotFound };
  return prisma().$transaction(async (tx): Promise<RespondResult> => {
    await lockPair(tx, receiverId, request.senderId);
    // Only while it waits: one cancelled or answered meanwhile is "no longer waiting".
    const changed = await tx.friendRequest.updateMany({ where: { id: requestId, receiverId, status: "pending" }, data: { status: response } });
    if (changed.count === 0) return { ok: false, reason: "not-found", status: 404, message: FRIEND_MESSAGES.requestNotFound };
    if (response === "accepted") {
      await tx.friendship.createMany({
        data: [
          { userId: receiverId, friendId: request.senderId },
          { userId: request.senderId, friendId: receiverId },
        ],
        skipDuplicates: true,
      });
    }
    return { ok: true, status: response, sender: request.sender };
  });
}

export type CancelResult = { ok: true; receiver: Person } | Refusal<"not-found">;

/** Withdraws a request this member sent that still waits; they may send another at any time. */
export async function cancelFriendRequest(senderId: string, requestId: string): Promise<CancelResult> {
  const request = await prisma().friendRequest.findFirst({
    where: { id: requestId, senderId, status: "pending" },
    select: { receiver: { select: personFields } },
  });
  if (!request) return { ok: false, reason: "not-found", status: 404, message: FRIEND_MESSAGES.requestNotFound };
  return prisma().$transaction(async (tx): Promise<CancelResult> => {
    await lockPair(tx, senderId, request.receiver.id);
    const deleted = await tx.friendRequest.deleteMany({ where: { id: requestId, senderId, status: "pending" } });
    if (deleted.count === 0) return { ok: false, reason: "not-found", status: 404, message: FRIEND_MESSAGES.requestNotFound };
    return { ok: true, receiver: request.receiver };
  });
}

export type RemoveResult = { ok: true; friend: Person } | Refusal<"not-found">;

/**
 * Ends a friendship, both directions at once: from the next request on, neither sees the other's
 * friends-only memorials (page, files and /api read the friendship each time). The accepted request goes
 * too, so either may ask again later.
 */
export async function removeFriend(userId: string, friendId: string): Promise<RemoveResult> {
  const friendship = await prisma().friendship.findUnique({ where: { userId_friendId: { userId, friendId } }, select: { friend: { select: personFields } } });
  if (!friendship) return { ok: false, reason: "not-found", status: 404, message: FRIEND_MESSAGES.notFriends };
  return prisma().$transaction(async (tx): Promise<RemoveResult> => {
    await lockPair(tx, userId, friendId);
    const deleted = await tx.friendship.deleteMany({
      where: {
        OR: [
          { userId, friendId },
          { userId: friendId, friendId: userId },
        ],
      },
    });
    if (deleted.count === 0) return { ok: false, reason: "not-found", status: 404, message: FRIEND_MESSAGES.notFriends };
    await tx.friendRequest.deleteMany({ where: { ...betweenPair(userId, friendId), status: "accepted" } });
    return { ok: true, friend: friendship.friend };
  });
}

function rateLimited(message: string, retryAfterSeconds: number): RateLimited {
  return { ok: false, reason: "rate-limited", retryAfterSeconds, message };
}

/** A person as the /api shows them. */
export function toApiPerson(person: Person) {
  return { id: person.id, firstName: person.firstName, lastName: person.lastName, email: person.email, profileImageUrl: person.profileImageUrl };
}

/** A friend request waits: its receiver hears of it, if they want to (Account → Notifications). */
export async function queueFriendRequestMail(db: Db, requestId: string) {
  const request = await db.friendRequest.findUnique({
    where: { id: requestId },
    select: { receiver: { select: { email: true, notificationPreferences: true } } },
  });
  if (!request || !wantsEmail(request.receiver.notificationPreferences, "friendRequests")) return;
  await queueMail(db, { to: request.receiver.email, kind: "friend-request", data: { requestId } });
}
