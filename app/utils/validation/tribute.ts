import { z } from "zod";

// The tribute form (memorial-core.md §5): author name and content required, email optional but valid.
// The spec leaves lengths open; ours are shown beside the fields.

export const TRIBUTE_LIMITS = { nameMin: 2, nameMax: 80, contentMin: 10, contentMax: 2000, emailMax: 254 } as const;

export const TRIBUTE_MESSAGES = {
  name: `Please enter your name (${TRIBUTE_LIMITS.nameMin}–${TRIBUTE_LIMITS.nameMax} characters)`,
  content: `Please write your tribute (${TRIBUTE_LIMITS.contentMin}–${TRIBUTE_LIMITS.contentMax.toLocaleString("en-GB")} characters)`,
  email: "Please enter a valid email address, or leave it empty",
  submitFailed: "Failed to submit tribute. Please try again.",
  pending: "Thank you. Your tribute has been sent to the family and will appear once they approve it.",
  tooFast: "That was quicker than we expected. Please take a moment to read your tribute through, then send it again.",
  honeypot: "Your tribute looked like automated spam and was not sent. If you are a person, please leave the field marked “Leave this empty” empty and send it again.",
  rateLimited: "You have left several tributes in a short time.",
  approveFailed: "Failed to approve tribute. Please try again.",
  deleteFailed: "Failed to delete tribute. Please try again.",
  adminRestricted: "Actions restricted: Memorial created by non-admin user.",
} as const;

export const tributeSchema = z.object({
  authorName: z.string({ error: TRIBUTE_MESSAGES.name }).trim().min(TRIBUTE_LIMITS.nameMin, TRIBUTE_MESSAGES.name).max(TRIBUTE_LIMITS.nameMax, TRIBUTE_MESSAGES.name),
  authorEmail: z
    .string()
    .trim()
    .toLowerCase()
    .max(TRIBUTE_LIMITS.emailMax, TRIBUTE_MESSAGES.email)
    .optional()
    .nullable()
    .transform((v) => v || null)
    .refine((v) => v === null || z.email().safeParse(v).success, TRIBUTE_MESSAGES.email),
  content: z.string({ error: TRIBUTE_MESSAGES.content }).trim().min(TRIBUTE_LIMITS.contentMin, TRIBUTE_MESSAGES.content).max(TRIBUTE_LIMITS.contentMax, TRIBUTE_MESSAGES.content),
});
export type TributeInput = z.output<typeof tributeSchema>;
