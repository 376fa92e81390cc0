// The AI writing helpers' limits, messages and tones, and the tribute assistant's own checks, without a
// schema library: the memorial page's assistant dialog runs these in the browser. The server's schemas
// (ai.ts) are built on the same constants; a test holds the two checks together.

import { withThousands } from "~/utils/text";
import { hasControlCharacters, TEXT_MESSAGES } from "./text-rules";

export const AI_LIMITS = {
  /** Any free-text fact: a personal story, qualities, key details, a biography given as context. */
  text: 2000,
  /**
   * Memories typed into the assistant on the Leave Tribute form: lower than `text`, so that the
   * tribute written from them still fits the 2,000-character tribute box (TRIBUTE_LIMITS.contentMax).
   */
  formMemories: 1500,
  name: 100,
  title: 200,
  relationship: 100,
  /** Largest JSON body the AI routes read (a few bounded facts fit with room to spare). */
  bodyBytes: 20 * 1024,
} as const;

export const AI_MESSAGES = {
  missingNamesTitle: "Missing Information",
  missingNames: "Please enter the person's first and last name before generating a biography.",
  missingTributeNames: "Please enter the person's first and last name before generating a tribute.",
  missingFieldsTitle: "Please fill in all fields",
  missingFields: "We need all information to create a meaningful tribute.",
  tone: "Please choose a tone: warm, respectful, celebratory, or gentle and light.",
  date: "Please enter dates as YYYY-MM-DD.",
  dateOrder: "The date of passing cannot be before the date of birth.",
  biographyFailed: "Failed to generate biography. Please try again.",
  tributeFailed: "Failed to generate AI tribute. Please try again.",
  /** The Leave Tribute form's own wording. */
  formTributeFailed: "Failed to generate tribute. Please try again.",
  biographyGenerated: "Biography generated",
  tributeGenerated: "AI tribute generated",
  rateLimited: "You have asked the writing assistant for a lot of text in a short time.",
  tooLarge: "The details are too long. Please shorten them and try again.",
  memorialNotFound: "Memorial not found",
} as const;

/** The title over a writing helper's failure message: "Missing Information" for the names, else "Error". */
export function aiFailureTitle(message: string) {
  return message === AI_MESSAGES.missingNames || message === AI_MESSAGES.missingTributeNames ? AI_MESSAGES.missingNamesTitle : "Error";
}

export const tooLong = (what: string, max: number) => `${what} can be at most ${withThousands(max)} characters.`;

/** The tones the assistant offers; the value is what the writers receive. */
export const TRIBUTE_TONES = [
  { value: "warm", label: "Warm" },
  { value: "respectful", label: "Respectful" },
  { value: "celebratory", label: "Celebratory" },
  { value: "gentle", label: "Gentle and light" },
] as const;
export type TributeTone = (typeof TRIBUTE_TONES)[number]["value"];
export type AssistantField = "relationship" | "tone" | "memories";

/** What the memorial page's "ai-tribute" intent hands back to the form (JavaScript off). */
export type AssistantResult = {
  values: Record<AssistantField, string>;
  errors: Partial<Record<AssistantField, string[]>> | null;
  /** Why nothing was written (the writer failed, or a limit was hit). */
  failure: string | null;
  /** Who wrote the text now in the tribute box. */
  writtenBy: { provider: "openai" | "offline"; label: string } | null;
};

/** "warm", "Warm", "gentle and light"… → a tone's value; null when it is none of them. */
export function toneValue(text: string): TributeTone | null {
  const v = text.trim();
  const normal = /^gentle\b/i.test(v) ? "gentle" : v.toLowerCase();
  return TRIBUTE_TONES.find((t) => t.value === normal)?.value ?? null;
}

/**
 * The assistant on the Leave Tribute form: all three fields are required, and a missing one gives the
 * "Please fill in all fields"; too long or an unknown tone say so.
 */
export function checkAssistant(values: Partial<Record<AssistantField, string>>): Partial<Record<AssistantField, string[]>> | null {
  const errors: Partial<Record<AssistantField, string[]>> = {};
  const text = (field: AssistantField) => (values[field] ?? "").trim();
  const need = (field: AssistantField, what: string, max: number) => {
    if (hasControlCharacters(values[field] ?? "")) errors[field] = [TEXT_MESSAGES.control];
    else if (!text(field)) errors[field] = [AI_MESSAGES.missingFieldsTitle];
    else if (text(field).length > max) errors[field] = [tooLong(what, max)];
  };
  need("relationship", "The relationship", AI_LIMITS.relationship);
  if (hasControlCharacters(values.tone ?? "")) errors.tone = [TEXT_MESSAGES.control];
  else if (!text("tone")) errors.tone = [AI_MESSAGES.missingFieldsTitle];
  else if (!toneValue(text("tone"))) errors.tone = [AI_MESSAGES.tone];
  need("memories", "Memories", AI_LIMITS.formMemories);
  return Object.keys(errors).length ? errors : null;
}
