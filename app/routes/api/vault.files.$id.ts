import { deleteVaultFile } from "~/models/accounts/vault.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { vaultCaller, vaultRefusal } from "~/request/vault.server";

// DELETE /api/vault/files/{id}: the member's own file; anyone else's is not found.
const api = apiRoute({
  DELETE: endpoint({
    access: "member",
    handle: async ({ request, user, params }) => {
      const result = await deleteVaultFile(await vaultCaller(request, user), params.id ?? "");
      return result.ok ? { message: "File deleted" } : vaultRefusal(result);
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
