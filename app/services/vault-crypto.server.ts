import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getEnv } from "./env.server";

// Encryption at rest for the vault. Each file has its own random
// 256-bit data key; the file is sealed with AES-256-GCM under a random 96-bit nonce, with the file's id
// and its owner's id bound as associated data (a blob moved to another file or member fails to open).
// The data key is kept only wrapped — sealed the same way under a master key of a known version — and
// the master keys live in a key file outside the database (VAULT_KEY_FILE; generated 0600 under
// DATA_DIR on first use). Rotation adds a new version and re-wraps every data key with it
// (`npm run vault:rotate-key`); a version no file uses any more can then be retired.

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

export type KeyRing = { current: number; keys: Record<number, Buffer> };
export type Binding = { fileId: string; userId: string };
export type SealedFile = { ciphertext: Buffer; wrappedKey: string; keyVersion: number };

/** A sealed file or key that does not open: altered, moved, or sealed under another key. */
export class VaultIntegrityError extends Error {
  constructor() {
    super("The file could not be decrypted: it has been altered or does not belong here.");
    this.name = "VaultIntegrityError";
  }
}

export function keyFilePath(env = getEnv()) {
  return path.resolve(env.VAULT_KEY_FILE ?? path.join(env.dataDir, "vault-keys.json"));
}

type KeyFile = { current: number; keys: Record<string, string> };

function writeKeyFile(file: string, ring: KeyRing) {
  mkdirSync(path.dirname(file), { recursive: true });
  const content: KeyFile = { current: ring.current, keys: Object.fromEntries(Object.entries(ring.keys).map(([v, k]) => [v, k.toString("base64")])) };
  const temp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temp, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
}

/**
 * The master keys, read from the key file (made, with one key, the first time it is needed). Read each
 * time, not kept: a rotation by `npm run vault:rotate-key` in another process is seen at once, so no
 * running server seals with a key that has been retired.
 */
export function loadKeyRing(file = keyFilePath()): KeyRing {
  if (!existsSync(file)) writeKeyFile(file, { current: 1, keys: { 1: randomBytes(KEY_BYTES) } });
  const parsed = JSON.parse(readFileSync(file, "utf8")) as KeyFile;
  const keys = Object.fromEntries(Object.entries(parsed.keys).map(([v, k]) => [Number(v), Buffer.from(k, "base64")]));
  if (!keys[parsed.current] || Object.values(keys).some((k) => k.length !== KEY_BYTES))
    throw new Error(`The vault key file ${file} is damaged: each key must be 32 bytes, and the current one present.`);
  return { current: parsed.current, keys };
}

/** Adds a new master key version and makes it current; answers its number. */
export function addKeyVersion(file = keyFilePath()): number {
  const ring = loadKeyRing(file);
  const next = Math.max(...Object.keys(ring.keys).map(Number)) + 1;
  const updated = { current: next, keys: { ...ring.keys, [next]: randomBytes(KEY_BYTES) } };
  writeKeyFile(file, updated);
  return next;
}

/** Removes a master key version (the caller has made sure no file still uses it). */
export function retireKeyVersion(version: number, file = keyFilePath()) {
  const ring = loadKeyRing(file);
  if (version === ring.current) throw new Error("The current key cannot be retired: rotate first.");
  const keys = { ...ring.keys };
  delete keys[version];
  writeKeyFile(file, { current: ring.current, keys });
}

function seal(key: Buffer, plain: Buffer, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

function open(key: Buffer, sealed: Buffer, aad: string): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new VaultIntegrityError();
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new VaultIntegrityError();
  }
}

const fileAad = ({ fileId, userId }: Binding) => `everlight-vault-file:${fileId}:${userId}`;
const keyAad = ({ fileId, userId }: Binding) => `everlight-vault-key:${fileId}:${userId}`;

/** Seals a file under a fresh data key, and wraps that key under the current master key. */
export function sealFile(plain: Uint8Array, binding: Binding, ring = loadKeyRing()): SealedFile {
  const dataKey = randomBytes(KEY_BYTES);
  const ciphertext = seal(dataKey, Buffer.from(plain), fileAad(binding));
  const wrappedKey = seal(ring.keys[ring.current], dataKey, keyAad(binding)).toString("base64");
  dataKey.fill(0);
  return { ciphertext, wrappedKey, keyVersion: ring.current };
}

/** The file's plain bytes; a VaultIntegrityError if anything about it is not as it was sealed. */
export function openFile(sealed: SealedFile, binding: Binding, ring = loadKeyRing()): Buffer {
  const master = ring.keys[sealed.keyVersion];
  if (!master) throw new VaultIntegrityError();
  const dataKey = open(master, Buffer.from(sealed.wrappedKey, "base64"), keyAad(binding));
  try {
    return open(dataKey, sealed.ciphertext, fileAad(binding));
  } finally {
    dataKey.fill(0);
  }
}

/** The same data key wrapped under the current master key (rotation); the file itself is untouched. */
export function rewrapKey(wrapped: { wrappedKey: string; keyVersion: number }, binding: Binding, ring = loadKeyRing()) {
  const master = ring.keys[wrapped.keyVersion];
  if (!master) throw new VaultIntegrityError();
  const dataKey = open(master, Buffer.from(wrapped.wrappedKey, "base64"), keyAad(binding));
  const rewrapped = seal(ring.keys[ring.current], dataKey, keyAad(binding)).toString("base64");
  dataKey.fill(0);
  return { wrappedKey: rewrapped, keyVersion: ring.current };
}
