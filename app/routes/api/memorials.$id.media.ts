import { z } from "zod";
import { addMemorialMedia, listMediaForMemorial, MEDIA_MESSAGES, MediaRejectedError, toApiMedia } from "~/models/media.server";
import { canViewMemorial, isRecordId, MEMORIAL_NOT_FOUND, ownsMemorial } from "~/models/memorial.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { apiError, NOT_SIGNED_IN } from "~/request/api.server";
import { decodeDataUrl } from "~/request/data-url.server";
import { base64BodyBytes, MEDIA_LIMITS, type RequestBodyHandle } from "~/utils/upload-limits";
import { text } from "~/utils/validation/text";

// GET and POST /api/memorials/{id}/media (memorial-core.md §7). The list goes only to those who may
// see the memorial. The spec's client reads a 401 as "no media" (null): a visitor gets 401 for any
// memorial they cannot see, a member 404, and neither learns whether a hidden memorial exists.

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

const api = apiRoute({
  GET: endpoint({
    access: "public",
    handle: async ({ user, params }) => {
      const access = isRecordId(params.id) ? await canViewMemorial(params.id, user) : null;
      if (!access?.allowed) return user ? apiError(404, MEMORIAL_NOT_FOUND) : apiError(401, NOT_SIGNED_IN);
      return listMediaForMemorial(params.id!);
    },
  }),
  POST: endpoint({
    access: "member",
    body: bodySchema,
    maxBodyBytes: MAX_BODY_BYTES,
    tooLargeMessage: MEDIA_MESSAGES.videoSize,
    before: async ({ user, params }) => ((await ownsMemorial(params.id ?? "", user.id)) ? null : apiError(404, MEMORIAL_NOT_FOUND)),
    handle: async ({ user, params, body }) => {
      const bytes = decodeDataUrl(body.mediaData);
      if (!bytes) return apiError(400, MEDIA_MESSAGES.badDataUrl);
      try {
        const item = await addMemorialMedia(params.id!, user.id, bytes, { caption: body.caption, order: body.order ?? undefined });
        return item ? created(toApiMedia(item)) : apiError(404, MEMORIAL_NOT_FOUND);
      } catch (error) {
        if (error instanceof MediaRejectedError) return apiError(error.status, error.message);
        throw error;
      }
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
