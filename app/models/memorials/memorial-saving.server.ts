import type { Actor } from "../audit.server";
import { canChangeVisibility } from "./access-rules";
import { roleOnMemorial, type MemorialWithMedia } from "./access.server";
import {
  addMemorialMedia,
  deleteMediaItem,
  detectVideoType,
  MEDIA_LIMITS,
  MEDIA_MESSAGES,
  MediaRejectedError,
  removeMemorialPortrait,
  setMemorialPortrait,
} from "./media.server";
import { createMemorial, discardNewMemorial, MemorialLimitError, updateOwnMemorial } from "./records.server";
import { detectImageType } from "~/services/images.server";
import type { MemorialInput } from "~/utils/validation/memorial";

// Saving the memorial form: the fields with the profile photo and the photos and videos of one post.
// Every file is checked before anything is written, and a failure while storing undoes what this save
// wrote, so a memorial is never half-saved.

export const PORTRAIT_TYPE_MESSAGE = "This file is not a photo we can use. Please choose a JPEG, PNG, GIF or WebP photo.";

export type FileField = "profileImage" | "media";

/** The member saving: who they are, and their plan for the limit on new memorials. */
type Saver = { id: string; isAdmin: boolean; subscriptionPlan: string; subscriptionExpiryDate: Date | null };

/** A file refused, with the field it was chosen in and the status that says why. */
export type FileRejection = { field: FileField; status: 400 | 413 | 415; message: string };

/**
 * The files of one save. `cutOff` holds the files whose upload stopped at the largest size allowed: they
 * are larger still, whatever the part says.
 */
export type MemorialFiles = { portrait: File | null; media: File[]; removePortrait: boolean; cutOff: ReadonlySet<File> };

export type SaveOutcome =
  | { ok: true; memorialId: string; unpublished: boolean }
  | { ok: false; reason: "limit" }
  | { ok: false; reason: "not-stored"; status: number; rejected: { field: FileField; message: string } | null };

/** The client's file name, for messages only (React escapes it; it never reaches a storage path). */
function displayName(file: File) {
  const name = file.name.split(/[\\/]/).pop()?.trim() || "Unnamed file";
  return name.length > 80 ? `${name.slice(0, 77)}…` : name;
}

/** What a file is, from its first bytes, and whether it is within its size limit. */
async function checkFile(file: File, imagesOnly: boolean, cutOff: boolean): Promise<Omit<FileRejection, "field"> | null> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const image = detectImageType(head);
  const video = image || imagesOnly ? null : detectVideoType(head);
  if (!image && !video) return { status: 415, message: imagesOnly ? PORTRAIT_TYPE_MESSAGE : MEDIA_MESSAGES.type };
  // A part sent as a photo is cut off at the photo limit, whatever its bytes turn out to be.
  if (cutOff && /^image\//i.test(file.type)) return { status: 413, message: MEDIA_MESSAGES.imageSize };
  if (image && (cutOff || file.size > MEDIA_LIMITS.imageBytes)) return { status: 413, message: MEDIA_MESSAGES.imageSize };
  if (video && (cutOff || file.size > MEDIA_LIMITS.videoBytes)) return { status: 413, message: MEDIA_MESSAGES.videoSize };
  return null;
}

/** Every file of a save that cannot be kept, named in its message; one refused file refuses the save. */
export async function checkMemorialFiles(files: MemorialFiles, existing: MemorialWithMedia | null): Promise<FileRejection[]> {
  const rejections: FileRejection[] = [];
  if (files.portrait) {
    const rejection = await checkFile(files.portrait, true, files.cutOff.has(files.portrait));
    if (rejection) rejections.push({ field: "profileImage", status: rejection.status, message: `${displayName(files.portrait)}: ${rejection.message}` });
  }
  for (const file of files.media) {
    const rejection = await checkFile(file, false, files.cutOff.has(file));
    if (rejection) rejections.push({ field: "media", status: rejection.status, message: `${displayName(file)}: ${rejection.message}` });
  }
  if ((existing?.media.length ?? 0) + files.media.length > MEDIA_LIMITS.filesPerMemorial) {
    rejections.push({ field: "media", status: 400, message: MEDIA_MESSAGES.tooMany });
  }
  return rejections;
}

/** Tracks the file being stored, so that a failure names the field and the file it came from. */
function storingTracker() {
  let current: { field: FileField; file: File } | null = null;
  return {
    storing(field: FileField, file: File) {
      current = { field, file };
    },
    done() {
      current = null;
    },
    failed(error: unknown): SaveOutcome {
      if (!(error instanceof MediaRejectedError)) console.error("Saving a memorial failed:", error);
      const rejected =
        error instanceof MediaRejectedError && current ? { field: current.field, message: `${displayName(current.file)}: ${error.message}` } : null;
      return { ok: false, reason: "not-stored", status: error instanceof MediaRejectedError ? error.status : 500, rejected };
    },
  };
}

/** A new memorial of `user`'s with its files, within their plan's limit; files already checked. */
export async function createMemorialWithFiles(user: Saver, input: MemorialInput, files: MemorialFiles): Promise<SaveOutcome> {
  let memorial;
  try {
    memorial = await createMemorial(user, input);
  } catch (error) {
    if (error instanceof MemorialLimitError) return { ok: false, reason: "limit" };
    throw error;
  }
  const tracker = storingTracker();
  try {
    if (files.portrait) {
      tracker.storing("profileImage", files.portrait);
      await setMemorialPortrait(memorial.id, user.id, files.portrait);
    }
    for (const [index, file] of files.media.entries()) {
      tracker.storing("media", file);
      await addMemorialMedia(memorial.id, user.id, file, { order: index });
    }
  } catch (error) {
    // Uploads come after creating; a failed upload undoes the creation.
    await discardNewMemorial(memorial.id, user.id).catch((cleanup) => console.error(`Could not undo the half-created memorial ${memorial.id}:`, cleanup));
    return tracker.failed(error);
  }
  return { ok: true, memorialId: memorial.id, unpublished: false };
}

/**
 * Saves an edit of `existing`, which the caller has checked `user` may edit. An editor (co-manager)
 * changes the content only: who may see it and whether it is published stay as they are, whatever the
 * post says. New files go after the existing ones; the fields are written last, once the files are in.
 */
export async function editMemorialWithFiles(
  existing: MemorialWithMedia,
  user: Saver,
  actor: Actor,
  input: MemorialInput,
  files: MemorialFiles,
): Promise<SaveOutcome> {
  const saved: MemorialInput = canChangeVisibility(roleOnMemorial(existing, user))
    ? input
    : { ...input, visibility: existing.visibility as MemorialInput["visibility"], isPublished: existing.isPublished };
  const tracker = storingTracker();
  const added: string[] = [];
  try {
    const nextOrder = existing.media.reduce((max, m) => Math.max(max, m.order + 1), existing.media.length);
    for (const [index, file] of files.media.entries()) {
      tracker.storing("media", file);
      const item = await addMemorialMedia(existing.id, user.id, file, { order: nextOrder + index });
      if (!item) throw new Error(`Memorial ${existing.id} is no longer ${user.id}'s`);
      added.push(item.id);
    }
    if (files.portrait) {
      tracker.storing("profileImage", files.portrait);
      await setMemorialPortrait(existing.id, user.id, files.portrait);
    } else if (files.removePortrait && existing.profileImageUrl) {
      await removeMemorialPortrait(existing.id, user.id);
    }
    tracker.done();
    const updated = await updateOwnMemorial(existing.id, actor, saved);
    if (!updated) throw new Error(`Memorial ${existing.id} is no longer ${user.id}'s`);
  } catch (error) {
    for (const id of added) await deleteMediaItem(id, user).catch(() => {});
    return tracker.failed(error);
  }
  // Taken offline by Save Draft: the member is told, since visitors can no longer see it.
  return { ok: true, memorialId: existing.id, unpublished: existing.isPublished && !saved.isPublished };
}
