import { keyFromUrl, deleteObject } from "./storage.server";

// Members' pictures in storage: which stored object a profile picture is, and removing it.

export const AVATAR_PREFIX = "avatars/";

/** The stored avatar behind a profileImageUrl, if it is one of ours (not an outside URL). */
export function avatarKey(profileImageUrl: string | null | undefined): string | null {
  const key = keyFromUrl(profileImageUrl);
  return key?.startsWith(AVATAR_PREFIX) ? key : null;
}

/**
 * Deletes the stored file behind an old profileImageUrl (after a replacement, removal or account
 * deletion). A failure here only leaves an unreachable file behind, so it is logged, not thrown:
 * the user's change has already been saved.
 */
export async function deleteAvatarObject(profileImageUrl: string | null | undefined) {
  const key = avatarKey(profileImageUrl);
  if (!key) return;
  try {
    await deleteObject(key);
  } catch (error) {
    console.error(`Could not delete old avatar ${key}:`, error);
  }
}
