import { z } from "~/utils/validation/zod";
import { VISIBILITIES, VISIBILITY_CHOICE, type Visibility } from "./account-rules";
import { withThousands } from "~/utils/text";
import { checkCalendarDate } from "./text-rules";
import { text, TEXT_MESSAGES } from "./text";

// The memorial form's rules, shared by the create/edit forms and the /api.
// The messages and limits chosen here are documented in the README.

export const MEMORIAL_MESSAGES = {
  firstName: "First name is required",
  lastName: "Last name is required",
  date: TEXT_MESSAGES.dateFormat,
  futureDate: "The date cannot be in the future",
  passingBeforeBirth: "The date of passing cannot be before the date of birth",
  visibility: VISIBILITY_CHOICE,
  category: "Choose Individual or Organization",
  createFailed: "Failed to create memorial. Please try again.",
  updateFailed: "Failed to update memorial. Please try again.",
  deleteConfirm:
    "Are you sure you want to delete this memorial? It is hidden from everyone at once and kept for 30 days, when you can restore it from My Memorials (Recently deleted). After that it is removed for good.",
  deleteFailed: "Failed to delete memorial. Please try again.",
  notAuthorized: "You are not authorized to edit this memorial",
  unpublished: "It is now a draft: visitors cannot see it until you publish it again.",
} as const;

export const MEMORIAL_LIMITS = { name: 100, title: 200, biography: 20_000 } as const;

const today = () => new Date().toISOString().slice(0, 10);

const dateField = text()
  .trim()
  .optional()
  .nullable()
  .transform((v) => (v ? v : null))
  .superRefine((v, ctx) => {
    const problem = v === null ? null : checkCalendarDate(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem, abort: true });
  })
  .refine((v) => v === null || v <= today(), MEMORIAL_MESSAGES.futureDate);

const fields = {
  firstName: text({ error: MEMORIAL_MESSAGES.firstName })
    .trim()
    .min(1, MEMORIAL_MESSAGES.firstName)
    .max(MEMORIAL_LIMITS.name, `At most ${MEMORIAL_LIMITS.name} characters`),
  lastName: text({ error: MEMORIAL_MESSAGES.lastName })
    .trim()
    .min(1, MEMORIAL_MESSAGES.lastName)
    .max(MEMORIAL_LIMITS.name, `At most ${MEMORIAL_LIMITS.name} characters`),
  title: text().trim().max(MEMORIAL_LIMITS.title, `At most ${MEMORIAL_LIMITS.title} characters`).optional().nullable(),
  dateOfBirth: dateField,
  dateOfPassing: dateField,
  biography: text()
    .trim()
    .max(MEMORIAL_LIMITS.biography, `The biography can be at most ${withThousands(MEMORIAL_LIMITS.biography)} characters`)
    .optional()
    .nullable()
    .transform((v) => v || null),
  visibility: z.enum(VISIBILITIES, { error: MEMORIAL_MESSAGES.visibility }),
  category: z.enum(["individual", "organization"], { error: MEMORIAL_MESSAGES.category }),
};

export const CATEGORY_LABELS = { individual: "Individual", organization: "Organization" } as const;

const datesInOrder = (v: { dateOfBirth?: string | null; dateOfPassing?: string | null }) =>
  !v.dateOfBirth || !v.dateOfPassing || v.dateOfBirth <= v.dateOfPassing;

/** The create/edit form. `intent` says which button was pressed: Save Draft or Publish/Update. */
export const memorialFormSchema = z
  .object({
    ...fields,
    visibility: fields.visibility.default("public"),
    category: fields.category.default("individual"),
    intent: z.enum(["draft", "publish"]).default("publish"),
  })
  .refine(datesInOrder, { message: MEMORIAL_MESSAGES.passingBeforeBirth, path: ["dateOfPassing"] });

/** POST /api/memorials */
export const apiCreateMemorialSchema = z
  .object({
    ...fields,
    visibility: fields.visibility.default("public"),
    category: fields.category.default("individual"),
    isPublished: z.boolean().default(false),
    userId: z.string().optional(),
  })
  .refine(datesInOrder, { message: MEMORIAL_MESSAGES.passingBeforeBirth, path: ["dateOfPassing"] });

/** PUT /api/memorials/{id}: partial. */
export const apiUpdateMemorialSchema = z
  .object({
    firstName: fields.firstName.optional(),
    lastName: fields.lastName.optional(),
    title: fields.title,
    dateOfBirth: dateField,
    dateOfPassing: dateField,
    biography: fields.biography,
    visibility: fields.visibility.optional(),
    category: fields.category.optional(),
    isPublished: z.boolean().optional(),
    profileImageUrl: text().max(2000).optional().nullable(),
  })
  .partial();

export type MemorialInput = {
  firstName: string;
  lastName: string;
  title?: string | null;
  dateOfBirth: string | null;
  dateOfPassing: string | null;
  biography: string | null;
  visibility: Visibility;
  /** The browse page's filter; individual unless chosen. */
  category?: "individual" | "organization";
  isPublished: boolean;
};
