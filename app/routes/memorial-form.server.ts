import { parseForm } from "~/request/form.server";
import { data } from "react-router";
import type { AiFormState } from "~/components/memorial/ai-biography";
import type { MemorialFormFailure, UploadRules } from "~/components/memorial/memorial-form";
import { writeBiography, writeTribute } from "~/models/ai-writing.server";
import {
  addMemorialMedia,
  deleteMediaItem,
  detectVideoType,
  MEDIA_LIMITS,
  MEDIA_MESSAGES,
  MediaRejectedError,
  removeMemorialPortrait,
  setMemorialPortrait,
} from "~/models/memorials/media.server";
import { createMemorial, discardNewMemorial, MemorialLimitError, updateOwnMemorial } from "~/models/memorials/records.server";
import { findMemorialForViewer, roleOnMemorial, type MemorialWithMedia } from "~/models/memorials/access.server";
import { canChangeVisibility } from "~/models/memorials/access-rules";
import { actorOf } from "~/request/auth.server";
import type { PublicUser } from "~/models/accounts/users.server";
import { getWritingProvider, type WritingProvider } from "~/services/ai.server";
import { detectImageType } from "~/services/images.server";
import { clientIp } from "~/request/facts.server";
import { BodyTooLargeError, MalformedFormError, readSpooledForm, type SpooledForm } from "~/request/multipart.server";
import { redirectWithToast } from "~/request/toast.server";
import { MEMORIAL_LIMIT_MESSAGE, MEMORIAL_LIMIT_TITLE } from "~/utils/plans";
import { AI_MESSAGES, aiFailureTitle, biographyRequestSchema, tributeRequestSchema } from "~/utils/validation/ai";
import { MEMORIAL_MESSAGES, memorialFormSchema, type MemorialInput } from "~/utils/validation/memorial";

// The server half of the Create Memorial and Edit Memorial screens. One multipart post carries the
// fields, the profile photo and the photos and videos, so a
// visitor without JavaScript saves everything with one button. Every file is checked before anything is
// written, and a failure while storing undoes what this post wrote: nothing is ever half-saved.
// Success answers 303 See Other (POST, then redirect), so reloading never posts again.

export const MEMORIAL_FORM_MESSAGES = {
  portraitType: "This file is not a photo we can use. Please choose a JPEG, PNG, GIF or WebP photo.",
  requestTooLarge: `Your photos and videos add up to more than ${MEDIA_LIMITS.requestBytes / 1024 / 1024} MB, more than one save can carry. Please choose fewer files, save, then add the rest.`,
  unreadableForm: "The form could not be read. Please try again.",
  notSaved: "Memorial not saved",
} as const;

/** What the browser needs to check files before sending them (the server checks again, by content). */
export function uploadRules(): UploadRules {
  return {
    imageBytes: MEDIA_LIMITS.imageBytes,
    videoBytes: MEDIA_LIMITS.videoBytes,
    requestBytes: MEDIA_LIMITS.requestBytes,
    filesPerMemorial: MEDIA_LIMITS.filesPerMemorial,
    imageTypes: ["image/jpeg", "image/png", "image/gif", "image/webp"],
    videoTypes: ["video/mp4", "video/webm", "video/quicktime"],
    messages: {
      type: MEDIA_MESSAGES.type,
      portraitType: MEMORIAL_FORM_MESSAGES.portraitType,
      imageSize: MEDIA_MESSAGES.imageSize,
      videoSize: MEDIA_MESSAGES.videoSize,
      tooMany: MEDIA_MESSAGES.tooMany,
      requestTooLarge: MEMORIAL_FORM_MESSAGES.requestTooLarge,
    },
  };
}

type Rejection = { status: 400 | 413 | 415; message: string };

/** The client's file name, for messages only (React escapes it; it never reaches a storage path). */
function displayName(file: File) {
  const name = file.name.split(/[\\/]/).pop()?.trim() || "Unnamed file";
  return name.length > 80 ? `${name.slice(0, 77)}…` : name;
}

/** What a file is, from its first bytes, and whether it is within its size limit. */
/** `cutOff`: the upload stopped reading the file at the largest size allowed, so it is larger still. */
async function checkFile(file: File, imagesOnly: boolean, cutOff: boolean): Promise<Rejection | null> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const image = detectImageType(head);
  const video = image || imagesOnly ? null : detectVideoType(head);
  if (!image && !video) return { status: 415, message: imagesOnly ? MEMORIAL_FORM_MESSAGES.portraitType : MEDIA_MESSAGES.type };
  // A part sent as a photo is cut off at the photo limit (readSpooledForm), whatever its bytes turn out to be.
  if (cutOff && /^image\//i.test(file.type)) return { status: 413, message: MEDIA_MESSAGES.imageSize };
  if (image && (cutOff || file.size > MEDIA_LIMITS.imageBytes)) return { status: 413, message: MEDIA_MESSAGES.imageSize };
  if (video && (cutOff || file.size > MEDIA_LIMITS.videoBytes)) return { status: 413, message: MEDIA_MESSAGES.videoSize };
  return null;
}

/** A file input with nothing chosen still posts an empty, nameless part: that is "no file". */
function chosenFiles(formData: FormData, name: string): File[] {
  return formData.getAll(name).filter((v): v is File => typeof v !== "string" && (v.size > 0 || v.name !== ""));
}

/** The text fields only: files cannot be sent back to the browser, and must not reach the reply. */
function textFields(formData: FormData) {
  const text = new FormData();
  for (const [name, value] of formData) if (typeof value === "string") text.append(name, value);
  return text;
}

function failure(status: number, body: Partial<MemorialFormFailure>) {
  return data<MemorialFormFailure>(
    {
      result: body.result,
      files: body.files ?? {},
      chosen: body.chosen ?? { profileImage: false, media: false },
      alert: body.alert,
      removePortrait: body.removePortrait ?? false,
      ai: body.ai ?? null,
    },
    { status },
  );
}

const AI_INTENTS = ["ai-biography", "ai-tribute"] as const;
type AiIntent = (typeof AI_INTENTS)[number];

function isAiIntent(value: unknown): value is AiIntent {
  return AI_INTENTS.includes(value as AiIntent);
}

/**
 * "Generate AI Biography" and "Generate AI Tribute" without JavaScript:
 * the memorial form comes back with every field as it was typed, the biography written into the Life
 * story box (or the tribute shown under the form), and nothing saved. With JavaScript the same writers
 * are reached through /api/ai/*, and this path is not used.
 */
export async function writeWithAi(request: Request, user: PublicUser, formData: FormData, intent: AiIntent, provider: WritingProvider = getWritingProvider()) {
  const text = (name: string) => {
    const v = formData.get(name);
    return typeof v === "string" ? v : "";
  };
  const typed = Object.fromEntries([...textFields(formData)].filter(([name]) => name !== "intent") as [string, string][]);
  const values = { personalStory: text("personalStory"), keyQualities: text("keyQualities"), keyDetails: text("keyDetails") };
  const kind = intent === "ai-biography" ? ("biography" as const) : ("tribute" as const);
  const chosen = { profileImage: chosenFiles(formData, "profileImage").length > 0, media: chosenFiles(formData, "media").length > 0 };
  const answer = (status: number, ai: Omit<AiFormState, "kind" | "values">, biography?: string) =>
    failure(status, {
      // No status and no error: the form shows these values without complaining about anything.
      result: { initialValue: biography === undefined ? typed : { ...typed, biography } },
      chosen,
      removePortrait: formData.get("removeProfileImage") === "on",
      ai: { kind, values, ...ai },
    });
  const refused = (status: number, message: string) => answer(status, { failure: { title: aiFailureTitle(message), message }, writtenBy: null, tribute: null });

  const parsed =
    kind === "biography"
      ? biographyRequestSchema.safeParse({
          firstName: text("firstName"),
          lastName: text("lastName"),
          dateOfBirth: text("dateOfBirth"),
          dateOfPassing: text("dateOfPassing"),
          personalStory: values.personalStory,
          keyQualities: values.keyQualities,
        })
      : tributeRequestSchema.safeParse({ personalDetails: { firstName: text("firstName"), lastName: text("lastName") }, keyDetails: values.keyDetails });
  if (!parsed.success) return refused(400, parsed.error.issues[0]?.message ?? AI_MESSAGES.missingNames);
  const who = { user, ip: clientIp(request) };
  const result = "personalStory" in parsed.data ? await writeBiography(parsed.data, who, provider) : await writeTribute(parsed.data, who, provider);
  if (!result.ok) return refused(result.reason === "rate-limited" ? 429 : 502, result.message);
  if (kind === "biography") return answer(200, { failure: null, writtenBy: result.writtenBy, tribute: null }, result.text);
  return answer(200, { failure: null, writtenBy: result.writtenBy, tribute: result.text });
}

/**
 * Handles a post of the memorial form: creates a memorial (no `existing`) or updates `existing`, which
 * the caller has already checked belongs to `user`. Returns the redirect on success, else the form's
 * answer with the user's input (400 fields, 413/415 files, 403 plan limit).
 */
export async function submitMemorialForm(request: Request, user: PublicUser, existing: MemorialWithMedia | null) {
  // The files wait on disk until the post is answered, each cut off past its limit as it arrives: a part
  // declared as an image at the largest a photo may be, any other at the largest a video may be.
  let spooled: SpooledForm;
  try {
    spooled = await readSpooledForm(request, { bodyBytes: MEDIA_LIMITS.requestBytes, fileBytes: MEDIA_LIMITS.videoBytes, imageBytes: MEDIA_LIMITS.imageBytes });
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return failure(413, { alert: { title: MEMORIAL_FORM_MESSAGES.notSaved, message: MEMORIAL_FORM_MESSAGES.requestTooLarge } });
    if (error instanceof MalformedFormError)
      return failure(400, { alert: { title: MEMORIAL_FORM_MESSAGES.notSaved, message: MEMORIAL_FORM_MESSAGES.unreadableForm } });
    throw error;
  }
  try {
    return await saveMemorialForm(request, user, existing, spooled);
  } finally {
    await spooled.discard();
  }
}

async function saveMemorialForm(request: Request, user: PublicUser, existing: MemorialWithMedia | null, { form: formData, tooLarge }: SpooledForm) {
  const pressed = formData.get("intent");
  if (isAiIntent(pressed)) return writeWithAi(request, user, formData, pressed);

  const submission = parseForm(textFields(formData), { schema: memorialFormSchema });
  const portrait = chosenFiles(formData, "profileImage")[0] ?? null;
  const media = chosenFiles(formData, "media");
  const removePortrait = formData.get("removeProfileImage") === "on";
  const chosen = { profileImage: !!portrait, media: media.length > 0 };

  // Every file is checked before anything is written, so one bad file refuses the whole post.
  const rejections: { field: "profileImage" | "media"; message: string; status: 400 | 413 | 415 }[] = [];
  if (portrait) {
    const rejection = await checkFile(portrait, true, tooLarge.has(portrait));
    if (rejection) rejections.push({ field: "profileImage", status: rejection.status, message: `${displayName(portrait)}: ${rejection.message}` });
  }
  for (const file of media) {
    const rejection = await checkFile(file, false, tooLarge.has(file));
    if (rejection) rejections.push({ field: "media", status: rejection.status, message: `${displayName(file)}: ${rejection.message}` });
  }
  if ((existing?.media.length ?? 0) + media.length > MEDIA_LIMITS.filesPerMemorial) {
    rejections.push({ field: "media", status: 400, message: MEDIA_MESSAGES.tooMany });
  }
  const files: MemorialFormFailure["files"] = {};
  for (const r of rejections) (files[r.field] ??= []).push(r.message);
  const status = rejections[0]?.status ?? null;

  if (submission.status !== "success" || status !== null) {
    return failure(status ?? 400, { result: submission.reply(), files, chosen, removePortrait });
  }
  const { intent, ...fields } = submission.value;
  const input: MemorialInput = { ...fields, isPublished: intent === "publish" };
  // An editor (co-manager) changes the content only: who may see it and whether it is published stay
  // as they are, whatever the post says (memorials/access-rules.ts canChangeVisibility).
  if (existing && !canChangeVisibility(roleOnMemorial(existing, user))) {
    input.visibility = existing.visibility as MemorialInput["visibility"];
    input.isPublished = existing.isPublished;
  }
  const reply = submission.reply();
  // A failure while storing: which field's file it was, for the message next to that field.
  let current: { field: "profileImage" | "media"; file: File } | null = null;
  const storingFailed = (error: unknown, message: string) => {
    if (!(error instanceof MediaRejectedError)) console.error("Saving a memorial failed:", error);
    const rejected = error instanceof MediaRejectedError && current ? { [current.field]: [`${displayName(current.file)}: ${error.message}`] } : {};
    return failure(error instanceof MediaRejectedError ? error.status : 500, {
      result: reply,
      files: rejected,
      chosen,
      removePortrait,
      alert: { title: MEMORIAL_FORM_MESSAGES.notSaved, message },
    });
  };

  if (!existing) {
    let memorial;
    try {
      memorial = await createMemorial(user, input);
    } catch (error) {
      if (error instanceof MemorialLimitError) {
        return failure(403, { result: reply, chosen, alert: { title: MEMORIAL_LIMIT_TITLE, message: MEMORIAL_LIMIT_MESSAGE, kind: "limit" } });
      }
      throw error;
    }
    try {
      if (portrait) {
        current = { field: "profileImage", file: portrait };
        await setMemorialPortrait(memorial.id, user.id, portrait);
      }
      for (const [index, file] of media.entries()) {
        current = { field: "media", file };
        await addMemorialMedia(memorial.id, user.id, file, { order: index });
      }
    } catch (error) {
      // Uploads come after creating; a failed upload undoes the creation, so nothing is half-saved.
      await discardNewMemorial(memorial.id, user.id).catch((cleanup) => console.error(`Could not undo the half-created memorial ${memorial.id}:`, cleanup));
      return storingFailed(error, MEMORIAL_MESSAGES.createFailed);
    }
    return redirectWithToast(`/memorials/${memorial.id}`, { type: "success", title: "Memorial created" });
  }

  // Edit: new files go after the existing ones; the fields are written last, once the files are in.
  const added: string[] = [];
  try {
    const nextOrder = existing.media.reduce((max, m) => Math.max(max, m.order + 1), existing.media.length);
    for (const [index, file] of media.entries()) {
      current = { field: "media", file };
      const item = await addMemorialMedia(existing.id, user.id, file, { order: nextOrder + index });
      if (!item) throw new Error(`Memorial ${existing.id} is no longer ${user.id}'s`);
      added.push(item.id);
    }
    if (portrait) {
      current = { field: "profileImage", file: portrait };
      await setMemorialPortrait(existing.id, user.id, portrait);
    } else if (removePortrait && existing.profileImageUrl) {
      await removeMemorialPortrait(existing.id, user.id);
    }
    current = null;
    const updated = await updateOwnMemorial(existing.id, actorOf(user, request), input);
    if (!updated) throw new Error(`Memorial ${existing.id} is no longer ${user.id}'s`);
  } catch (error) {
    for (const id of added) await deleteMediaItem(id, user).catch(() => {});
    return storingFailed(error, MEMORIAL_MESSAGES.updateFailed);
  }
  // Taken offline by Save Draft: say so, since visitors can no longer see it.
  const unpublished = existing.isPublished && !input.isPublished;
  const toast = unpublished ? { title: "Memorial updated", description: MEMORIAL_MESSAGES.unpublished } : { title: "Memorial updated" };
  return redirectWithToast(`/memorials/${existing.id}`, { type: "success", ...toast });
}

/** The memorial this user may delete: their own, or any for an administrator. */
export async function findDeletableMemorial(id: string, user: PublicUser) {
  const lookup = await findMemorialForViewer(id, user);
  if (lookup.status !== "ok") return null;
  if (lookup.memorial.userId !== user.id && !user.isAdmin) return null;
  return lookup.memorial;
}
