import { z } from "zod";
import type { Route } from "./+types/api.memorials.$id.profile-image";
import { decodeDataUrl, MEDIA_MESSAGES, MediaRejectedError, setMemorialPortrait } from "~/models/media.server";
import { ownsMemorial, toApiMemorial } from "~/models/memorial.server";
import { apiError, json, methodNotAllowed, readJsonBody, requireApiUser, withApiErrors } from "~/services/api.server";
import { base64BodyBytes, MEDIA_LIMITS, type RequestBodyHandle } from "~/utils/upload-limits";

// POST /api/memorials/{id}/profile-image { imageData, fileName, fileType } (memorial-core.md §7): the
// owner replaces the memorial's photo. imageData is a data URL or bare base64; what the file is comes
// from its bytes (media.server.ts), so fileName and fileType are accepted and not trusted.

const NOT_FOUND = "Memorial not found";
// A photo of MEDIA_LIMITS.imageBytes as base64 with the JSON around it: a larger body cannot hold an
// acceptable photo. The server lets this route read that much; the route reads it only for the owner.
const MAX_BODY_BYTES = base64BodyBytes(MEDIA_LIMITS.imageBytes);
export const handle: RequestBodyHandle = { body: { maxBytes: MAX_BODY_BYTES } };

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
    if (!(await ownsMemorial(params.id, user.id))) return apiError(404, NOT_FOUND);
    const { imageData } = await readJsonBody(request, bodySchema, { maxBytes: MAX_BODY_BYTES, tooLargeMessage: MEDIA_MESSAGES.imageSize });
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
