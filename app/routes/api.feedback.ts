import { z } from "zod";
import type { Route } from "./+types/api.feedback";
import { listOwnFeedback, saveFeedback, toApiFeedback } from "~/models/feedback.server";
import { apiError, json, methodNotAllowed, readJsonBody, requireApiUser, withApiErrors } from "~/services/api.server";
import { FEEDBACK_MESSAGES, FEEDBACK_TYPES, RATING_MAX, RATING_MIN, uxFeedbackAnswersSchema } from "~/utils/feedback";

// GET /api/feedback: the caller's own feedback, newest first. POST /api/feedback { type, content, rating }
// (memorial-core.md §3, §7): content is a JSON string of the answers keyed by question id, checked like
// the dialog's answers; rating, when given, is the ease_of_use answer.

const MESSAGES = {
  type: `type must be ${FEEDBACK_TYPES.join(" or ")}`,
  content: "content must be a JSON string of the answers keyed by question id",
  rating: `rating must be an integer from ${RATING_MIN} to ${RATING_MAX}, or null`,
  ratingMismatch: "rating must equal the ease_of_use answer",
} as const;

const bodySchema = z
  .object({
    type: z.enum(FEEDBACK_TYPES, { error: MESSAGES.type }),
    content: z
      .string({ error: MESSAGES.content })
      .max(20_000, MESSAGES.content)
      .transform((text, ctx) => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          ctx.addIssue({ code: "custom", message: MESSAGES.content });
          return z.NEVER;
        }
      })
      .pipe(z.looseObject({}, { error: MESSAGES.content }).pipe(uxFeedbackAnswersSchema)),
    rating: z.int({ error: MESSAGES.rating }).min(RATING_MIN, MESSAGES.rating).max(RATING_MAX, MESSAGES.rating).nullable().optional(),
  })
  .refine((body) => body.rating == null || body.rating === body.content.ease_of_use, { message: MESSAGES.ratingMismatch, path: ["rating"] });

export async function loader({ request }: Route.LoaderArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    return json((await listOwnFeedback(user.id)).map(toApiFeedback));
  });
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const body = await readJsonBody(request, bodySchema, { maxBytes: 30_000 });
    const saved = await saveFeedback(user.id, body.content);
    if (saved.status === "already") return apiError(409, FEEDBACK_MESSAGES.already);
    return json(toApiFeedback(saved.feedback), { status: 201 });
  });
}
