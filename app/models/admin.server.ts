import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { holdAdvisoryLock } from "~/services/transaction-locks.server";
import { pageWindow } from "~/utils/paging";
import { ADMIN_PAGE_SIZE, type ContactStatus } from "~/utils/validation/admin";
import { stopPaymentsOf } from "./accounts/account.server";
import { recordAudit, type AdminActor } from "./audit.server";
import { closeAccount, deleteMemorial } from "./memorials/deletion.server";
import { purgeDateOf } from "~/utils/deletion";
import { isRecordId, LIVE } from "./memorials/access.server";
import { fetchNews, type FetchNewsResult } from "./news.server";
import { canModerate } from "./tributes/tributes.server";
import { getUserById, publicUserSelect, toPublic } from "./accounts/users.server";

// The admin dashboard's use cases: memorials, tributes, users, contact messages and feedback. Products
// are in commerce/products.server.ts,
// orders in commerce/orders.server.ts and commerce/order-status.server.ts, news in news.server.ts, the figures in analytics.server.ts. Each use case
// that changes something writes its audit record (audit.server.ts); every list is searched and paged in
// the database, never sent whole.

const pageOf = (total: number, page: number) => pageWindow(total, page, ADMIN_PAGE_SIZE);

/** Newest first, the id breaking ties so that a page never shows a row again or skips one. */
const newestFirst = () => [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** One page of an admin list of `total` rows, newest first: the page asked for kept within those there are, then read. */
async function newestFirstPage<T>(
  total: number,
  page: number,
  read: (window: { orderBy: ReturnType<typeof newestFirst>; skip: number; take: number }) => Promise<T[]>,
) {
  const w = pageOf(total, page);
  const rows = await read({ orderBy: newestFirst(), skip: w.skip, take: w.take });
  return { rows, total, page: w.page, pages: w.pages };
}

/** Rows with the search in any of the fields, case aside (an empty search: every row). */
function matching<W>(search: string, fields: (holds: { contains: string; mode: "insensitive" }) => W[]): { OR?: W[] } {
  return search ? { OR: fields({ contains: search, mode: "insensitive" }) } : {};
}

const name = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim();

// ───────────────────────────── memorials ─────────────────────────────

export async function listMemorialsForAdmin({ search = "", page = 1 }: { search?: string; page?: number }) {
  const where: Prisma.MemorialWhereInput = matching(search, (holds) => [
    { title: holds },
    { firstName: holds },
    { lastName: holds },
    { user: { email: holds } },
  ]);
  const total = await prisma().memorial.count({ where });
  const { rows, ...paging } = await newestFirstPage(total, page, (window) =>
    prisma().memorial.findMany({
      where,
      ...window,
      select: {
        id: true,
        title: true,
        firstName: true,
        lastName: true,
        visibility: true,
        isPublished: true,
        viewCount: true,
        createdAt: true,
        user: { select: { id: true, email: true, firstName: true, lastName: true, isAdmin: true } },
        _count: { select: { tributes: true, media: true } },
      },
    }),
  );
  return {
    items: rows.map((m) => ({
      id: m.id,
      title: m.title,
      name: name(m),
      visibility: m.visibility,
      state: m.isPublished ? "Published" : "Draft",
      views: m.viewCount,
      tributes: m._count.tributes,
      media: m._count.media,
      createdAt: m.createdAt.toISOString(),
      owner: { id: m.user.id, name: name(m.user), email: m.user.email, isAdmin: m.user.isAdmin },
    })),
    ...paging,
  };
}

/** Deletes any memorial (memorials/access-rules.ts: administrators may), its files too; false when it was gone. */
export async function deleteMemorialAsAdmin(actor: AdminActor, memorialId: string): Promise<{ ok: true; name: string } | { ok: false }> {
  if (!isRecordId(memorialId)) return { ok: false };
  const memorial = await prisma().memorial.findUnique({
    where: { id: memorialId },
    select: { firstName: true, lastName: true, user: { select: { email: true } } },
  });
  if (!memorial || !(await deleteMemorial(memorialId, actor))) return { ok: false };
  return { ok: true, name: name(memorial) };
}

// ───────────────────────────── tributes ─────────────────────────────

/** Pending tributes across the site, newest first, each saying whether this administrator may act on it. */
export async function listPendingTributesForAdmin(actor: Pick<AdminActor, "id" | "isAdmin">, { search = "", page = 1 }: { search?: string; page?: number }) {
  const where: Prisma.TributeWhereInput = {
    isApproved: false,
    memorial: LIVE,
    ...matching(search, (holds) => [{ authorName: holds }, { content: holds }, { memorial: { title: holds } }]),
  };
  const total = await prisma().tribute.count({ where });
  const { rows, ...paging } = await newestFirstPage(total, page, (window) =>
    prisma().tribute.findMany({
      where,
      ...window,
      select: {
        id: true,
        authorName: true,
        authorEmail: true,
        content: true,
        createdAt: true,
        memorial: { select: { id: true, title: true, userId: true, user: { select: { isAdmin: true, email: true } } } },
      },
    }),
  );
  return {
    items: rows.map((t) => ({
      id: t.id,
      authorName: t.authorName,
      authorEmail: t.authorEmail,
      content: t.content,
      createdAt: t.createdAt.toISOString(),
      memorial: { id: t.memorial.id, title: t.memorial.title, ownerEmail: t.memorial.user.email },
      // The one rule the memorial page uses too (tributes/tributes.server.ts canModerate).
      canAct: canModerate(actor, t.memorial),
    })),
    ...paging,
  };
}

// ───────────────────────────── users ─────────────────────────────

export async function listUsersForAdmin({ search = "", page = 1 }: { search?: string; page?: number }) {
  // Deleted accounts are listed apart, with Restore (listDeletedAccountsForAdmin).
  const where: Prisma.UserWhereInput = { deletedAt: null, ...matching(search, (holds) => [{ email: holds }, { firstName: holds }, { lastName: holds }]) };
  const total = await prisma().user.count({ where });
  const { rows, ...paging } = await newestFirstPage(total, page, (window) =>
    prisma().user.findMany({
      where,
      ...window,
      select: {
        id: true,
        email: true,
        firstName: true,
        lastName: true,
        isAdmin: true,
        subscriptionPlan: true,
        createdAt: true,
        _count: { select: { memorials: true } },
      },
    }),
  );
  return {
    items: rows.map((u) => ({
      id: u.id,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      name: name(u),
      isAdmin: u.isAdmin,
      subscriptionPlan: u.subscriptionPlan,
      memorials: u._count.memorials,
      createdAt: u.createdAt.toISOString(),
    })),
    ...paging,
  };
}

export type AdminUserResult =
  | { ok: true; user: { id: string; email: string; name: string; isAdmin: boolean }; purgeAt?: Date }
  | { ok: false; reason: "not-found" | "last-admin" | "own-rights" | "own-account" | "payments" };

// One administrator's change at a time: two admins removing each other's rights (or deleting each other)
// at the same moment must not leave the site with none.
const lockAdmins = (tx: Prisma.TransactionClient) => holdAdvisoryLock(tx, "everlight:admins");

class Refused extends Error {
  constructor(readonly reason: Exclude<AdminUserResult, { ok: true }>["reason"]) {
    super(reason);
  }
}

/**
 * Grants or removes administrator rights. The last administrator keeps theirs, and an
 * administrator removes their own only with `confirmOwn` (the form's tick box), never by accident.
 */
export async function setAdminRights(actor: AdminActor, userId: string, isAdmin: boolean, options: { confirmOwn?: boolean } = {}): Promise<AdminUserResult> {
  try {
    const user = await prisma().$transaction(async (tx) => {
      await lockAdmins(tx);
      const target = await tx.user.findUnique({ where: { id: userId }, select: { id: true, email: true, firstName: true, lastName: true, isAdmin: true } });
      if (!target) throw new Refused("not-found");
      if (target.isAdmin === isAdmin) return target;
      if (!isAdmin) {
        if (target.id === actor.id && !options.confirmOwn) throw new Refused("own-rights");
        const others = await tx.user.count({ where: { isAdmin: true, deletedAt: null, id: { not: target.id } } });
        if (others === 0) throw new Refused("last-admin");
      }
      await tx.user.update({ where: { id: target.id }, data: { isAdmin } });
      await recordAudit(tx, actor, {
        action: isAdmin ? "user.grant-admin" : "user.remove-admin",
        targetType: "user",
        targetId: target.id,
        summary: target.email,
      });
      return { ...target, isAdmin };
    });
    return { ok: true, user: { id: user.id, email: user.email, name: name(user), isAdmin: user.isAdmin } };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.reason };
    throw error;
  }
}

/**
 * Deletes a user with all their memorials, kept 30 days and restorable (closeAccount in
 * memorials/deletion.server.ts); their monthly plan payments stop first. Never oneself, never the last admin.
 */
export async function deleteUserAsAdmin(actor: AdminActor, userId: string): Promise<AdminUserResult> {
  if (userId === actor.id) return { ok: false, reason: "own-account" };
  const user = await getUserById(userId);
  if (!user) return { ok: false, reason: "not-found" };
  if (!(await stopPaymentsOf(user)).ok) return { ok: false, reason: "payments" };
  const now = new Date();
  try {
    const deleted = await closeAccount(
      user,
      actor,
      async (tx) => {
        await lockAdmins(tx);
        const others = await tx.user.count({ where: { isAdmin: true, deletedAt: null, id: { not: user.id } } });
        if (others === 0) throw new Refused("last-admin");
        await recordAudit(tx, actor, { action: "user.delete", targetType: "user", targetId: user.id, summary: `${user.email} (${name(user)})` });
      },
      now,
    );
    if (!deleted) return { ok: false, reason: "not-found" };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.reason };
    throw error;
  }
  return { ok: true, user: { id: user.id, email: user.email, name: name(user), isAdmin: user.isAdmin }, purgeAt: purgeDateOf(now) };
}

/** GET /api/admin/users: users as the /api shows them (never a password hash). */
export async function listUsersForApi({ search = "", limit = 50, offset = 0 }: { search?: string; limit?: number; offset?: number }) {
  const rows = await prisma().user.findMany({
    where: { deletedAt: null, ...matching(search, (holds) => [{ email: holds }, { firstName: holds }, { lastName: holds }]) },
    orderBy: newestFirst(),
    take: limit,
    skip: offset,
    select: publicUserSelect,
  });
  return rows.map(toPublic);
}

// ───────────────────────────── contact messages ─────────────────────────────

const contactFields = {
  id: true,
  name: true,
  email: true,
  subject: true,
  message: true,
  type: true,
  status: true,
  userId: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** Contact messages, newest first (the Contact tab), optionally of one status, searched by sender or subject. */
export async function listContactMessages({ search = "", status = null, page = 1 }: { search?: string; status?: string | null; page?: number }) {
  const where: Prisma.ContactMessageWhereInput = {
    ...(status ? { status } : {}),
    ...matching(search, (holds) => [{ name: holds }, { email: holds }, { subject: holds }]),
  };
  const total = await prisma().contactMessage.count({ where });
  const { rows, ...paging } = await newestFirstPage(total, page, (window) =>
    prisma().contactMessage.findMany({
      where,
      ...window,
      select: contactFields,
    }),
  );
  return { items: rows, ...paging };
}

/** GET /api/admin/contact-messages: newest first, bounded. */
export function listContactMessagesForApi({ limit = 50, offset = 0 } = {}) {
  return prisma().contactMessage.findMany({ orderBy: newestFirst(), skip: offset, take: limit, select: contactFields });
}

/** An administrator can set any status freely among new, read, replied and resolved. */
export async function setContactStatus(actor: AdminActor, messageId: string, status: ContactStatus) {
  return prisma().$transaction(async (tx) => {
    const found = await tx.contactMessage.findUnique({ where: { id: messageId }, select: { status: true, subject: true, email: true } });
    if (!found) return null;
    const updated = await tx.contactMessage.update({ where: { id: messageId }, data: { status }, select: contactFields });
    await recordAudit(tx, actor, {
      action: "contact.status",
      targetType: "contact_message",
      targetId: messageId,
      summary: `${found.status} → ${status}: ${found.subject} (${found.email})`,
    });
    return updated;
  });
}

// ───────────────────────────── feedback ─────────────────────────────

/** The UX answers and ratings, newest first, with the average rating over all of them. */
export async function listFeedbackForAdmin({ page = 1 }: { page?: number }) {
  const [total, average] = await Promise.all([prisma().feedback.count(), prisma().feedback.aggregate({ _avg: { rating: true }, _count: { rating: true } })]);
  const { rows, ...paging } = await newestFirstPage(total, page, (window) =>
    prisma().feedback.findMany({
      ...window,
      select: { id: true, type: true, content: true, rating: true, createdAt: true, user: { select: { email: true, firstName: true, lastName: true } } },
    }),
  );
  return {
    items: rows.map((f) => ({
      id: f.id,
      type: f.type,
      answers: parseAnswers(f.content),
      rating: f.rating,
      createdAt: f.createdAt.toISOString(),
      from: f.user ? `${name(f.user)} (${f.user.email})` : "A deleted member",
    })),
    average: average._avg.rating === null ? null : Math.round(average._avg.rating * 10) / 10,
    rated: average._count.rating,
    ...paging,
  };
}

/** GET /api/feedback for an administrator: everyone's, newest first, bounded. */
export function listAllFeedbackForApi({ limit = 50, offset = 0 } = {}) {
  return prisma().feedback.findMany({
    orderBy: newestFirst(),
    skip: offset,
    take: limit,
    select: { id: true, userId: true, type: true, content: true, rating: true, createdAt: true },
  });
}

/** feedback.content is plain text or a JSON object: answers by question, or the text as it is. */
function parseAnswers(content: string): { features: string[]; suggestions: string } {
  try {
    const value = JSON.parse(content) as Record<string, unknown>;
    if (value && typeof value === "object") {
      const features = Array.isArray(value.feature_satisfaction) ? value.feature_satisfaction.filter((f): f is string => typeof f === "string") : [];
      const suggestions = typeof value.improvement_suggestions === "string" ? value.improvement_suggestions : "";
      return { features, suggestions };
    }
  } catch {
    // plain text
  }
  return { features: [], suggestions: content };
}

// ───────────────────────────── news ─────────────────────────────

/** The News tab's and the /api's Fetch news, recorded with what it did. */
export async function fetchNewsAsAdmin(actor: AdminActor): Promise<FetchNewsResult> {
  const result = await fetchNews(actor);
  const summary = result.ok
    ? `${result.added} articles added, ${result.memorials.length} memorials drafted, ${result.feedsRead} feeds read${result.failures.length ? `, ${result.failures.length} failed` : ""}`
    : result.message;
  await recordAudit(prisma(), actor, { action: "news.fetch", targetType: "news", summary });
  return result;
}
