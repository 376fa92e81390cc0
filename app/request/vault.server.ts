import type { VaultCaller } from "~/models/accounts/vault.server";
import type { PublicUser } from "~/models/accounts/users.server";
import { apiError } from "./api.server";
import { getSession } from "./session.server";

// The vault's lock belongs to a session, not to a member (app/models/accounts/vault.server.ts): its use cases are
// told which session is asking.
export async function vaultCaller(request: Request, user: PublicUser): Promise<VaultCaller> {
  return { user, sessionId: (await getSession(request)).id || undefined };
}

/**
 * RFC 6266 Content-Disposition for a download: an ASCII fallback and the UTF-8 name, never inline. The
 * name is an RFC 8187 ext-value: encodeURIComponent leaves ' ( ) * as they are, which attr-char does not allow.
 */
export function attachment(fileName: string) {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Headers of a vault file sent to its owner: never cached, never sniffed, always downloaded. */
export function vaultDownloadHeaders(file: { name: string; type: string; size: number }) {
  return {
    // An SVG or a text file is still only a download: nothing of the vault is ever shown inline.
    "Content-Type": file.type === "image/svg+xml" ? "application/octet-stream" : file.type,
    "Content-Disposition": attachment(file.name),
    "Content-Length": String(file.size),
    // X-Content-Type-Options: nosniff is on every answer already (server/security.ts).
    "Cache-Control": "private, no-store",
  };
}

/**
 * A vault refusal as the /api answers it: 402 Payment Required with subscriptionRequired (clients
 * look for the flag; 402 keeps 403 for "not allowed at all"), 423 Locked, 404, and 422 for a
 * file that does not open.
 */
export function vaultRefusal(result: { reason: string; message: string }) {
  if (result.reason === "subscription-required") return apiError(402, result.message, { subscriptionRequired: true });
  if (result.reason === "locked") return apiError(423, result.message, { locked: true });
  if (result.reason === "not-found") return apiError(404, result.message);
  return apiError(result.reason === "damaged" ? 422 : 400, result.message);
}
