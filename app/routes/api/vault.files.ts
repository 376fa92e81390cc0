import { z } from "~/utils/validation/zod";
import { listVaultFiles, uploadVaultFile, vaultAccess } from "~/models/accounts/vault.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { vaultCaller, vaultRefusal } from "~/request/vault.server";
import { base64BodyBytes, type RequestBodyHandle } from "~/utils/upload-limits";
import { VAULT_LIMITS, VAULT_MESSAGES } from "~/utils/vault-rules";

// GET /api/vault/files and POST /api/vault/files { fileName, fileType, fileData }: fileData a data URL
// of at most 10MB. The vault's checks before the body is read: the plan and the
// lock (an upload to a vault that cannot take it is refused without reading it).

const MAX_BODY_BYTES = base64BodyBytes(VAULT_LIMITS.fileBytes);
export const handle: RequestBodyHandle = { body: { maxBytes: MAX_BODY_BYTES } };

const bodySchema = z.object({
  fileName: z.string({ error: "fileName is required" }).min(1, "fileName is required").max(1000),
  fileType: z.string({ error: "fileType is required" }).max(200),
  fileData: z.string({ error: "fileData must be a data URL" }).min(1, "fileData must be a data URL"),
});

const toApi = (f: { id: string; name: string; size: number; type: string; category: string; createdAt: Date }) => ({
  id: f.id,
  originalFileName: f.name,
  fileSize: f.size,
  fileType: f.type,
  category: f.category,
  createdAt: f.createdAt.toISOString(),
});

const api = apiRoute({
  GET: endpoint({
    access: "member",
    handle: async ({ request, user }) => {
      const result = await listVaultFiles(await vaultCaller(request, user));
      return result.ok ? result.files.map(toApi) : vaultRefusal(result);
    },
  }),
  POST: endpoint({
    access: "member",
    body: bodySchema,
    file: "fileData",
    maxBodyBytes: MAX_BODY_BYTES,
    tooLargeMessage: VAULT_MESSAGES.tooLarge,
    before: async ({ request, user }) => {
      const access = await vaultAccess(await vaultCaller(request, user));
      if (!access.canUpload) return vaultRefusal({ reason: "subscription-required", message: VAULT_MESSAGES.subscriptionRequired });
      if (!access.unlocked) return vaultRefusal({ reason: "locked", message: VAULT_MESSAGES.locked });
      return null;
    },
    handle: async ({ request, user, body, file }) => {
      // Decoded to a temporary file as it arrived; a file of 10 MB at most is read here.
      if (!file) return apiError(400, "fileData must be a data URL");
      const bytes = new Uint8Array(await file.arrayBuffer());
      const result = await uploadVaultFile(await vaultCaller(request, user), { fileName: body.fileName, mimeType: body.fileType, bytes });
      if (result.ok) return created({ ...toApi(result.file), askForPassword: result.askForPassword });
      if (result.reason === "too-large") return apiError(413, result.message);
      if (result.reason === "invalid-type") return apiError(415, result.message);
      return vaultRefusal(result);
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
