import { z } from "~/utils/validation/zod";
import { setProfilePicture } from "~/models/accounts/profile-picture.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { IMAGE_REJECTIONS, ImageRejectedError } from "~/services/images.server";
import { base64BodyBytes, MAX_IMAGE_BYTES, type RequestBodyHandle } from "~/utils/upload-limits";

// PUT /api/auth/profile-picture { profileImage }: an image data URL, or bare
// base64 (stored media appears with or without the `data:` prefix). The image rules and their messages
// (type by magic bytes, 5MB) live in the images service; here only the transport is checked.

const INVALID_DATA = "Invalid image data";
// 5 MB of image as base64 with the JSON around it: a larger body cannot hold an acceptable image.
const MAX_BODY_BYTES = base64BodyBytes(MAX_IMAGE_BYTES);
export const handle: RequestBodyHandle = { body: { maxBytes: MAX_BODY_BYTES } };

const bodySchema = z.object({ profileImage: z.string({ error: INVALID_DATA }).min(1, INVALID_DATA) });

const api = apiRoute({
  PUT: endpoint({
    access: "member",
    body: bodySchema,
    file: "profileImage",
    maxBodyBytes: MAX_BODY_BYTES,
    tooLargeMessage: IMAGE_REJECTIONS.size.message,
    handle: async ({ user, file }) => {
      // Decoded to a temporary file as it arrived; an image of 5 MB at most is read here.
      if (!file) return apiError(400, INVALID_DATA);
      try {
        return await setProfilePicture(user.id, new Uint8Array(await file.arrayBuffer()));
      } catch (error) {
        if (error instanceof ImageRejectedError) return apiError(error.status, error.message);
        throw error;
      }
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
