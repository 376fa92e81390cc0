import type { Route } from "./+types/vault.files.$id.download";
import { downloadVaultFile } from "~/models/accounts/vault.server";
import { requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { vaultCaller, vaultDownloadHeaders } from "~/request/vault.server";
import { VAULT_MESSAGES } from "~/utils/vault-rules";

// Downloading one vault file from the page: the owner's, decrypted, as an attachment that
// no cache keeps. Anything that stops it sends the member back to the vault with the reason.
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const result = await downloadVaultFile(await vaultCaller(request, user), params.id);
  if (result.ok) return new Response(new Uint8Array(result.bytes), { headers: vaultDownloadHeaders(result.file) });
  return redirectWithToast("/vault", { type: "error", title: VAULT_MESSAGES.downloadFailed, description: result.message });
}
