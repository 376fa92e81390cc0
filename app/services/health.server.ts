import { getDatabase } from "./db.server";

const TIMEOUT_MS = 2000;

/** Whether the database answers a trivial query within two seconds. */
export async function checkDatabase(): Promise<{ ok: boolean }> {
  try {
    const probe = getDatabase().sql.query("SELECT 1 AS ok");
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), TIMEOUT_MS).unref());
    await Promise.race([probe, timeout]);
    return { ok: true };
  } catch {
    return { ok: false };
  }
}
