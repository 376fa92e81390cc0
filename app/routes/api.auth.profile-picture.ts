import { z } from "zod";
import type { Route } from "./+types/api.auth.profile-picture";
import { setProfilePicture } from "~/models/profile-picture.server";
import { apiError, json, methodNotAllowed, readJsonBody, requireApiUser, withApiErrors } from "~/services/api.server";
import { IMAGE_REJECTIONS, ImageRejectedError } from "~/services/images.server";
import { base64BodyBytes, MAX_IMAGE_BYTES, type RequestBodyHandle } from "~/utils/upload-limits";

// PUT /api/auth/profile-picture { profileImage } (commerce-and-accounts.md §7): an image data URL,
// or bare base64 (stored media appears with or without the `data:` prefix). The image rules and their
// messages (type by magic bytes, 5MB) live in the images service; here only the transport is checked.

const INVALID_DATA = "Invalid image data";
// 5 MB of image is about 6.7 MB of base64, plus a little room for the data URL prefix and the JSON
// around it (~7 MB). A larger body cannot hold an acceptable image: refused before it is kept.
const MAX_BODY_BYTES = base64BodyBytes(MAX_IMAGE_BYTES);
export const handle: RequestBodyHandle = { body: { maxBytes: MAX_BODY_BYTES } };

const bodySchema = z.object({ profileImage: z.string({ error: INVALID_DATA }).min(1, INVALID_DATA) });

const DATA_URL = /^data:(?:[\w.+-]+\/[\w.+-]+)?(?:;[\w.+-]+=[^;,]*)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The bytes of a base64 data URL or bare base64, or null when it is neither. */
function decodeImageData(value: string): Uint8Array | null {
  const prefix = value.match(DATA_URL);
  if (value.startsWith("data:") && !prefix) return null;
  const base64 = (prefix ? value.slice(prefix[0].length) : value).replace(/\s+/g, "");
  if (!base64 || base64.length % 4 === 1 || !BASE64.test(base64)) return null;
  const bytes = Buffer.from(base64, "base64");
  return bytes.length ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) : null;
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const { profileImage } = await readJsonBody(request, bodySchema, { maxBytes: MAX_BODY_BYTES, tooLargeMessage: IMAGE_REJECTIONS.size.message });
    const bytes = decodeImageData(profileImage);
    if (!bytes) return apiError(400, INVALID_DATA);
    try {
      return json(await setProfilePicture(user.id, bytes));
    } catch (error) {
      if (error instanceof ImageRejectedError) return apiError(error.status, error.message);
      throw error;
    }
  });
}
