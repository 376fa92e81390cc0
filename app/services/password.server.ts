import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { getEnv } from "./env.server";

// scrypt at OWASP's password-storage parameters (N=2^17, r=8, p=1). That needs 128·N·r = 128 MiB,
// above Node's 32 MiB default, hence maxmem. The parameters are stored with each hash so they can be
// raised later without breaking old hashes. The tests' servers lower N (PASSWORD_HASH_COST), for speed.
const params = () => ({ N: 2 ** getEnv().PASSWORD_HASH_COST, r: 8, p: 1 });
const KEY_LENGTH = 64;
/** scrypt needs 128·N·r bytes; Node allows 32 MiB unless told: twice what is needed, 1 GiB at most. */
const maxmem = (N: number, r: number) => Math.min(256 * N * r, 2 ** 30);

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize("NFKC"), salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Returns `scrypt$N$r$p$salt$hash` (base64 parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = params();
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: maxmem(N, r) });
  return ["scrypt", N, r, p, salt.toString("base64"), key.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, keyB64] = stored.split("$");
  if (scheme !== "scrypt" || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, "base64");
  const key = await scrypt(password, Buffer.from(saltB64, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: maxmem(Number(n), Number(r)),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
