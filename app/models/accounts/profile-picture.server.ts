import { randomUUID } from "node:crypto";
import { getUserById, updateProfileImage, type PublicUser } from "~/models/accounts/users.server";
import { detectImageType, ImageRejectedError, MAX_IMAGE_BYTES, toWebp } from "~/services/images.server";
import { deleteObject, objectUrl, putObject } from "~/services/storage.server";
import { AVATAR_PREFIX, deleteAvatarObject } from "~/services/avatars.server";

// Profile pictures, shared by the Profile tab's form and the
// /api's PUT /api/auth/profile-picture. Each upload gets a fresh random key, so its URL can be cached
// forever (app/routes/media.$.ts) and an old picture's address stops working once it is replaced.

const AVATAR_SIZE = 256;

/**
 * Validates (size first, then what the bytes are), makes a 256×256 WebP, stores it and points the user
 * at it, then deletes the previous avatar. Bad input throws ImageRejectedError with nothing saved.
 */
export async function setProfilePicture(userId: string, bytes: Uint8Array): Promise<PublicUser> {
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new ImageRejectedError("size");
  if (!detectImageType(bytes)) throw new ImageRejectedError("type");
  const webp = await toWebp(bytes, { width: AVATAR_SIZE, height: AVATAR_SIZE, fit: "cover" });

  const before = await getUserById(userId);
  if (!before) throw new Error(`No user ${userId}`);
  const key = `${AVATAR_PREFIX}${randomUUID()}.webp`;
  await putObject(key, webp, "image/webp");
  let user: PublicUser;
  try {
    user = await updateProfileImage(userId, objectUrl(key));
  } catch (error) {
    await deleteObject(key).catch(() => {});
    throw error;
  }
  await deleteAvatarObject(before.profileImageUrl);
  return user;
}

export async function removeProfilePicture(userId: string): Promise<PublicUser> {
  const before = await getUserById(userId);
  if (!before) throw new Error(`No user ${userId}`);
  const user = await updateProfileImage(userId, null);
  await deleteAvatarObject(before.profileImageUrl);
  return user;
}
