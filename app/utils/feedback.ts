import { z } from "~/utils/validation/zod";
import { withThousands } from "~/utils/text";
import { text } from "~/utils/validation/text";

// The UX feedback popup's fixed questions and rules, shared by the dashboard's dialog, its
// no-JavaScript form, the model
// and the /api, so every path asks, checks and stores the same thing.

export const UX_FEEDBACK = "ux_feedback";
/** The popups whose state is kept (popup_states.popupType); any other type is not found. */
export const POPUP_TYPES = [UX_FEEDBACK] as const;
export type PopupType = (typeof POPUP_TYPES)[number];
/** The feedback types accepted (feedback.type); the app asks for no other. */
export const FEEDBACK_TYPES = [UX_FEEDBACK] as const;

export const FEEDBACK_POPUP_DELAY_MS = 2000;
/** The popup shows at exactly these (owned memorials, skips so far) pairs. */
export const FEEDBACK_POPUP_TRIGGERS = [
  { memorials: 1, skipCount: 0 },
  { memorials: 2, skipCount: 1 },
] as const;

export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const SUGGESTIONS_MAX = 2000;
export const FEATURE_OPTIONS = ["Photo/video uploads", "Biography section", "Privacy controls", "Sharing options", "Overall design"] as const;

export const FEEDBACK_QUESTIONS = [
  { id: "ease_of_use", type: "rating", question: "How easy was it to create your memorial?" },
  { id: "feature_satisfaction", type: "multiple_choice", question: "Which features did you find most helpful?", options: FEATURE_OPTIONS },
  {
    id: "improvement_suggestions",
    type: "text",
    question: "What could we improve to make the experience better?",
    placeholder: "Share your thoughts and suggestions...",
  },
] as const;
export type FeedbackQuestion = (typeof FEEDBACK_QUESTIONS)[number];
export type QuestionId = FeedbackQuestion["id"];

// These answers need only be non-empty; the wording is ours.
export const FEEDBACK_MESSAGES = {
  rating: `Please choose a rating from ${RATING_MIN} to ${RATING_MAX} stars to continue.`,
  features: "Please choose at least one feature to continue.",
  unknownFeature: "Please choose from the features listed.",
  suggestions: `Please keep your suggestions under ${withThousands(SUGGESTIONS_MAX)} characters.`,
  thanks: "Thank you for your feedback",
  thanksText: "Your answers help us make Everlight better for every family.",
  already: "You have already shared your feedback. Thank you!",
} as const;

const rating = z
  .union([z.int(), z.string().trim().regex(/^\d+$/).transform(Number)], { error: FEEDBACK_MESSAGES.rating })
  .pipe(z.int().min(RATING_MIN, FEEDBACK_MESSAGES.rating).max(RATING_MAX, FEEDBACK_MESSAGES.rating));

/** The answers, keyed by question id, as stored in feedback.content (a JSON string). */
export const uxFeedbackAnswersSchema = z.object({
  ease_of_use: rating,
  feature_satisfaction: z
    .array(z.enum(FEATURE_OPTIONS, { error: FEEDBACK_MESSAGES.unknownFeature }), { error: FEEDBACK_MESSAGES.features })
    .min(1, FEEDBACK_MESSAGES.features)
    .transform((chosen) => FEATURE_OPTIONS.filter((option) => chosen.includes(option))),
  improvement_suggestions: text({ error: FEEDBACK_MESSAGES.suggestions }).trim().max(SUGGESTIONS_MAX, FEEDBACK_MESSAGES.suggestions).default(""),
});
export type UxFeedbackAnswers = z.output<typeof uxFeedbackAnswersSchema>;

/** Answers as typed so far (form fields or URL parameters), before they are checked. */
export type DraftAnswers = { ease_of_use: string; feature_satisfaction: string[]; improvement_suggestions: string };

export function readDraftAnswers(source: URLSearchParams | FormData): DraftAnswers {
  const text = (name: string) => {
    const value = source.get(name);
    return typeof value === "string" ? value : "";
  };
  return {
    ease_of_use: text("ease_of_use"),
    feature_satisfaction: source.getAll("feature_satisfaction").filter((v): v is string => typeof v === "string"),
    improvement_suggestions: text("improvement_suggestions").slice(0, SUGGESTIONS_MAX * 2),
  };
}

/** What is wrong with one question's answer, or null (Next is blocked until it is null). */
export function questionError(id: QuestionId, answers: DraftAnswers): string | null {
  const result = uxFeedbackAnswersSchema.shape[id].safeParse(answers[id]);
  return result.success ? null : (result.error.issues[0]?.message ?? FEEDBACK_MESSAGES.rating);
}

/** The first question (0-based) whose answer is missing or wrong among those before `step`, with why. */
export function firstUnanswered(answers: DraftAnswers, step: number = FEEDBACK_QUESTIONS.length): { step: number; error: string } | null {
  for (let index = 0; index < Math.min(step, FEEDBACK_QUESTIONS.length); index++) {
    const error = questionError(FEEDBACK_QUESTIONS[index].id, answers);
    if (error) return { step: index, error };
  }
  return null;
}

/** Where the popup is: the question shown (0-based), the answers so far, and why Next was refused. */
export type FeedbackView = { step: number; answers: DraftAnswers; error: string | null };

export const FEEDBACK_STEP_PARAM = "feedbackStep";

/**
 * The popup's place from the address (the no-JavaScript form moves between questions with GET, carrying
 * the answers so far): the question asked for (1-based in the address), or the first earlier one whose
 * required answer is missing, with its message.
 */
export function feedbackViewFrom(params: URLSearchParams): FeedbackView {
  const answers = readDraftAnswers(params);
  const asked = Number.parseInt(params.get(FEEDBACK_STEP_PARAM) ?? "1", 10);
  const step = Math.min(Math.max(Number.isFinite(asked) ? asked - 1 : 0, 0), FEEDBACK_QUESTIONS.length - 1);
  const blocked = firstUnanswered(answers, step);
  return blocked ? { step: blocked.step, answers, error: blocked.error } : { step, answers, error: null };
}

/** The popup type named in an /api path, or null for any other (a 404 there). */
export function popupTypeOf(value: string | undefined): PopupType | null {
  return POPUP_TYPES.find((type) => type === value) ?? null;
}
