import { z } from "~/utils/validation/zod";
import { MEDIA_MESSAGES, MediaRejectedError, setMemorialPortrait } from "~/models/memorials/media.server";
import { toApiMemorial } from "~/models/memorials/records.server";
import { apiRoute, endpoint, memorialNotFound } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { base64BodyBytes, MEDIA_LIMITS, type RequestBodyHandle } from "~/utils/upload-limits";

// POST /api/memorials/{id}/profile-image { imageData, fileName, fileType }: the
// owner replaces the memorial's photo. imageData is a data URL or bare base64; what the file is comes
// from its bytes (memorials/media.server.ts), so fileName and fileType are accepted and not trusted.

// A photo of MEDIA_LIMITS.imageBytes as base64 with the JSON around it: a larger body cannot hold an
// acceptable photo. The server lets this route read that much; the route reads it only for the owner,
// and imageData is decoded to a temporary file as it arrives (`file`).
const MAX_BODY_BYTES = base64BodyBytes(MEDIA_LIMITS.imageBytes);
export const handle: RequestBodyHandle = { body: { maxBytes: MAX_BODY_BYTES } };

const bodySchema = z.object({
  imageData: z.string({ error: MEDIA_MESSAGES.badDataUrl }).min(1, MEDIA_MESSAGES.badDataUrl),
  fileName: z.string().max(500).optional().nullable(),
  fileType: z.string().max(200).optional().nullable(),
});

const api = apiRoute({
  POST: endpoint({
    access: "member",
    body: bodySchema,
    file: "imageData",
    maxBodyBytes: MAX_BODY_BYTES,
    tooLargeMessage: MEDIA_MESSAGES.imageSize,
    memorial: "owned",
    handle: async ({ user, params, file }) => {
      if (!file) return apiError(400, MEDIA_MESSAGES.badDataUrl);
      try {
        const memorial = await setMemorialPortrait(params.id!, user.id, file);
        return memorial ? toApiMemorial(memorial) : memorialNotFound();
      } catch (error) {
        if (error instanceof MediaRejectedError) return apiError(error.status, error.message);
        throw error;
      }
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
