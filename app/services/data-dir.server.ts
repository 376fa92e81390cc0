import { chmodSync, mkdirSync } from "node:fs";

/**
 * DATA_DIR holds the embedded database, uploads, the vault's keys, the session secret and unsent mail: only
 * the server's own user may read any of it (issue 25 §9). From here on everything the process creates is
 * 0700 (folders) or 0600 (files), PGlite's own files included; the folder itself is tightened if it
 * existed, which also closes what older versions left readable inside it.
 */
export function secureDataDir(dir: string) {
  process.umask(0o077);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}
