import { z } from "~/utils/validation/zod";
import { setVaultPassword, vaultAccess } from "~/models/accounts/vault.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { vaultCaller, vaultRefusal } from "~/request/vault.server";
import { VAULT_MESSAGES } from "~/utils/vault-rules";

// GET /api/vault/password → { hasPassword } and POST /api/vault/password { password }: the vault's
// optional password, with the vault's strength rule. A member whose plan does
// not open the vault is answered 402 with subscriptionRequired, which clients look for.

const api = apiRoute({
  GET: endpoint({
    access: "member",
    handle: async ({ request, user }) => {
      const access = await vaultAccess(await vaultCaller(request, user));
      if (!access.open) return vaultRefusal({ reason: "subscription-required", message: VAULT_MESSAGES.subscriptionRequired });
      return { hasPassword: access.hasPassword };
    },
  }),
  POST: endpoint({
    access: "member",
    // The API's caller confirms the password on its own form: the body carries it once.
    body: z.object({ password: z.string({ error: VAULT_MESSAGES.passwordRequired }).min(1, VAULT_MESSAGES.passwordRequired).max(200) }),
    handle: async ({ request, user, body }) => {
      const result = await setVaultPassword(await vaultCaller(request, user), body.password, body.password);
      if (!result.ok) return result.reason === "exists" ? apiError(409, result.message) : vaultRefusal(result);
      return created({ hasPassword: true });
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
