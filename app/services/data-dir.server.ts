import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

/**
 * DATA_DIR holds the embedded database, uploads, the vault's keys, the session secret and unsent mail: only
 * the server's own user may read any of it (issue 25 §9). From here on everything the process creates is
 * 0700 (folders) or 0600 (files), PGlite's own files included; what is already there (an older version's
 * files, a database made by a script) is tightened once at start-up.
 */
export function secureDataDir(dir: string) {
  process.umask(0o077);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir);
}

function tighten(dir: string) {
  chmodIfLoose(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) tighten(full);
    else if (entry.isFile()) chmodIfLoose(full, 0o600);
  }
}

function chmodIfLoose(file: string, mode: number) {
  const current = lstatSync(file).mode & 0o777;
  if (current & 0o077) chmodSync(file, current & 0o700 ? current & 0o700 : mode);
}
