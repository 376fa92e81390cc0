import { z } from "~/utils/validation/zod";
import { unlockVault } from "~/models/accounts/vault.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { rateLimitedAnswer } from "~/request/api.server";
import { clientIp } from "~/request/facts.server";
import { vaultCaller } from "~/request/vault.server";
import { VAULT_MESSAGES } from "~/utils/vault-rules";

// POST /api/vault/verify { password } → { valid }: a right password opens
// the vault for this session (15 idle minutes); wrong ones are limited per member and address.
const api = apiRoute({
  POST: endpoint({
    access: "member",
    body: z.object({ password: z.string({ error: VAULT_MESSAGES.passwordRequired }).max(200) }),
    handle: async ({ request, user, body }) => {
      const result = await unlockVault(await vaultCaller(request, user), body.password, clientIp(request));
      if (result.ok) return { valid: true };
      if (result.reason === "rate-limited") return rateLimitedAnswer(result);
      return { valid: false, message: result.message };
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
