import { randomUUID } from "node:crypto";
import { prisma } from "~/services/db.server";
import { CO_MANAGER_MESSAGES, INVITATION_VALID_DAYS, type InviteInput } from "~/utils/co-managers";
import { recordAudit, type Actor } from "../audit.server";
import { hashResetToken, invitationTokenFor } from "~/services/signed-links.server";
import { queueMail } from "../mail/outbox.server";
import { canDeleteOrExport, canManagePeople, isCoManagerRole, type CoManagerRole, type MemorialRole } from "./access-rules";
import { isRecordId, memorialRole } from "./access.server";
import { describeRetry, hitRateLimit, RATE_LIMIT_MESSAGES, RATE_LIMITS, type RateLimited } from "../rate-limit.server";
import { lockSuccession } from "./succession.server";

// Co-managers by invitation (docs/decisions/020-co-managers.md). The owner or a manager
// invites someone by email as an editor or a manager; the emailed link is the credential: valid once, for
// INVITATION_VALID_DAYS, only a hash of its token stored (the token is made from the row's id with the
// server's secret, like a password-reset link). Every step is written to the audit log in the same
// transaction as the change. Who may do what is decided in access-rules.ts.

const DAY_MS = 24 * 3600_000;

export type InviteResult =
  | { ok: true; invitationId: string }
  | { ok: false; reason: "forbidden" }
  | RateLimited
  | { ok: false; reason: "invalid"; errors: Partial<Record<keyof InviteInput, string[]>> };

/**
 * Invites `input.email` as `input.role`; queues the email. Managers and the owner only (canManagePeople);
 * an invitation to be the successor too (`input.successor`), the owner alone, in place of any other
 * pending one (succession.server.ts).
 */
export async function inviteCoManager(memorialId: string, actor: Actor, input: InviteInput, now = new Date()): Promise<InviteResult> {
  const role = await memorialRole(memorialId, actor);
  if (!canManagePeople(role) || (input.successor && !canDeleteOrExport(role))) return { ok: false, reason: "forbidden" };
  const memorial = await prisma().memorial.findUnique({ where: { id: memorialId }, select: { user: { select: { email: true } } } });
  if (!memorial) return { ok: false, reason: "forbidden" };
  if (memorial.user.email.toLowerCase() === input.email) return { ok: false, reason: "invalid", errors: { email: [CO_MANAGER_MESSAGES.isOwner] } };
  const existing = await prisma().memorialManager.count({ where: { memorialId, user: { email: { equals: input.email, mode: "insensitive" } } } });
  if (existing > 0) return { ok: false, reason: "invalid", errors: { email: [CO_MANAGER_MESSAGES.alreadyManages] } };
  // Each invitation emails someone: counted per member, so that the form cannot become a way to mail strangers.
  const limit = await hitRateLimit(RATE_LIMITS.invitePerUser, actor.id, now);
  if (!limit.allowed) {
    const message = `${RATE_LIMIT_MESSAGES.invite} ${describeRetry(limit.retryAfterSeconds)}`;
    return { ok: false, reason: "rate-limited", retryAfterSeconds: limit.retryAfterSeconds, message };
  }
  const id = randomUUID();
  await prisma().$transaction(async (tx) => {
    if (input.successor) await tx.memorialInvitation.updateMany({ where: { memorialId, asSuccessor: true, acceptedAt: null }, data: { asSuccessor: false } });
    await tx.memorialInvitation.create({
      data: {
        id,
        asSuccessor: !!input.successor,
        memorialId,
        email: input.email,
        role: input.role,
        tokenHash: hashResetToken(invitationTokenFor(id)),
        invitedById: actor.id,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_VALID_DAYS * DAY_MS),
      },
    });
    await queueMail(tx, { to: input.email, kind: "memorial-invitation", data: { invitationId: id } });
    await recordAudit(tx, actor, {
      action: "memorial.invite",
      targetType: "memorial",
      targetId: memorialId,
      summary: `Invited ${input.email} as ${input.role}${input.successor ? " and successor" : ""}`,
    });
  });
  return { ok: true, invitationId: id };
}

export type InvitationState = "pending" | "invalid" | "expired" | "used" | "declined" | "revoked";

export type InvitationView = {
  state: InvitationState;
  invitation: null | {
    id: string;
    memorialId: string;
    memorialName: string;
    role: CoManagerRole;
    email: string;
    invitedBy: string;
    expiresAt: Date;
    ownerId: string;
    asSuccessor: boolean;
  };
};

function stateOf(row: { acceptedAt: Date | null; declinedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now: Date): InvitationState {
  if (row.acceptedAt) return "used";
  if (row.declinedAt) return "declined";
  if (row.revokedAt) return "revoked";
  if (row.expiresAt <= now) return "expired";
  return "pending";
}

/** What an invitation link stands for now (the /invitations/:token page). */
export async function findInvitation(token: string, now = new Date()): Promise<InvitationView> {
  if (!token || token.length > 200) return { state: "invalid", invitation: null };
  const row = await prisma().memorialInvitation.findUnique({
    where: { tokenHash: hashResetToken(token) },
    include: {
      memorial: { select: { firstName: true, lastName: true, userId: true } },
      invitedBy: { select: { firstName: true, lastName: true } },
    },
  });
  // A memorial in Recently deleted: the view finds no memorial; the link is as good as gone.
  if (!row || !row.memorial || !isCoManagerRole(row.role)) return { state: "invalid", invitation: null };
  return {
    state: stateOf(row, now),
    invitation: {
      id: row.id,
      memorialId: row.memorialId,
      memorialName: `${row.memorial.firstName} ${row.memorial.lastName}`,
      role: row.role,
      email: row.email,
      invitedBy: row.invitedBy ? `${row.invitedBy.firstName} ${row.invitedBy.lastName}` : "A manager of the memorial",
      expiresAt: row.expiresAt,
      ownerId: row.memorial.userId,
      asSuccessor: row.asSuccessor,
    },
  };
}

export type AnswerResult = { ok: true; memorialId: string } | { ok: false; state: InvitationState | "owner" };

/**
 * Accepts or declines with the link, once: the row is claimed by a conditional update, so two tabs (or
 * two people holding one link) cannot both use it. Any signed-in member holding the link may answer
 * (decision 020): the link is the credential, as with a password reset.
 */
export async function answerInvitation(token: string, actor: Actor, answer: "accept" | "decline", now = new Date()): Promise<AnswerResult> {
  const found = await findInvitation(token, now);
  if (found.state !== "pending" || !found.invitation) return { ok: false, state: found.state };
  const invitation = found.invitation;
  if (answer === "accept" && invitation.ownerId === actor.id) return { ok: false, state: "owner" };
  const used = await prisma().$transaction(async (tx) => {
    const claimed = await tx.memorialInvitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, declinedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: answer === "accept" ? { acceptedAt: now, acceptedById: actor.id } : { declinedAt: now, acceptedById: actor.id },
    });
    if (claimed.count === 0) return false;
    if (answer === "accept") {
      // Whether it still makes a successor is read in the transaction: the owner may have named another meanwhile.
      const { asSuccessor } = await tx.memorialInvitation.findUniqueOrThrow({ where: { id: invitation.id }, select: { asSuccessor: true } });
      if (asSuccessor) await lockSuccession(tx, invitation.memorialId);
      if (asSuccessor) await tx.memorialManager.updateMany({ where: { memorialId: invitation.memorialId, isSuccessor: true }, data: { isSuccessor: false } });
      await tx.memorialManager.upsert({
        where: { memorialId_userId: { memorialId: invitation.memorialId, userId: actor.id } },
        create: { memorialId: invitation.memorialId, userId: actor.id, role: invitation.role, invitedById: null, isSuccessor: asSuccessor },
        update: { role: invitation.role, ...(asSuccessor ? { isSuccessor: true } : {}) },
      });
    }
    await recordAudit(tx, actor, {
      action: answer === "accept" ? "memorial.invite-accept" : "memorial.invite-decline",
      targetType: "memorial",
      targetId: invitation.memorialId,
      summary: `${answer === "accept" ? "Accepted" : "Declined"} the invitation sent to ${invitation.email} as ${invitation.role}${invitation.asSuccessor ? " and successor" : ""}`,
    });
    return true;
  });
  if (!used) return { ok: false, state: (await findInvitation(token, now)).state };
  return { ok: true, memorialId: invitation.memorialId };
}

export type PeopleResult = { ok: true } | { ok: false; reason: "forbidden" | "not-found" };

/** Withdraws a pending invitation (owner or manager). */
export async function revokeInvitation(memorialId: string, invitationId: string, actor: Actor, now = new Date()): Promise<PeopleResult> {
  if (!canManagePeople(await memorialRole(memorialId, actor))) return { ok: false, reason: "forbidden" };
  if (!isRecordId(invitationId)) return { ok: false, reason: "not-found" };
  return prisma().$transaction(async (tx) => {
    const row = await tx.memorialInvitation.findFirst({ where: { id: invitationId, memorialId }, select: { email: true } });
    const done = await tx.memorialInvitation.updateMany({
      where: { id: invitationId, memorialId, acceptedAt: null, declinedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
    if (!row || done.count === 0) return { ok: false, reason: "not-found" } as const;
    await recordAudit(tx, actor, {
      action: "memorial.invite-revoke",
      targetType: "memorial",
      targetId: memorialId,
      summary: `Revoked the invitation of ${row.email}`,
    });
    return { ok: true } as const;
  });
}

/** Removes a co-manager (owner or manager; a co-manager may also remove themselves). The owner cannot be removed. */
export async function removeCoManager(memorialId: string, userId: string, actor: Actor): Promise<PeopleResult> {
  const role = await memorialRole(memorialId, actor);
  if (!canManagePeople(role) && !(role !== "none" && userId === actor.id)) return { ok: false, reason: "forbidden" };
  if (!isRecordId(userId)) return { ok: false, reason: "not-found" };
  return prisma().$transaction(async (tx) => {
    const row = await tx.memorialManager.findUnique({
      where: { memorialId_userId: { memorialId, userId } },
      select: {
        id: true,
        role: true,
        user: { select: { email: true } },
        memorial: { select: { firstName: true, lastName: true } },
      },
    });
    if (!row) return { ok: false, reason: "not-found" } as const;
    await tx.memorialManager.deleteMany({ where: { id: row.id } });
    if (userId !== actor.id) {
      const by = await tx.user.findUnique({ where: { id: actor.id }, select: { firstName: true, lastName: true } });
      await queueMail(tx, {
        to: row.user.email,
        kind: "co-manager-removed",
        data: { name: `${row.memorial.firstName} ${row.memorial.lastName}`, removedBy: by ? `${by.firstName} ${by.lastName}` : "A manager of the memorial" },
      });
    }
    await recordAudit(tx, actor, {
      action: "memorial.manager-remove",
      targetType: "memorial",
      targetId: memorialId,
      summary: userId === actor.id ? `Left the memorial (was ${row.role})` : `Removed ${row.user.email} (was ${row.role})`,
    });
    return { ok: true } as const;
  });
}

/** Makes a co-manager an editor or a manager (owner or manager). */
export async function changeCoManagerRole(memorialId: string, userId: string, newRole: CoManagerRole, actor: Actor): Promise<PeopleResult> {
  if (!canManagePeople(await memorialRole(memorialId, actor))) return { ok: false, reason: "forbidden" };
  if (!isRecordId(userId)) return { ok: false, reason: "not-found" };
  return prisma().$transaction(async (tx) => {
    const row = await tx.memorialManager.findUnique({
      where: { memorialId_userId: { memorialId, userId } },
      select: { id: true, role: true, user: { select: { email: true } } },
    });
    if (!row) return { ok: false, reason: "not-found" } as const;
    if (row.role === newRole) return { ok: true } as const;
    await tx.memorialManager.update({ where: { id: row.id }, data: { role: newRole } });
    await recordAudit(tx, actor, {
      action: "memorial.manager-role",
      targetType: "memorial",
      targetId: memorialId,
      summary: `Made ${row.user.email} ${newRole === "manager" ? "a manager" : "an editor"} (was ${row.role})`,
    });
    return { ok: true } as const;
  });
}

export type MemorialPeople = {
  owner: { id: string; name: string; email: string };
  coManagers: { userId: string; name: string; email: string; role: CoManagerRole; since: Date; isSuccessor: boolean }[];
  pending: { id: string; email: string; role: CoManagerRole; expiresAt: Date; invitedBy: string; asSuccessor: boolean }[];
};

/** Who manages a memorial: the owner, the co-managers, and the invitations still waiting for an answer. */
export async function listMemorialPeople(memorialId: string, now = new Date()): Promise<MemorialPeople | null> {
  const memorial = await prisma().memorial.findUnique({
    where: { id: memorialId },
    select: {
      user: { select: { id: true, firstName: true, lastName: true, email: true } },
      managers: {
        orderBy: { createdAt: "asc" },
        select: { userId: true, role: true, createdAt: true, isSuccessor: true, user: { select: { firstName: true, lastName: true, email: true } } },
      },
      invitations: {
        where: { acceptedAt: null, declinedAt: null, revokedAt: null, expiresAt: { gt: now } },
        orderBy: { createdAt: "asc" },
        take: 100,
        select: { id: true, email: true, role: true, expiresAt: true, asSuccessor: true, invitedBy: { select: { firstName: true, lastName: true } } },
      },
    },
  });
  if (!memorial) return null;
  const u = memorial.user;
  return {
    owner: { id: u.id, name: `${u.firstName} ${u.lastName}`, email: u.email },
    coManagers: memorial.managers
      .filter((m) => isCoManagerRole(m.role))
      .map((m) => ({
        userId: m.userId,
        name: `${m.user.firstName} ${m.user.lastName}`,
        email: m.user.email,
        role: m.role as CoManagerRole,
        since: m.createdAt,
        isSuccessor: m.isSuccessor,
      })),
    pending: memorial.invitations
      .filter((i) => isCoManagerRole(i.role))
      .map((i) => ({
        id: i.id,
        email: i.email,
        role: i.role as CoManagerRole,
        expiresAt: i.expiresAt,
        invitedBy: i.invitedBy ? `${i.invitedBy.firstName} ${i.invitedBy.lastName}` : "",
        asSuccessor: i.asSuccessor,
      })),
  };
}

/** The memorials a member co-manages, for My Memorials' "Shared with me". */
export async function listCoManagedMemorials(userId: string) {
  const rows = await prisma().memorialManager.findMany({
    where: { userId, memorial: { is: {} } },
    orderBy: { createdAt: "desc" },
    take: 100,
    select: {
      role: true,
      memorial: {
        select: { id: true, firstName: true, lastName: true, isPublished: true, visibility: true, user: { select: { firstName: true, lastName: true } } },
      },
    },
  });
  return rows.map((r) => ({
    role: r.role as CoManagerRole,
    id: r.memorial.id,
    name: `${r.memorial.firstName} ${r.memorial.lastName}`,
    isPublished: r.memorial.isPublished,
    visibility: r.memorial.visibility,
    ownerName: `${r.memorial.user.firstName} ${r.memorial.user.lastName}`,
  }));
}

/** The facts of the invitation email, or null once it can no longer be used. */
export async function invitationMailFacts(invitationId: string, now = new Date()) {
  const row = await prisma().memorialInvitation.findUnique({
    where: { id: invitationId },
    include: { memorial: { select: { firstName: true, lastName: true } }, invitedBy: { select: { firstName: true, lastName: true } } },
  });
  if (!row || !row.memorial || stateOf(row, now) !== "pending") return null;
  return {
    email: row.email,
    role: row.role as CoManagerRole,
    memorialName: `${row.memorial.firstName} ${row.memorial.lastName}`,
    invitedBy: row.invitedBy ? `${row.invitedBy.firstName} ${row.invitedBy.lastName}` : "A manager of the memorial",
    expiresAt: row.expiresAt,
    asSuccessor: row.asSuccessor,
    token: invitationTokenFor(row.id),
  };
}

export type { MemorialRole };
