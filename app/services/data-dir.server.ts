import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * DATA_DIR holds the embedded database, uploads, the vault's keys, the session secret and unsent mail: only
 * the server's own user may read any of it. From here on everything the process creates is
 * 0700 (folders) or 0600 (files), PGlite's own files included; what is already there (an older version's
 * files, a database made by a script) is tightened once at start-up.
 */
export function secureDataDir(dir: string) {
  process.umask(0o077);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  discardAbandonedUploads(dir);
  tighten(dir);
}

/** How long an upload may take before its temporary files count as abandoned. */
const UPLOAD_HOURS = 24;

/**
 * Uploads wait under DATA_DIR/incoming until their post is answered (readSpooledForm); a process that
 * stopped hard leaves theirs behind. Only folders a day old go: another instance on the same DATA_DIR
 * may be receiving one right now.
 */
export function discardAbandonedUploads(dir: string, now = Date.now()) {
  const incoming = path.join(dir, "incoming");
  let entries;
  try {
    entries = readdirSync(incoming, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(incoming, entry.name);
    if (now - lstatSync(full).mtimeMs > UPLOAD_HOURS * 3600_000) rmSync(full, { recursive: true, force: true });
  }
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
