import { downloadVaultFile } from "~/models/accounts/vault.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { vaultCaller, vaultDownloadHeaders, vaultRefusal } from "~/request/vault.server";

// GET /api/vault/files/{id}/download: the decrypted bytes as an attachment
// with a safe RFC 6266 name, never cached; a file that does not open says so (422), nothing is sent.
const api = apiRoute({
  GET: endpoint({
    access: "member",
    handle: async ({ request, user, params }) => {
      const result = await downloadVaultFile(await vaultCaller(request, user), params.id ?? "");
      if (result.ok) return new Response(new Uint8Array(result.bytes), { headers: vaultDownloadHeaders(result.file) });
      return vaultRefusal(result);
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
