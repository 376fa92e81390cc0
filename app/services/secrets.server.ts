import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getEnv } from "./env.server";

// Secrets come from the environment. So that `npm start` works with nothing configured, a missing
// SESSION_SECRET is generated once and kept in DATA_DIR with 0600 permissions (several instances must
// then share DATA_DIR or, better, set SESSION_SECRET).
let cached: string[] | undefined;

export function getSessionSecrets(): string[] {
  if (cached) return cached;
  const env = getEnv();
  if (env.SESSION_SECRET) {
    cached = env.SESSION_SECRET.split(",").map((s) => s.trim());
    return cached;
  }
  const file = path.join(env.dataDir, "session-secret");
  if (!existsSync(file)) {
    mkdirSync(env.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString("base64url"), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  cached = [readFileSync(file, "utf8").trim()];
  return cached;
}
