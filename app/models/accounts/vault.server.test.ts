import { readFileSync, statSync } from "node:fs";
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { getObject, putObject } from "~/services/storage.server";
import { keyFilePath, loadKeyRing } from "~/services/vault-crypto.server";
import { VAULT_MESSAGES } from "~/utils/vault-rules";
import {
  deleteVaultFile,
  downloadVaultFile,
  listVaultFiles,
  rotateVaultKeys,
  setVaultPassword,
  unlockVault,
  uploadVaultFile,
  VAULT_IDLE_MS,
  vaultAccess,
  type VaultCaller,
} from "./vault.server";
import { useTempDataDir } from "../../../test/data-dir";

// The encrypted vault's use cases in one process, on PGlite and PostgreSQL: what is
// stored is ciphertext only, a flipped byte or a blob moved to another member fails to open, key rotation
// keeps every file readable, the lock holds per session and lapses, and only the allowed kinds get in.

useTempDataDir("vault");
process.env.SESSION_SECRET ??= "vault-test-secret-that-is-long-enough-0123456789";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\nSECRET-WORDS-IN-THE-PDF\n%%EOF\n");
const PNG = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(64, 1)]);
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypisom"), Buffer.alloc(64, 3)]);
const TXT = Buffer.from("The family's notes, in plain words.\n");
const SVG = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="4"/></svg>');
const SVG_WITH_SCRIPT = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const SVG_WITH_HANDLER = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>');
const DOCX = Buffer.concat([Buffer.from("PK\x03\x04"), deflateSync(Buffer.from("x")), Buffer.from("word/document.xml[Content_Types].xml")]);

describe.each(databaseKinds)("the vault on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);

  let n = 0;
  async function member(plan = "forever_plus"): Promise<VaultCaller & { sid: string }> {
    const user = await app.db.prisma.user.create({
      data: { email: `vault-${Date.now().toString(36)}-${n++}@example.test`, firstName: "Vera", lastName: "Vault", password: "x", subscriptionPlan: plan },
    });
    const sid = `sid-${user.id}`;
    await app.db.prisma.session.create({ data: { sid, sess: { userId: user.id }, userId: user.id, expire: new Date(Date.now() + 86_400_000) } });
    return { user, sessionId: sid, sid };
  }
  const upload = (caller: VaultCaller, fileName: string, mimeType: string, bytes: Buffer) => uploadVaultFile(caller, { fileName, mimeType, bytes });

  it.skipIf(skip)("keeps only ciphertext, under its own key, and gives the same bytes back", async () => {
    const vera = await member();
    const stored = await upload(vera, "will.pdf", "application/pdf", PDF);
    expect(stored).toMatchObject({ ok: true, file: { name: "will.pdf", size: PDF.length, category: "document" }, askForPassword: true });
    if (!stored.ok) return;
    const row = await app.db.prisma.vaultFile.findUniqueOrThrow({ where: { id: stored.file.id } });
    expect(row.encryptedData).toBeNull();
    const blob = (await getObject(row.storageKey!))!.body;
    expect(blob.includes("SECRET-WORDS")).toBe(false);
    expect(blob.includes("%PDF")).toBe(false);
    expect(row.encryptionKey).not.toContain(blob.subarray(0, 8).toString("base64"));
    const back = await downloadVaultFile(vera, stored.file.id);
    expect(back.ok && back.bytes.equals(PDF)).toBe(true);
    // The key file is the server's own, readable by it alone.
    expect(statSync(keyFilePath()).mode & 0o777).toBe(0o600);
  });

  it.skipIf(skip)("refuses a file whose stored bytes were altered, with a clear message", async () => {
    const vera = await member();
    const stored = await upload(vera, "notes.txt", "text/plain", TXT);
    if (!stored.ok) throw new Error("upload failed");
    const key = (await app.db.prisma.vaultFile.findUniqueOrThrow({ where: { id: stored.file.id } })).storageKey!;
    const blob = Buffer.from((await getObject(key))!.body);
    blob[20] ^= 0x01;
    await putObject(key, blob, "application/octet-stream");
    expect(await downloadVaultFile(vera, stored.file.id)).toEqual({ ok: false, reason: "damaged", message: VAULT_MESSAGES.damaged });
  });

  it.skipIf(skip)("refuses two members' blobs swapped: each is bound to its file and owner", async () => {
    const a = await member();
    const b = await member();
    const fa = await upload(a, "a.txt", "text/plain", Buffer.from("Belongs to A.\n"));
    const fb = await upload(b, "b.txt", "text/plain", Buffer.from("Belongs to B.\n"));
    if (!fa.ok || !fb.ok) throw new Error("upload failed");
    const keyOf = async (id: string) => (await app.db.prisma.vaultFile.findUniqueOrThrow({ where: { id } })).storageKey!;
    const [ka, kb] = [await keyOf(fa.file.id), await keyOf(fb.file.id)];
    const [ba, bb] = [(await getObject(ka))!.body, (await getObject(kb))!.body];
    await putObject(ka, bb, "application/octet-stream");
    await putObject(kb, ba, "application/octet-stream");
    expect(await downloadVaultFile(a, fa.file.id)).toMatchObject({ ok: false, reason: "damaged" });
    expect(await downloadVaultFile(b, fb.file.id)).toMatchObject({ ok: false, reason: "damaged" });
  });

  it.skipIf(skip)("answers another member's file id as not found, for reading and deleting", async () => {
    const owner = await member();
    const stranger = await member();
    const stored = await upload(owner, "deeds.pdf", "application/pdf", PDF);
    if (!stored.ok) throw new Error("upload failed");
    expect(await downloadVaultFile(stranger, stored.file.id)).toMatchObject({ ok: false, reason: "not-found" });
    expect(await deleteVaultFile(stranger, stored.file.id)).toMatchObject({ ok: false, reason: "not-found" });
    expect((await listVaultFiles(owner)).ok).toBe(true);
  });

  it.skipIf(skip)("takes each allowed kind, and refuses a renamed PDF, an 11 MB file, an .exe and an SVG with script", async () => {
    const vera = await member();
    for (const [name, type, bytes] of [
      ["photo.jpg", "image/jpeg", JPG],
      ["photo.jpeg", "image/jpeg", JPG],
      ["scan.png", "image/png", PNG],
      ["drawing.svg", "image/svg+xml", SVG],
      ["film.mp4", "video/mp4", MP4],
      ["will.pdf", "application/pdf", PDF],
      ["letter.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", DOCX],
      ["notes.txt", "text/plain", TXT],
    ] as const) {
      expect(await upload(vera, name, type, bytes), name).toMatchObject({ ok: true });
    }
    expect(await upload(vera, "photo.png", "image/png", PDF)).toEqual({ ok: false, reason: "invalid-type", message: "Invalid File Type" });
    expect(await upload(vera, "photo.png", "application/pdf", PNG)).toMatchObject({ message: "Invalid File Type" });
    expect(await upload(vera, "setup.exe", "application/x-msdownload", Buffer.from("MZ\x90\x00"))).toMatchObject({ message: "Invalid File Type" });
    expect(await upload(vera, "evil.svg", "image/svg+xml", SVG_WITH_SCRIPT)).toMatchObject({ message: "Invalid File Type" });
    expect(await upload(vera, "evil.svg", "image/svg+xml", SVG_WITH_HANDLER)).toMatchObject({ message: "Invalid File Type" });
    expect(await upload(vera, "big.pdf", "application/pdf", Buffer.concat([PDF, Buffer.alloc(11 * 1024 * 1024)]))).toEqual({
      ok: false,
      reason: "too-large",
      message: "File Too Large",
    });
  });

  it.skipIf(skip)("is for Forever Plus: closed to Forever, and to a member whose plan ended, who still reads and deletes what is there", async () => {
    const forever = await member("forever");
    expect(await vaultAccess(forever)).toMatchObject({ open: false, canUpload: false });
    expect(await upload(forever, "a.txt", "text/plain", TXT)).toMatchObject({ ok: false, reason: "subscription-required" });
    const lapsed = await member();
    const stored = await upload(lapsed, "a.txt", "text/plain", TXT);
    if (!stored.ok) throw new Error("upload failed");
    await app.db.prisma.user.update({ where: { id: lapsed.user.id }, data: { subscriptionPlan: "free" } });
    lapsed.user.subscriptionPlan = "free";
    expect(await vaultAccess(lapsed)).toMatchObject({ open: true, canUpload: false });
    expect(await upload(lapsed, "b.txt", "text/plain", TXT)).toMatchObject({ reason: "subscription-required" });
    expect((await downloadVaultFile(lapsed, stored.file.id)).ok).toBe(true);
    expect(await deleteVaultFile(lapsed, stored.file.id)).toEqual({ ok: true });
  });

  it.skipIf(skip)("with a password, refuses every call until this session gave it; the unlock lapses after 15 idle minutes and with the session", async () => {
    const vera = await member();
    const stored = await upload(vera, "a.txt", "text/plain", TXT);
    if (!stored.ok) throw new Error("upload failed");
    expect(await setVaultPassword(vera, "weakpass", "weakpass")).toMatchObject({ ok: false, reason: "too-weak", message: "Password too weak" });
    expect(await setVaultPassword(vera, "Str0ng-pass", "Str0ng-pas")).toMatchObject({ ok: false, message: "Passwords don't match" });
    expect(await setVaultPassword(vera, "Str0ng-pass", "Str0ng-pass")).toEqual({ ok: true });
    // The session that set it is open; another session of the same member is not.
    const other = { ...vera, sessionId: `other-${vera.user.id}` };
    await app.db.prisma.session.create({ data: { sid: other.sessionId, sess: {}, userId: vera.user.id, expire: new Date(Date.now() + 86_400_000) } });
    expect((await listVaultFiles(vera)).ok).toBe(true);
    for (const call of [
      listVaultFiles(other),
      downloadVaultFile(other, stored.file.id),
      deleteVaultFile(other, stored.file.id),
      upload(other, "b.txt", "text/plain", TXT),
    ]) {
      expect(await call).toMatchObject({ ok: false, reason: "locked" });
    }
    expect(await unlockVault(other, "", "10.0.0.1")).toMatchObject({ ok: false, message: "Password required" });
    expect(await unlockVault(other, "Wrong-pass1", "10.0.0.1")).toMatchObject({ ok: false, message: "Invalid password" });
    const t0 = new Date();
    expect(await unlockVault(other, "Str0ng-pass", "10.0.0.1", t0)).toEqual({ ok: true });
    expect((await listVaultFiles(other, new Date(t0.getTime() + 10 * 60_000))).ok).toBe(true);
    // Used ten minutes in: the fifteen idle minutes count from then.
    expect((await listVaultFiles(other, new Date(t0.getTime() + 24 * 60_000))).ok).toBe(true);
    expect(await listVaultFiles(other, new Date(t0.getTime() + 40 * 60_000))).toMatchObject({ reason: "locked" });
    // Signing out ends it too.
    await unlockVault(other, "Str0ng-pass", "10.0.0.1");
    await app.db.prisma.session.delete({ where: { sid: other.sessionId } });
    expect(await app.db.prisma.vaultUnlock.count({ where: { sid: other.sessionId } })).toBe(0);
  });

  it.skipIf(skip)("limits wrong vault passwords", async () => {
    const vera = await member();
    await setVaultPassword(vera, "Str0ng-pass", "Str0ng-pass");
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await unlockVault(vera, "Wrong-pass1", `10.2.0.${i}`));
    expect(results.at(-1)).toMatchObject({ ok: false, reason: "rate-limited" });
    expect(VAULT_IDLE_MS).toBe(15 * 60_000);
  });

  it.skipIf(skip)("rotates the master key from v1 to v2 keeping every file readable, and retires v1", async () => {
    const vera = await member();
    const files = [];
    for (let i = 0; i < 3; i++) {
      const stored = await upload(vera, `f${i}.txt`, "text/plain", Buffer.from(`File ${i}\n`));
      if (stored.ok) files.push(stored.file.id);
    }
    const before = loadKeyRing().current;
    const result = await rotateVaultKeys({ retire: true });
    expect(result.version).toBe(before + 1);
    expect(result.retired).toContain(before);
    expect(Object.keys(loadKeyRing().keys).map(Number)).toEqual([before + 1]);
    for (const [i, id] of files.entries()) {
      const back = await downloadVaultFile(vera, id);
      expect(back.ok && back.bytes.toString()).toBe(`File ${i}\n`);
    }
    expect(JSON.parse(readFileSync(keyFilePath(), "utf8")).current).toBe(before + 1);
  });
});
