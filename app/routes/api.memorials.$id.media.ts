import { z } from "zod";
import type { Route } from "./+types/api.memorials.$id.media";
import { addMemorialMedia, decodeDataUrl, listMediaForMemorial, MEDIA_MESSAGES, MediaRejectedError, toApiMedia } from "~/models/media.server";
import { canViewMemorial, isRecordId, ownsMemorial } from "~/models/memorial.server";
import { apiError, json, methodNotAllowed, NOT_SIGNED_IN, readJsonBody, requireApiUser, withApiErrors } from "~/services/api.server";
import { getOptionalUser } from "~/services/auth.server";
import { base64BodyBytes, MEDIA_LIMITS, type RequestBodyHandle } from "~/utils/upload-limits";
import { text } from "~/utils/validation/text";

// GET and POST /api/memorials/{id}/media (memorial-core.md §7). The list goes only to those who may
// see the memorial. The spec's client reads a 401 as "no media" (null): a visitor gets 401 for any
// memorial they cannot see, a member 404, and neither learns whether a hidden memorial exists.

const NOT_FOUND = "Memorial not found";
// The largest acceptable file is a video of MEDIA_LIMITS.videoBytes, as base64 with the JSON around it.
// The server lets this route read that much; the route reads it only for the memorial's owner.
const MAX_BODY_BYTES = base64BodyBytes(MEDIA_LIMITS.videoBytes);
export const handle: RequestBodyHandle = { body: { maxBytes: MAX_BODY_BYTES } };

const bodySchema = z.object({
  mediaData: z.string({ error: MEDIA_MESSAGES.badDataUrl }).min(1, MEDIA_MESSAGES.badDataUrl),
  fileName: z.string().max(500).optional().nullable(),
  fileType: z.string().max(200).optional().nullable(),
  order: z.number({ error: "order must be a whole number" }).int("order must be a whole number").min(0).max(10_000).optional().nullable(),
  caption: text().trim().max(500, "The caption can be at most 500 characters").optional().nullable().transform((v) => v || null),
});

export async function loader({ request, params }: Route.LoaderArgs) {
  return withApiErrors(async () => {
    const viewer = await getOptionalUser(request);
    const access = isRecordId(params.id) ? await canViewMemorial(params.id, viewer) : null;
    if (!access?.allowed) return viewer ? apiError(404, NOT_FOUND) : apiError(401, NOT_SIGNED_IN);
    return json(await listMediaForMemorial(params.id));
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    if (!(await ownsMemorial(params.id, user.id))) return apiError(404, NOT_FOUND);
    const body = await readJsonBody(request, bodySchema, { maxBytes: MAX_BODY_BYTES, tooLargeMessage: MEDIA_MESSAGES.videoSize });
    const bytes = decodeDataUrl(body.mediaData);
    if (!bytes) return apiError(400, MEDIA_MESSAGES.badDataUrl);
    try {
      const item = await addMemorialMedia(params.id, user.id, bytes, { caption: body.caption, order: body.order ?? undefined });
      if (!item) return apiError(404, NOT_FOUND);
      return json(toApiMedia(item), { status: 201 });
    } catch (error) {
      if (error instanceof MediaRejectedError) return apiError(error.status, error.message);
      throw error;
    }
  });
}
