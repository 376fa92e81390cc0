import { z } from "~/utils/validation/zod";
import { AI_LIMITS, AI_MESSAGES, tooLong, toneValue, TRIBUTE_TONES, type TributeTone } from "./ai-rules";
import { text } from "./text";
import { checkCalendarDate } from "./text-rules";

export { AI_LIMITS, AI_MESSAGES, aiFailureTitle, checkAssistant, TRIBUTE_TONES } from "./ai-rules";
export type { AssistantField, AssistantResult, TributeTone } from "./ai-rules";

// The AI writing helpers' inputs: the biography generator, the two
// shapes of POST /api/ai/generate-tribute, and the tribute assistant on the Leave Tribute form.
// Every free-text fact is bounded (2,000 characters) so a prompt, and what it costs, stays small.
// Shared by the /api routes and the memorial page's action; the browser's checks are in ai-rules.ts.

const TONE_VALUES = TRIBUTE_TONES.map((t) => t.value) as [TributeTone, ...TributeTone[]];

/** A required short fact: missing or blank gives `missing`. */
const required = (missing: string, max: number, what: string) => text({ error: missing }).trim().min(1, missing).max(max, tooLong(what, max));

/** An optional free-text fact: absent, null or blank all become "". Arrays of strings are joined. */
const freeText = (what: string, max: number = AI_LIMITS.text) =>
  z
    .union([text(), z.array(text())])
    .optional()
    .nullable()
    .transform((v) => (Array.isArray(v) ? v.join(", ") : (v ?? "")).trim())
    .pipe(z.string().max(max, tooLong(what, max)));

/** A calendar date as YYYY-MM-DD (a full ISO timestamp is cut to its date); blank means unknown. */
const dateFact = text()
  .trim()
  .optional()
  .nullable()
  .transform((v) => (v ? v.slice(0, 10) : null))
  .refine((v) => v === null || checkCalendarDate(v) === null, AI_MESSAGES.date);

/** "warm", "Warm", "gentle and light"… → one of TONE_VALUES; anything else fails with the tone message. */
const toneFact = (missing: string) =>
  text({ error: missing })
    .trim()
    .min(1, missing)
    .transform((v) => toneValue(v) ?? v)
    .pipe(z.enum(TONE_VALUES, { error: AI_MESSAGES.tone }));

/** POST /api/ai/generate-biography; the names are required. */
export const biographyRequestSchema = z
  .object({
    firstName: required(AI_MESSAGES.missingNames, AI_LIMITS.name, "The first name"),
    lastName: required(AI_MESSAGES.missingNames, AI_LIMITS.name, "The last name"),
    dateOfBirth: dateFact,
    dateOfPassing: dateFact,
    personalStory: freeText("The personal story"),
    keyQualities: freeText("The key qualities"),
  })
  .refine((v) => !v.dateOfBirth || !v.dateOfPassing || v.dateOfBirth <= v.dateOfPassing, {
    message: AI_MESSAGES.dateOrder,
    path: ["dateOfPassing"],
  });
export type BiographyFacts = z.output<typeof biographyRequestSchema>;

/**
 * What a writer gets for a tribute, whichever way it was asked for. With `relationship` it is a
 * visitor's first-person tribute (the memorial page's assistant); without, a short tribute about the
 * person from the memorial's own details (the Edit screen's "Generate AI Tribute").
 */
export type TributeFacts = {
  /** The full name of the person remembered. */
  name: string;
  firstName: string;
  title?: string;
  /** The memorial's biography, as background only. */
  biography?: string;
  relationship?: string;
  tone?: TributeTone;
  memories?: string;
  keyDetails?: string;
};

const personalTributeSchema = z.object({
  personalDetails: z.object(
    {
      firstName: required(AI_MESSAGES.missingTributeNames, AI_LIMITS.name, "The first name"),
      lastName: required(AI_MESSAGES.missingTributeNames, AI_LIMITS.name, "The last name"),
    },
    { error: AI_MESSAGES.missingTributeNames },
  ),
  keyDetails: freeText("The key details"),
  tone: toneFact(AI_MESSAGES.tone).optional(),
});

const memorialTributeSchema = z.object({
  memorialInfo: z.object(
    {
      name: required(AI_MESSAGES.missingFieldsTitle, AI_LIMITS.name * 2, "The name"),
      title: freeText("The title", AI_LIMITS.title),
      biography: freeText("The biography"),
    },
    { error: AI_MESSAGES.missingFieldsTitle },
  ),
  relationship: required(AI_MESSAGES.missingFieldsTitle, AI_LIMITS.relationship, "The relationship"),
  tone: toneFact(AI_MESSAGES.missingFieldsTitle),
  memories: required(AI_MESSAGES.missingFieldsTitle, AI_LIMITS.text, "Memories"),
});

/**
 * POST /api/ai/generate-tribute: either { personalDetails: { firstName, lastName }, keyDetails } or
 * { memorialInfo: { name, title, biography }, relationship, tone, memories }.
 * The body's shape picks the schema, so a caller gets that shape's own messages rather than a vague
 * "Invalid input" from a union.
 */
export const tributeRequestSchema = z.unknown().transform((body, ctx): TributeFacts => {
  const personal = typeof body === "object" && body !== null && "personalDetails" in body;
  const parsed = personal ? personalTributeSchema.safeParse(body) : memorialTributeSchema.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.issues.push({ code: "custom", message: issue.message, path: issue.path, input: body });
    return z.NEVER;
  }
  const v = parsed.data;
  if ("personalDetails" in v) {
    const { firstName, lastName } = v.personalDetails;
    return { name: `${firstName} ${lastName}`, firstName, keyDetails: v.keyDetails, tone: v.tone };
  }
  const name = v.memorialInfo.name.replace(/\s+/g, " ");
  return {
    name,
    firstName: name.split(" ")[0],
    title: v.memorialInfo.title,
    biography: v.memorialInfo.biography,
    relationship: v.relationship,
    tone: v.tone,
    memories: v.memories,
  };
});

/**
 * The assistant on the Leave Tribute form: all three fields are required, and a missing one gives the
 * "Please fill in all fields" (shown with "We need all information to create a meaningful
 * tribute.").
 */
export const tributeAssistantSchema = z.object({
  relationship: required(AI_MESSAGES.missingFieldsTitle, AI_LIMITS.relationship, "The relationship"),
  tone: toneFact(AI_MESSAGES.missingFieldsTitle),
  memories: required(AI_MESSAGES.missingFieldsTitle, AI_LIMITS.formMemories, "Memories"),
});
export type TributeAssistantInput = z.output<typeof tributeAssistantSchema>;

/** POST /api/ai/stream-tribute: the assistant's fields and the memorial they are for. */
export const streamTributeRequestSchema = tributeAssistantSchema.extend({
  memorialId: text({ error: AI_MESSAGES.memorialNotFound }).trim().min(1, AI_MESSAGES.memorialNotFound).max(100, AI_MESSAGES.memorialNotFound),
});
export type StreamTributeRequest = z.output<typeof streamTributeRequestSchema>;
