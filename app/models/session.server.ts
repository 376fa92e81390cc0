import { randomBytes } from "node:crypto";
import { prisma } from "~/services/db.server";

// Server-side sessions (the `sessions` table): the cookie carries only the random sid, so deleting the
// row ends the session everywhere at once (DESIGN.md, sessions).

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export type SessionData = { userId?: string };

export function newSessionId() {
  return randomBytes(32).toString("base64url");
}

export async function createSessionRow(data: SessionData, expires?: Date) {
  const sid = newSessionId();
  await prisma().session.create({
    data: { sid, sess: data, userId: data.userId ?? null, expire: expires ?? new Date(Date.now() + SESSION_TTL_MS) },
  });
  return sid;
}

export async function readSessionRow(sid: string): Promise<SessionData | null> {
  const row = await prisma().session.findUnique({ where: { sid } });
  if (!row) return null;
  if (row.expire.getTime() <= Date.now()) {
    await prisma().session.deleteMany({ where: { sid } });
    return null;
  }
  return (row.sess ?? {}) as SessionData;
}

export async function updateSessionRow(sid: string, data: SessionData, expires?: Date) {
  await prisma().session.upsert({
    where: { sid },
    create: { sid, sess: data, userId: data.userId ?? null, expire: expires ?? new Date(Date.now() + SESSION_TTL_MS) },
    update: { sess: data, userId: data.userId ?? null, expire: expires ?? new Date(Date.now() + SESSION_TTL_MS) },
  });
}

export async function deleteSessionRow(sid: string) {
  await prisma().session.deleteMany({ where: { sid } });
}

export async function deleteExpiredSessions(now = new Date()) {
  return (await prisma().session.deleteMany({ where: { expire: { lt: now } } })).count;
}
