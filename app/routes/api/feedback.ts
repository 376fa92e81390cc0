import { z } from "~/utils/validation/zod";
import { listOwnFeedback, saveFeedback, toApiFeedback } from "~/models/feedback.server";
import { listAllFeedbackForApi } from "~/models/admin.server";
import { apiWindow } from "~/request/admin.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { FEEDBACK_MESSAGES, FEEDBACK_TYPES, RATING_MAX, RATING_MIN, uxFeedbackAnswersSchema } from "~/utils/feedback";

// GET /api/feedback: the caller's own feedback, newest first (an administrator's: everyone's). POST /api/feedback { type, content, rating }
//: content is a JSON string of the answers keyed by question id, checked like
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

const api = apiRoute({
  // An administrator gets everyone's (this is an admin call first), ?mine=true their own.
  GET: endpoint({
    access: "member",
    handle: async ({ user, url }) =>
      (user.isAdmin && url.searchParams.get("mine") !== "true" ? await listAllFeedbackForApi(apiWindow(url)) : await listOwnFeedback(user.id)).map(
        toApiFeedback,
      ),
  }),
  POST: endpoint({
    access: "member",
    body: bodySchema,
    maxBodyBytes: 30_000,
    handle: async ({ user, body }) => {
      const saved = await saveFeedback(user.id, body.content);
      if (saved.status === "already") return apiError(409, FEEDBACK_MESSAGES.already);
      return created(toApiFeedback(saved.feedback));
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
