import { z } from "zod";
import type { Route } from "./+types/api.memorials.$id.profile-image";
import { decodeDataUrl, MEDIA_LIMITS, MEDIA_MESSAGES, MediaRejectedError, setMemorialPortrait } from "~/models/media.server";
import { isRecordId, toApiMemorial } from "~/models/memorial.server";
import { apiError, json, methodNotAllowed, readJsonBody, requireApiUser, withApiErrors } from "~/services/api.server";

// POST /api/memorials/{id}/profile-image { imageData, fileName, fileType } (memorial-core.md §7): the
// owner replaces the memorial's photo. imageData is a data URL or bare base64; what the file is comes
// from its bytes (media.server.ts), so fileName and fileType are accepted and not trusted.

const NOT_FOUND = "Memorial not found";
// A photo of MEDIA_LIMITS.imageBytes is 4/3 as long in base64, plus room for the prefix and the JSON
// around it: a larger body cannot hold an acceptable photo and is refused before it is kept.
const MAX_BODY_BYTES = Math.ceil(MEDIA_LIMITS.imageBytes / 3) * 4 + 64 * 1024;

const bodySchema = z.object({
  imageData: z.string({ error: MEDIA_MESSAGES.badDataUrl }).min(1, MEDIA_MESSAGES.badDataUrl),
  fileName: z.string().max(500).optional().nullable(),
  fileType: z.string().max(200).optional().nullable(),
});

export function loader() {
  return methodNotAllowed("POST");
}

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const { imageData } = await readJsonBody(request, bodySchema, { maxBytes: MAX_BODY_BYTES, tooLargeMessage: MEDIA_MESSAGES.imageSize });
    if (!isRecordId(params.id)) return apiError(404, NOT_FOUND);
    const bytes = decodeDataUrl(imageData);
    if (!bytes) return apiError(400, MEDIA_MESSAGES.badDataUrl);
    try {
      const memorial = await setMemorialPortrait(params.id, user.id, bytes);
      if (!memorial) return apiError(404, NOT_FOUND);
      return json(toApiMemorial(memorial));
    } catch (error) {
      if (error instanceof MediaRejectedError) return apiError(error.status, error.message);
      throw error;
    }
  });
}
