import { z } from "~/utils/validation/zod";
import { addMemorialMedia, listMediaForMemorial, MEDIA_MESSAGES, MediaRejectedError, toApiMedia } from "~/models/memorials/media.server";
import { apiRoute, created, endpoint, memorialNotFound } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { base64BodyBytes, MEDIA_LIMITS, type RequestBodyHandle } from "~/utils/upload-limits";
import { text } from "~/utils/validation/text";

// GET and POST /api/memorials/{id}/media. The list goes only to those who may
// see the memorial; anyone else learns nothing, not even whether it exists (memorialNotFound).

// The largest acceptable file is a video of MEDIA_LIMITS.videoBytes, as base64 with the JSON around it.
// The server lets this route read that much; the route reads it only for the memorial's owner, and
// mediaData is decoded to a temporary file as it arrives, never held in memory (`file`).
const MAX_BODY_BYTES = base64BodyBytes(MEDIA_LIMITS.videoBytes);
export const handle: RequestBodyHandle = { body: { maxBytes: MAX_BODY_BYTES } };

const bodySchema = z.object({
  mediaData: z.string({ error: MEDIA_MESSAGES.badDataUrl }).min(1, MEDIA_MESSAGES.badDataUrl),
  fileName: z.string().max(500).optional().nullable(),
  fileType: z.string().max(200).optional().nullable(),
  order: z.number({ error: "order must be a whole number" }).int("order must be a whole number").min(0).max(10_000).optional().nullable(),
  caption: text()
    .trim()
    .max(500, "The caption can be at most 500 characters")
    .optional()
    .nullable()
    .transform((v) => v || null),
});

const api = apiRoute({
  GET: endpoint({
    access: "public",
    memorial: "visible",
    handle: async ({ params }) => listMediaForMemorial(params.id!),
  }),
  POST: endpoint({
    access: "member",
    body: bodySchema,
    file: "mediaData",
    maxBodyBytes: MAX_BODY_BYTES,
    tooLargeMessage: MEDIA_MESSAGES.videoSize,
    memorial: "owned",
    handle: async ({ user, params, body, file }) => {
      if (!file) return apiError(400, MEDIA_MESSAGES.badDataUrl);
      try {
        const item = await addMemorialMedia(params.id!, user.id, file, { caption: body.caption, order: body.order ?? undefined });
        return item ? created(toApiMedia(item)) : memorialNotFound();
      } catch (error) {
        if (error instanceof MediaRejectedError) return apiError(error.status, error.message);
        throw error;
      }
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
