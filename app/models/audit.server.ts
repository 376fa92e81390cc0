import type { Prisma, PrismaClient } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { pageWindow } from "~/utils/paging";
import { ADMIN_PAGE_SIZE } from "~/utils/validation/admin";

// The audit log: every administrator's action, and every co-manager action on a memorial
// (invitations, acceptances, declines, removals, role changes, co-manager edits; a
// memorial's own entries are listed by listMemorialAudit), who, what, on which record, when and from
// which address. Written by the use case that acts, inside its transaction where it has one, so an
// action is never recorded without having happened nor done without being recorded. Append only: the
// site has no path that edits it, and the database refuses updates and deletes (a trigger).

type Db = PrismaClient | Prisma.TransactionClient;

/** Who acts, as the dashboard and the admin /api know them. */
/** Who is acting, as the use cases that decide and record need them: administrator or not, and from where. */
export type Actor = { id: string; email: string; isAdmin: boolean; ip: string };
export type AdminActor = Actor;

export type AuditAction =
  | "memorial.delete"
  | "memorial.restore"
  | "tribute.approve"
  | "tribute.delete"
  | "user.delete"
  | "user.restore"
  | "user.grant-admin"
  | "user.remove-admin"
  | "product.create"
  | "product.update"
  | "product.deactivate"
  | "product.delete"
  | "order.status"
  | "order.refund"
  | "order.ship"
  | "contact.status"
  | "news.fetch"
  | "memorial.co-edit"
  | "memorial.co-moderate"
  | "memorial.invite"
  | "memorial.invite-accept"
  | "memorial.invite-decline"
  | "memorial.invite-revoke"
  | "memorial.manager-remove"
  | "memorial.manager-role"
  | "memorial.successor"
  | "memorial.hand-over";

export const AUDIT_LABELS: Record<AuditAction, string> = {
  "memorial.delete": "Deleted a memorial",
  "memorial.restore": "Restored a deleted memorial",
  "tribute.approve": "Approved a tribute",
  "tribute.delete": "Deleted a tribute",
  "user.delete": "Deleted a user",
  "user.restore": "Restored a deleted account",
  "user.grant-admin": "Made a user an administrator",
  "user.remove-admin": "Removed a user's administrator rights",
  "product.create": "Created a product",
  "product.update": "Edited a product",
  "product.deactivate": "Deactivated a product (it has orders)",
  "product.delete": "Deleted a product",
  "order.status": "Changed an order's status",
  "order.refund": "Refunded an order",
  "order.ship": "Shipped an order",
  "contact.status": "Changed a contact message's status",
  "news.fetch": "Fetched news",
  "memorial.co-edit": "Edited a memorial as a co-manager",
  "memorial.co-moderate": "Moderated a tribute as a co-manager",
  "memorial.invite": "Invited a co-manager",
  "memorial.invite-accept": "Accepted an invitation to co-manage",
  "memorial.invite-decline": "Declined an invitation to co-manage",
  "memorial.invite-revoke": "Revoked an invitation",
  "memorial.manager-remove": "Removed a co-manager",
  "memorial.manager-role": "Changed a co-manager's role",
  "memorial.successor": "Changed the successor",
  "memorial.hand-over": "Handed the memorial on to its successor",
};

export async function recordAudit(db: Db, actor: AdminActor, entry: { action: AuditAction; targetType: string; targetId?: string | null; summary?: string }) {
  await db.auditLog.create({
    data: {
      actorId: actor.id,
      actorEmail: actor.email,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      summary: (entry.summary ?? "").slice(0, 1000),
      ip: actor.ip.slice(0, 64),
    },
  });
}

/** One page of the log, newest first; `search` matches the actor's email, the action or the summary. */
export async function listAudit({ search = "", page = 1 }: { search?: string; page?: number } = {}) {
  const where: Prisma.AuditLogWhereInput = search
    ? {
        OR: [
          { actorEmail: { contains: search, mode: "insensitive" } },
          { action: { contains: search, mode: "insensitive" } },
          { summary: { contains: search, mode: "insensitive" } },
          { targetId: search },
        ],
      }
    : {};
  const total = await prisma().auditLog.count({ where });
  const w = pageWindow(total, page, ADMIN_PAGE_SIZE);
  const rows = await prisma().auditLog.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: w.skip, take: w.take });
  return {
    items: rows.map((r) => ({ ...r, label: AUDIT_LABELS[r.action as AuditAction] ?? r.action, createdAt: r.createdAt.toISOString() })),
    total,
    page: w.page,
    pages: w.pages,
  };
}

/** The co-manager history of one memorial (invitations, people, co-manager edits), newest first, bounded. */
export async function listMemorialAudit(memorialId: string, take = 50) {
  const rows = await prisma().auditLog.findMany({
    where: {
      targetType: "memorial",
      targetId: memorialId,
      action: { startsWith: "memorial." },
      NOT: { action: { in: ["memorial.delete", "memorial.restore"] } },
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take,
  });
  return rows.map((r) => ({
    id: r.id,
    actorEmail: r.actorEmail,
    label: AUDIT_LABELS[r.action as AuditAction] ?? r.action,
    summary: r.summary,
    createdAt: r.createdAt.toISOString(),
  }));
}
