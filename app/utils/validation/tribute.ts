import { z } from "~/utils/validation/zod";
import { text } from "./text";
import { EMAIL_PATTERN, TRIBUTE_LIMITS, TRIBUTE_MESSAGES } from "./tribute-rules";

// The tribute form: author name and content required, email optional but valid.
// The lengths are ours, shown beside the fields. The limits, messages and the browser's
// own checks are in tribute-rules.ts, which has no zod in it.

export { TRIBUTE_LIMITS, TRIBUTE_MESSAGES } from "./tribute-rules";

export const tributeSchema = z.object({
  authorName: text({ error: TRIBUTE_MESSAGES.name })
    .trim()
    .min(TRIBUTE_LIMITS.nameMin, TRIBUTE_MESSAGES.name)
    .max(TRIBUTE_LIMITS.nameMax, TRIBUTE_MESSAGES.name),
  authorEmail: text()
    .trim()
    .toLowerCase()
    .max(TRIBUTE_LIMITS.emailMax, TRIBUTE_MESSAGES.email)
    .optional()
    .nullable()
    .transform((v) => v || null)
    .refine((v) => v === null || EMAIL_PATTERN.test(v), TRIBUTE_MESSAGES.email),
  content: text({ error: TRIBUTE_MESSAGES.content })
    .trim()
    .min(TRIBUTE_LIMITS.contentMin, TRIBUTE_MESSAGES.content)
    .max(TRIBUTE_LIMITS.contentMax, TRIBUTE_MESSAGES.content),
});
export type TributeInput = z.output<typeof tributeSchema>;
