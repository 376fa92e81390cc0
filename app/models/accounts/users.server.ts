import { Prisma } from "~/generated/prisma/client";
import { getDatabase, prisma } from "~/services/db.server";
import { driverRows, sqlQuery } from "~/services/sql-statements.server";
import { publicUrl } from "~/services/env.server";
import type { Visibility } from "~/utils/validation/account-rules";
import { hashPassword, verifyPassword } from "~/services/password.server";
import { hitLoginLimits, recordLoginSuccess } from "../rate-limit.server";
import { listExportsOfUser } from "../memorials/export.server";
import { vaultFilesForExport, type VaultCaller } from "./vault.server";
import { notificationChoices, type NotificationKey, type NotificationPreferences } from "~/utils/validation/account";

// Users: accounts, profiles and settings. The password hash never leaves this module: every function
// that returns a user returns a PublicUser.

export const publicUserSelect = {
  id: true,
  email: true,
  firstName: true,
  lastName: true,
  bio: true,
  profileImageUrl: true,
  isAdmin: true,
  subscriptionPlan: true,
  subscriptionExpiryDate: true,
  defaultVisibility: true,
  discoverable: true,
  notificationPreferences: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.UserSelect;

type UserRow = Prisma.UserGetPayload<{ select: typeof publicUserSelect }>;
export type PublicUser = Omit<UserRow, "notificationPreferences" | "defaultVisibility"> & {
  defaultVisibility: Visibility;
  notificationPreferences: NotificationPreferences;
};

export function toPublic(row: UserRow): PublicUser {
  return {
    ...row,
    defaultVisibility: row.defaultVisibility as PublicUser["defaultVisibility"],
    notificationPreferences: notificationChoices(row.notificationPreferences),
  };
}

export async function getUserById(id: string): Promise<PublicUser | null> {
  // A deleted account is nobody's: its sessions went with it, and no other way in finds it.
  const row = await prisma().user.findFirst({ where: { id, deletedAt: null }, select: publicUserSelect });
  return row ? toPublic(row) : null;
}

const DAY_MS = 86_400_000;

/**
 * The columns of publicUserSelect and "lastActiveAt", from "users" as `u`, each time as UTC (both drivers read
 * a time with its zone the same, whatever the process's own zone).
 */
const SIGNED_IN_COLUMNS = [...Object.keys(publicUserSelect), "lastActiveAt"]
  .map((column) => (/At$|Date$/.test(column) ? `u."${column}" AT TIME ZONE 'UTC' AS "${column}"` : `u."${column}"`))
  .join(", ");

const signedInUser = sqlQuery({
  name: "users.signedIn",
  columns: {
    id: "text",
    email: "text",
    firstName: "text",
    lastName: "text",
    bio: "text | null",
    profileImageUrl: "text | null",
    isAdmin: "bool",
    subscriptionPlan: "text",
    subscriptionExpiryDate: "timestamptz | null",
    defaultVisibility: "text",
    discoverable: "bool",
    notificationPreferences: "jsonb",
    createdAt: "timestamptz",
    updatedAt: "timestamptz",
    lastActiveAt: "timestamptz",
  },
  sql: (by: { id: string } | { sid: string; now: Date }) =>
    Prisma.sql`SELECT ${Prisma.raw(SIGNED_IN_COLUMNS)} ${
      "id" in by
        ? Prisma.sql`FROM "users" u WHERE u."id" = ${by.id}`
        : Prisma.sql`FROM "sessions" s JOIN "users" u ON u."id" = s."userId" WHERE s."sid" = ${by.sid} AND s."expire" > ${by.now}`
    } AND u."deletedAt" IS NULL LIMIT 1`,
  examples: [[{ id: "user" }], [{ sid: "sid", now: new Date(0) }]],
});

/**
 * The member a session belongs to, noting that they were seen: "lastActiveAt" moves at most once a day
 * (one conditional update, so parallel requests write once), and seeing them cancels any reminder that
 * their memorials are about to pass to their successors (memorials/succession.server.ts).
 */
export function getSignedInUser(id: string, now = new Date()): Promise<PublicUser | null> {
  return findSignedIn({ id }, now);
}

/**
 * getSignedInUser for the member a live session belongs to, found by the session id in one statement with
 * the session (every signed-in request asks both): null for no such session, an expired one (housekeeping
 * deletes it), or a deleted account.
 */
export function getSessionUser(sid: string, now = new Date()): Promise<PublicUser | null> {
  return findSignedIn({ sid, now }, now);
}

/**
 * One statement past Prisma, for every signed-in request that is not a kept page: Prisma's own way cost a form
 * post more than the statement itself. The test beside it holds it to getUserById's answer.
 */
async function findSignedIn(by: { id: string } | { sid: string; now: Date }, now: Date): Promise<PublicUser | null> {
  const [row] = await driverRows(getDatabase().sql, signedInUser(by));
  if (!row) return null;
  const { lastActiveAt, ...user } = row;
  if (now.getTime() - lastActiveAt.getTime() >= DAY_MS) await noteActivity(user.id, now);
  return toPublic(user);
}

/** The member was seen now (a page while signed in, or signing in). */
export async function noteActivity(id: string, now = new Date()) {
  await prisma().user.updateMany({
    where: { id, lastActiveAt: { lt: new Date(now.getTime() - 60_000) } },
    data: { lastActiveAt: now, inactivityReminders: 0, inactivityReminderAt: null },
  });
}

export class EmailTakenError extends Error {
  constructor() {
    super("email taken");
  }
}

export async function createUser(input: { email: string; password: string; firstName: string; lastName: string }): Promise<PublicUser> {
  const password = await hashPassword(input.password);
  try {
    const row = await prisma().user.create({
      data: { email: input.email.toLowerCase(), firstName: input.firstName, lastName: input.lastName, password },
      select: publicUserSelect,
    });
    return toPublic(row);
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw new EmailTakenError();
    throw error;
  }
}

// A real hash of a throw-away password, computed once: an unknown email costs the same scrypt work as
// a wrong password, so the response time does not tell which it was.
let dummyHash: Promise<string> | undefined;

/**
 * The user for this email and password, or null; same work whether or not the email exists. A deleted
 * account (within its 30 days) answers with its `deletedAt`: only the right password learns it is there.
 */
export async function verifyLogin(email: string, password: string): Promise<(PublicUser & { deletedAt: Date | null; removedByModeration: boolean }) | null> {
  const row = await prisma().user.findUnique({
    where: { email: email.toLowerCase() },
    select: { ...publicUserSelect, password: true, deletedAt: true, removedByModeration: true },
  });
  if (!row) {
    dummyHash ??= hashPassword("not-a-real-password-0");
    await verifyPassword(password, await dummyHash);
    return null;
  }
  const { password: hash, deletedAt, removedByModeration, ...user } = row;
  return (await verifyPassword(password, hash)) ? { ...toPublic(user), deletedAt, removedByModeration } : null;
}

export type SignInResult =
  | { ok: true; user: PublicUser }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "rate-limited"; retryAfterSeconds: number; message: string }
  | { ok: false; reason: "deleted"; userId: string; deletedAt: Date }
  | { ok: false; reason: "removed" };

/**
 * Sign-in, for the /login form and POST /api/auth/login alike: the attempt is counted before any
 * password work, so parallel guesses cannot outrun the limit; a success clears the email's count.
 */
export async function signIn(email: string, password: string, ip: string): Promise<SignInResult> {
  const limit = await hitLoginLimits(email, ip);
  if (!limit.allowed) return { ok: false, reason: "rate-limited", retryAfterSeconds: limit.retryAfterSeconds, message: limit.message };
  const found = await verifyLogin(email, password);
  if (!found) return { ok: false, reason: "invalid" };
  await recordLoginSuccess(email, ip);
  const { deletedAt, removedByModeration, ...user } = found;
  // The right password for an account an administrator removed: no session and no way back from here.
  if (deletedAt && removedByModeration) return { ok: false, reason: "removed" };
  // The right password for a deleted account: no session, but the offer to restore it (/login).
  if (deletedAt) return { ok: false, reason: "deleted", userId: user.id, deletedAt };
  await noteActivity(user.id);
  return { ok: true, user };
}

export async function checkPassword(userId: string, password: string): Promise<boolean> {
  const row = await prisma().user.findUnique({ where: { id: userId }, select: { password: true } });
  return row ? verifyPassword(password, row.password) : false;
}

export async function updateProfile(userId: string, input: { firstName: string; lastName: string; bio: string | null }) {
  return toPublic(await prisma().user.update({ where: { id: userId }, data: input, select: publicUserSelect }));
}

export async function updateProfileImage(userId: string, profileImageUrl: string | null) {
  return toPublic(await prisma().user.update({ where: { id: userId }, data: { profileImageUrl }, select: publicUserSelect }));
}

export async function updatePrivacy(userId: string, input: { defaultVisibility: Visibility; discoverable: boolean }) {
  return toPublic(await prisma().user.update({ where: { id: userId }, data: input, select: publicUserSelect }));
}

export async function updateNotifications(userId: string, prefs: NotificationPreferences) {
  return toPublic(await prisma().user.update({ where: { id: userId }, data: { notificationPreferences: prefs }, select: publicUserSelect }));
}

/** One kind of notification email turned off, from an email's unsubscribe link (no sign-in needed). */
export async function turnOffNotification(userId: string, topic: NotificationKey) {
  const row = await prisma().user.findUnique({ where: { id: userId }, select: { notificationPreferences: true } });
  if (!row) return;
  const prefs = { ...notificationChoices(row.notificationPreferences), [topic]: false };
  await prisma().user.update({ where: { id: userId }, data: { notificationPreferences: prefs } });
}

/**
 * Everything we hold about the user, for the Account tab's download (UK GDPR right of access). The vault's
 * file names are vault content: listed only for a session that has unlocked the vault.
 */
export async function exportUserData(caller: VaultCaller) {
  const userId = caller.user.id;
  const db = prisma();
  const [user, memorials, orders, feedback, contactMessages, friendships, cartItems, vaultFiles, planPurchases, exports] = await Promise.all([
    getUserById(userId),
    db.memorial.findMany({
      where: { userId },
      orderBy: { createdAt: "asc" },
      include: {
        media: { select: { id: true, mediaUrl: true, mediaType: true, caption: true, order: true, createdAt: true } },
        tributes: { select: { id: true, authorName: true, authorEmail: true, content: true, isApproved: true, createdAt: true } },
      },
    }),
    db.order.findMany({ where: { userId }, include: { items: { omit: { book: true } } }, orderBy: { createdAt: "asc" } }),
    db.feedback.findMany({ where: { userId }, orderBy: { createdAt: "asc" } }),
    db.contactMessage.findMany({ where: { userId }, orderBy: { createdAt: "asc" } }),
    db.friendship.findMany({
      where: { userId },
      select: { createdAt: true, friend: { select: { firstName: true, lastName: true, email: true } } },
    }),
    db.cartItem.findMany({ where: { userId } }),
    // Vault files are listed, not included: their contents are downloaded from the vault itself.
    vaultFilesForExport(caller),
    // Plans bought and every payment and refund of them (data portability).
    db.planPurchase.findMany({
      where: { userId },
      orderBy: { createdAt: "asc" },
      include: { payments: { orderBy: { number: "asc" }, include: { refunds: { orderBy: { createdAt: "asc" } } } } },
    }),
    listExportsOfUser(userId),
  ]);
  // Each memorial links the page where its whole copy (photos, videos, tributes: a ZIP) is made and downloaded.
  const site = publicUrl();
  const withCopies = memorials.map((m) => ({
    ...m,
    copy: {
      page: `${site}/memorials/${m.id}/export`,
      exports: exports
        .filter((e) => e.memorialId === m.id)
        .map((e) => ({ status: e.status, requestedAt: e.createdAt, readyAt: e.readyAt, expiresAt: e.expiresAt, fileName: e.fileName })),
    },
  }));
  return {
    exportedAt: new Date().toISOString(),
    user,
    memorials: withCopies,
    orders,
    planPurchases,
    feedback,
    contactMessages,
    friends: friendships,
    cartItems,
    vaultFiles,
  };
}
