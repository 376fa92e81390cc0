import { parseForm } from "~/request/form.server";
import { data } from "react-router";
import type { AiFormState } from "~/components/memorial/ai-biography";
import type { MemorialFormFailure, UploadRules } from "~/components/memorial/memorial-form";
import { writeBiography, writeTribute } from "~/models/ai-writing.server";
import { MEDIA_LIMITS, MEDIA_MESSAGES } from "~/models/memorials/media.server";
import type { MemorialWithMedia } from "~/models/memorials/access.server";
import {
  checkMemorialFiles,
  createMemorialWithFiles,
  editMemorialWithFiles,
  PORTRAIT_TYPE_MESSAGE,
  type FileRejection,
  type MemorialFiles,
} from "~/models/memorials/memorial-saving.server";
import { actorOf } from "~/request/auth.server";
import type { PublicUser } from "~/models/accounts/users.server";
import { getWritingProvider, type WritingProvider } from "~/services/ai.server";
import { clientIp } from "~/request/facts.server";
import { BodyTooLargeError, MalformedFormError, readSpooledForm, type SpooledForm } from "~/request/multipart.server";
import { redirectWithToast } from "~/request/toast.server";
import { MEMORIAL_LIMIT_MESSAGE, MEMORIAL_LIMIT_TITLE } from "~/utils/plans";
import { AI_MESSAGES, aiFailureTitle, biographyRequestSchema, tributeRequestSchema } from "~/utils/validation/ai";
import { MEMORIAL_MESSAGES, memorialFormSchema, type MemorialInput } from "~/utils/validation/memorial";

// The request half of the Create Memorial and Edit Memorial screens: reads the one multipart post that
// carries the fields, the profile photo and the photos and videos (so a visitor without JavaScript saves
// everything with one button), hands it to the memorials' saving use case, and answers. Success answers
// 303 See Other (POST, then redirect), so reloading never posts again; a refusal keeps what was typed.

export const MEMORIAL_FORM_MESSAGES = {
  portraitType: PORTRAIT_TYPE_MESSAGE,
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
  const files: MemorialFiles = {
    portrait: chosenFiles(formData, "profileImage")[0] ?? null,
    media: chosenFiles(formData, "media"),
    removePortrait: formData.get("removeProfileImage") === "on",
    cutOff: tooLarge,
  };
  const chosen = { profileImage: !!files.portrait, media: files.media.length > 0 };
  const removePortrait = files.removePortrait;

  const rejections = await checkMemorialFiles(files, existing);
  if (submission.status !== "success" || rejections.length > 0) {
    return failure(rejections[0]?.status ?? 400, { result: submission.reply(), files: filesByField(rejections), chosen, removePortrait });
  }
  const { intent, ...fields } = submission.value;
  const input: MemorialInput = { ...fields, isPublished: intent === "publish" };
  const outcome = existing
    ? await editMemorialWithFiles(existing, user, actorOf(user, request), input, files)
    : await createMemorialWithFiles(user, input, files);

  if (outcome.ok) {
    if (!existing) return redirectWithToast(`/memorials/${outcome.memorialId}`, { type: "success", title: "Memorial created" });
    // Taken offline by Save Draft: say so, since visitors can no longer see it.
    const toast = outcome.unpublished ? { title: "Memorial updated", description: MEMORIAL_MESSAGES.unpublished } : { title: "Memorial updated" };
    return redirectWithToast(`/memorials/${outcome.memorialId}`, { type: "success", ...toast });
  }
  const reply = submission.reply();
  if (outcome.reason === "limit") {
    return failure(403, { result: reply, chosen, alert: { title: MEMORIAL_LIMIT_TITLE, message: MEMORIAL_LIMIT_MESSAGE, kind: "limit" } });
  }
  return failure(outcome.status, {
    result: reply,
    files: outcome.rejected ? { [outcome.rejected.field]: [outcome.rejected.message] } : {},
    chosen,
    removePortrait,
    alert: { title: MEMORIAL_FORM_MESSAGES.notSaved, message: existing ? MEMORIAL_MESSAGES.updateFailed : MEMORIAL_MESSAGES.createFailed },
  });
}

/** The refused files' messages, under the field each was chosen in. */
function filesByField(rejections: FileRejection[]): MemorialFormFailure["files"] {
  const files: MemorialFormFailure["files"] = {};
  for (const r of rejections) (files[r.field] ??= []).push(r.message);
  return files;
}
