import { randomUUID } from "node:crypto";
import { prisma } from "~/services/db.server";
import { lockMemberRow } from "~/services/transaction-locks.server";
import { hashPassword, verifyPassword } from "~/services/password.server";
import { deleteObject, getObject, putObject } from "~/services/storage.server";
import { addKeyVersion, loadKeyRing, openFile, retireKeyVersion, rewrapKey, sealFile, VaultIntegrityError } from "~/services/vault-crypto.server";
import { isPaidPlan, PLANS } from "~/utils/plans";
import { passwordStrength, VAULT_LIMITS, VAULT_MESSAGES, vaultTypeOf, type VaultCategory } from "~/utils/vault-rules";
import { describeRetry, forgiveRateLimitHit, hitRateLimit, RATE_LIMITS, type RateLimited } from "../rate-limit.server";

// The encrypted vault: use cases for
// its page and its /api alike. Who may use it: members on a plan that opens it (Forever Plus; README);
// a member whose plan no longer does keeps reading and deleting what is there, but adds nothing. A vault
// with a password is open only to a session that gave it, until it has been idle for 15 minutes or the
// session ends (the vault_unlocks table). Files are checked by name, declared type and content, sealed
// (app/services/vault-crypto.server.ts) and kept through the storage service, never in the database.

export const VAULT_IDLE_MS = 15 * 60_000;

type Member = { id: string; subscriptionPlan: string; subscriptionExpiryDate: Date | null };
/** Who is asking, and through which session (the unlock belongs to a session, not to the member). */
export type VaultCaller = { user: Member; sessionId: string | undefined };

export type VaultAccess = { open: boolean; canUpload: boolean; hasPassword: boolean; unlocked: boolean };

/** Whether the member's plan opens the vault now (an expired or missed plan does not). */
export function planOpensVault(user: Member, now = new Date()) {
  const plan = PLANS[user.subscriptionPlan as keyof typeof PLANS];
  return !!plan?.vault && isPaidPlan(user.subscriptionPlan, user.subscriptionExpiryDate, now);
}

/** What this caller may do with their vault now. */
export async function vaultAccess({ user, sessionId }: VaultCaller, now = new Date()): Promise<VaultAccess> {
  const [password, files, unlock] = await Promise.all([
    prisma().vaultPassword.findUnique({ where: { userId: user.id }, select: { id: true } }),
    prisma().vaultFile.count({ where: { userId: user.id } }),
    sessionId ? prisma().vaultUnlock.findUnique({ where: { sid: sessionId }, select: { userId: true, lastUsedAt: true } }) : null,
  ]);
  const canUpload = planOpensVault(user, now);
  const unlocked = !password || (!!unlock && unlock.userId === user.id && now.getTime() - unlock.lastUsedAt.getTime() < VAULT_IDLE_MS);
  return { open: canUpload || files > 0, canUpload, hasPassword: !!password, unlocked };
}

type Refusal = { ok: false; reason: "subscription-required" | "locked" | "not-found"; message: string };

/** The checks every vault use case starts with; keeps an unlocked session's vault open while it is used. */
async function gate(caller: VaultCaller, need: "read" | "upload", now: Date): Promise<Refusal | VaultAccess> {
  const access = await vaultAccess(caller, now);
  if (need === "upload" ? !access.canUpload : !access.open) return { ok: false, reason: "subscription-required", message: VAULT_MESSAGES.subscriptionRequired };
  if (!access.unlocked) return { ok: false, reason: "locked", message: VAULT_MESSAGES.locked };
  if (access.hasPassword && caller.sessionId) await prisma().vaultUnlock.updateMany({ where: { sid: caller.sessionId }, data: { lastUsedAt: now } });
  return access;
}

// --- The password (an access gate, hashed like account passwords: losing it never loses the files) ---

export type SetPasswordResult =
  { ok: true } | { ok: false; reason: "too-weak" | "mismatch" | "exists" | "subscription-required"; message: string; field?: "password" | "confirmPassword" };

export async function setVaultPassword(caller: VaultCaller, password: string, confirmation: string): Promise<SetPasswordResult> {
  const access = await vaultAccess(caller);
  if (!access.open) return { ok: false, reason: "subscription-required", message: VAULT_MESSAGES.subscriptionRequired };
  if (access.hasPassword) return { ok: false, reason: "exists", message: "Your vault already has a password." };
  if (!passwordStrength(password).strongEnough) return { ok: false, reason: "too-weak", message: VAULT_MESSAGES.passwordTooWeak, field: "password" };
  if (!confirmation || confirmation !== password) return { ok: false, reason: "mismatch", message: VAULT_MESSAGES.passwordsMatch, field: "confirmPassword" };
  const passwordHash = await hashPassword(password);
  await prisma().$transaction(async (tx) => {
    await tx.vaultPassword.create({ data: { userId: caller.user.id, passwordHash } });
    // The session that set it is the one that knows it.
    if (caller.sessionId)
      await tx.vaultUnlock.upsert({
        where: { sid: caller.sessionId },
        create: { sid: caller.sessionId, userId: caller.user.id },
        update: { lastUsedAt: new Date() },
      });
  });
  return { ok: true };
}

export type UnlockResult = { ok: true } | RateLimited | { ok: false; reason: "wrong" | "required"; message: string };

/** Opens the vault for this session; wrong passwords count against the member and the address first. */
export async function unlockVault(caller: VaultCaller, password: string, ip: string, now = new Date()): Promise<UnlockResult> {
  if (!password.trim()) return { ok: false, reason: "required", message: VAULT_MESSAGES.passwordRequired };
  for (const [rule, subject] of [
    [RATE_LIMITS.vaultUnlockPerUser, caller.user.id],
    [RATE_LIMITS.vaultUnlockPerIp, ip],
  ] as const) {
    const limit = await hitRateLimit(rule, subject, now);
    if (!limit.allowed)
      return {
        ok: false,
        reason: "rate-limited",
        retryAfterSeconds: limit.retryAfterSeconds,
        message: `Too many vault password attempts. ${describeRetry(limit.retryAfterSeconds)}`,
      };
  }
  const stored = await prisma().vaultPassword.findUnique({ where: { userId: caller.user.id }, select: { passwordHash: true } });
  if (!stored) return { ok: true };
  if (!caller.sessionId || !(await verifyPassword(password, stored.passwordHash)))
    return { ok: false, reason: "wrong", message: VAULT_MESSAGES.invalidPassword };
  await prisma().vaultUnlock.upsert({
    where: { sid: caller.sessionId },
    create: { sid: caller.sessionId, userId: caller.user.id, lastUsedAt: now },
    update: { lastUsedAt: now },
  });
  // The right password is not an attempt against the limit: only wrong ones add up.
  await Promise.all([forgiveRateLimitHit(RATE_LIMITS.vaultUnlockPerUser, caller.user.id), forgiveRateLimitHit(RATE_LIMITS.vaultUnlockPerIp, ip)]);
  return { ok: true };
}

/** Locks the vault again for this session (the page's Lock button). */
export async function lockVault(sessionId: string | undefined) {
  if (sessionId) await prisma().vaultUnlock.deleteMany({ where: { sid: sessionId } });
}

// --- Files ---

export type VaultFileView = { id: string; name: string; size: number; type: string; category: VaultCategory; createdAt: Date };

const fileView = { id: true, originalFileName: true, fileSize: true, fileType: true, category: true, createdAt: true } as const;
const toView = (f: { id: string; originalFileName: string; fileSize: number; fileType: string; category: string; createdAt: Date }): VaultFileView => ({
  id: f.id,
  name: f.originalFileName,
  size: f.fileSize,
  type: f.fileType,
  category: f.category as VaultCategory,
  createdAt: f.createdAt,
});

export const VAULT_LIST_LIMIT = 500;

export async function listVaultFiles(caller: VaultCaller, now = new Date()): Promise<{ ok: true; files: VaultFileView[]; usedBytes: number } | Refusal> {
  const access = await gate(caller, "read", now);
  if ("ok" in access) return access;
  const [files, used] = await Promise.all([
    prisma().vaultFile.findMany({ where: { userId: caller.user.id }, orderBy: { createdAt: "desc" }, take: VAULT_LIST_LIMIT, select: fileView }),
    prisma().vaultFile.aggregate({ where: { userId: caller.user.id }, _sum: { fileSize: true } }),
  ]);
  return { ok: true, files: files.map(toView), usedBytes: used._sum.fileSize ?? 0 };
}

/**
 * The vault's files as the account download lists them: names only for a session that has unlocked the
 * vault (a name like "Mum diagnosis.pdf" is itself private); otherwise how many there are and how to get
 * the list.
 */
export async function vaultFilesForExport(caller: VaultCaller, now = new Date()) {
  const access = await vaultAccess(caller, now);
  if (!access.unlocked) {
    return { locked: true, count: await prisma().vaultFile.count({ where: { userId: caller.user.id } }), note: VAULT_MESSAGES.exportLocked };
  }
  return prisma().vaultFile.findMany({
    where: { userId: caller.user.id },
    orderBy: { createdAt: "asc" },
    select: { id: true, originalFileName: true, fileSize: true, fileType: true, category: true, createdAt: true },
  });
}

/** What a file's bytes say it is, for the kinds the vault takes; an SVG must also be free of script. */
export function contentMatches(kind: string, bytes: Uint8Array): boolean {
  const head = (text: string, offset = 0) => [...text].every((c, i) => bytes[offset + i] === c.charCodeAt(0));
  switch (kind) {
    case "JPG/JPEG":
      return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
    case "PNG":
      return head("\x89PNG\r\n\x1a\n");
    case "MP4":
      return bytes.length > 12 && head("ftyp", 4);
    case "PDF":
      return head("%PDF-");
    case "DOCX":
      return head("PK\x03\x04") && Buffer.from(bytes).includes("word/document.xml");
    case "TXT":
      return isPlainText(bytes);
    case "SVG": {
      if (!isPlainText(bytes)) return false;
      const text = Buffer.from(bytes).toString("utf8");
      // An SVG is a document that can run script in a browser: only plain drawings are kept.
      return (
        /<svg[\s>]/i.test(text) &&
        !/<script|\bon[a-z]+\s*=|javascript:|<foreignObject|<iframe|<embed|<object|<!ENTITY|<!DOCTYPE|xlink:href\s*=\s*["']?(?!#)/i.test(text)
      );
    }
    default:
      return false;
  }
}

function isPlainText(bytes: Uint8Array) {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export type UploadInput = { fileName: string; mimeType: string; bytes: Uint8Array; category?: VaultCategory | null };
export type UploadResult =
  { ok: true; file: VaultFileView; askForPassword: boolean } | Refusal | { ok: false; reason: "invalid-type" | "too-large" | "quota"; message: string };

/** The file's display name: the client's, without folders or characters that break a header, at most 255. */
function cleanName(name: string) {
  const base =
    name
      .split(/[\\/]/)
      .pop()
      ?.replace(/[\u0000-\u001f\u007f"]/g, "")
      .trim() || "file";
  return base.length > 255 ? base.slice(base.length - 255) : base;
}

async function usedVaultBytes(db: Pick<ReturnType<typeof prisma>, "vaultFile">, userId: string) {
  const used = await db.vaultFile.aggregate({ where: { userId }, _sum: { fileSize: true } });
  return used._sum.fileSize ?? 0;
}

export async function uploadVaultFile(caller: VaultCaller, input: UploadInput, now = new Date()): Promise<UploadResult> {
  const access = await gate(caller, "upload", now);
  if ("ok" in access) return access;
  const name = cleanName(input.fileName);
  const kind = vaultTypeOf(name, input.mimeType);
  if (input.bytes.byteLength > VAULT_LIMITS.fileBytes) return { ok: false, reason: "too-large", message: VAULT_MESSAGES.tooLarge };
  if (!kind || input.bytes.byteLength === 0 || !contentMatches(kind.label, input.bytes))
    return { ok: false, reason: "invalid-type", message: VAULT_MESSAGES.invalidType };
  // A quick refusal before the work; the check that counts is made again under the lock below.
  if ((await usedVaultBytes(prisma(), caller.user.id)) + input.bytes.byteLength > VAULT_LIMITS.quotaBytes)
    return { ok: false, reason: "quota", message: VAULT_MESSAGES.quota };

  const id = randomUUID();
  const storageKey = `vault/${caller.user.id}/${id}`;
  const sealed = sealFile(input.bytes, { fileId: id, userId: caller.user.id });
  await putObject(storageKey, sealed.ciphertext, "application/octet-stream");
  try {
    const stored = await prisma().$transaction(async (tx) => {
      // Parallel uploads of one member take turns here: the sum and the new row are one step.
      await lockMemberRow(tx, caller.user.id);
      const [used, before] = await Promise.all([usedVaultBytes(tx, caller.user.id), tx.vaultFile.count({ where: { userId: caller.user.id } })]);
      if (used + input.bytes.byteLength > VAULT_LIMITS.quotaBytes) return null;
      const row = await tx.vaultFile.create({
        data: {
          id,
          userId: caller.user.id,
          fileName: storageKey.slice(0, 255),
          originalFileName: name,
          fileSize: input.bytes.byteLength,
          fileType: kind.mimeTypes[0],
          category: input.category ?? kind.category,
          storageKey,
          encryptionKey: sealed.wrappedKey,
          keyVersion: sealed.keyVersion,
        },
        select: fileView,
      });
      return { row, before };
    });
    if (!stored) {
      await deleteObject(storageKey).catch(() => {});
      return { ok: false, reason: "quota", message: VAULT_MESSAGES.quota };
    }
    // The first upload into an empty vault without a password asks for one (or an acknowledged skip).
    return { ok: true, file: toView(stored.row), askForPassword: stored.before === 0 && !access.hasPassword };
  } catch (error) {
    await deleteObject(storageKey).catch(() => {});
    throw error;
  }
}

export type DownloadResult = { ok: true; file: VaultFileView; bytes: Buffer } | Refusal | { ok: false; reason: "damaged"; message: string };

/** The file's bytes, decrypted; another member's file, or one that is gone, is simply not found. */
export async function downloadVaultFile(caller: VaultCaller, fileId: string, now = new Date()): Promise<DownloadResult> {
  const access = await gate(caller, "read", now);
  if ("ok" in access) return access;
  const row = await prisma().vaultFile.findFirst({
    where: { id: fileId, userId: caller.user.id },
    select: { ...fileView, storageKey: true, encryptionKey: true, keyVersion: true },
  });
  if (!row?.storageKey) return { ok: false, reason: "not-found", message: VAULT_MESSAGES.notFound };
  const stored = await getObject(row.storageKey);
  if (!stored) return { ok: false, reason: "damaged", message: VAULT_MESSAGES.damaged };
  try {
    const bytes = openFile({ ciphertext: stored.body, wrappedKey: row.encryptionKey, keyVersion: row.keyVersion }, { fileId: row.id, userId: caller.user.id });
    return { ok: true, file: toView(row), bytes };
  } catch (error) {
    if (error instanceof VaultIntegrityError) return { ok: false, reason: "damaged", message: VAULT_MESSAGES.damaged };
    throw error;
  }
}

export async function deleteVaultFile(caller: VaultCaller, fileId: string, now = new Date()): Promise<{ ok: true } | Refusal> {
  const access = await gate(caller, "read", now);
  if ("ok" in access) return access;
  const row = await prisma().vaultFile.findFirst({ where: { id: fileId, userId: caller.user.id }, select: { id: true, storageKey: true } });
  if (!row) return { ok: false, reason: "not-found", message: VAULT_MESSAGES.notFound };
  const deleted = await prisma().vaultFile.deleteMany({ where: { id: row.id } });
  if (deleted.count === 0) return { ok: false, reason: "not-found", message: VAULT_MESSAGES.notFound };
  if (row.storageKey) await deleteObject(row.storageKey).catch((error) => console.error(`Could not delete ${row.storageKey}:`, error));
  return { ok: true };
}

/**
 * Key rotation (`npm run vault:rotate-key`): a new master key version becomes current, every file's data
 * key is re-wrapped with it (the files themselves are not touched), and with `retire` the older versions
 * no file uses any more are removed from the key file. Answers the new version and what was retired.
 */
export async function rotateVaultKeys({ retire = false }: { retire?: boolean } = {}) {
  const version = addKeyVersion();
  let rewrapped = 0;
  for (;;) {
    const batch = await prisma().vaultFile.findMany({
      where: { keyVersion: { not: version } },
      select: { id: true, userId: true, encryptionKey: true, keyVersion: true },
      take: 200,
    });
    if (batch.length === 0) break;
    for (const file of batch) {
      const next = rewrapKey({ wrappedKey: file.encryptionKey, keyVersion: file.keyVersion }, { fileId: file.id, userId: file.userId });
      await prisma().vaultFile.update({ where: { id: file.id }, data: { encryptionKey: next.wrappedKey, keyVersion: next.keyVersion } });
      rewrapped++;
    }
  }
  const retired: number[] = [];
  if (retire) {
    for (const old of Object.keys(loadKeyRing().keys)
      .map(Number)
      .filter((v) => v !== version)) {
      if ((await prisma().vaultFile.count({ where: { keyVersion: old } })) === 0) {
        retireKeyVersion(old);
        retired.push(old);
      }
    }
  }
  return { version, rewrapped, retired };
}
