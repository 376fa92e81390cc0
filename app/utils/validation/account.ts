import { z } from "~/utils/validation/zod";
import { MESSAGES, VISIBILITIES, VISIBILITY_CHOICE } from "./account-rules";
import { text } from "./text";

export {
  MESSAGES,
  MODERATION_POLICY,
  PASSWORD_RULES,
  VISIBILITIES,
  VISIBILITY_CHOICE,
  VISIBILITY_HINTS,
  VISIBILITY_LABELS,
  type Visibility,
} from "./account-rules";

// Account forms' rules and messages, word for word as members see them. Shared by the forms (server and
// client) and the /api; what the
// browser needs without zod is in account-rules.ts.

const NAME_MAX = 50;
const PASSWORD_MAX = 200;

const emailField = text({ error: MESSAGES.email })
  .trim()
  .toLowerCase()
  .max(254, MESSAGES.email)
  .pipe(z.email({ error: MESSAGES.email }));

const newPasswordField = z
  .string({ error: MESSAGES.passwordMin })
  .min(8, MESSAGES.passwordMin)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)
  .regex(/[A-Z]/, MESSAGES.passwordUpper)
  .regex(/[0-9]/, MESSAGES.passwordNumber);

// One check for "missing" and "too short": a name of spaces is both, and was told the same thing twice.
const name = (message: string) => text({ error: message }).trim().min(2, message).max(NAME_MAX, `Must be at most ${NAME_MAX} characters`);

// An empty confirmation is asked for; "Passwords don't match" only once something was typed to compare.
const confirmationField = z.string({ error: MESSAGES.confirmPasswordRequired }).min(1, MESSAGES.confirmPasswordRequired);
const confirms = (password: string | undefined, confirmation: string | undefined) => !confirmation || password === confirmation;

export const loginSchema = z.object({
  email: emailField,
  password: z.string({ error: MESSAGES.loginPassword }).min(6, MESSAGES.loginPassword).max(PASSWORD_MAX),
  redirectTo: z.string().optional(),
});

export const registerSchema = z
  .object({
    firstName: name(MESSAGES.firstNameMin),
    lastName: name(MESSAGES.lastNameMin),
    email: emailField,
    password: newPasswordField,
    confirmPassword: confirmationField,
    redirectTo: z.string().optional(),
  })
  .refine((v) => confirms(v.password, v.confirmPassword), { message: MESSAGES.passwordsMatch, path: ["confirmPassword"] });

/** "Choose a new password" from a reset link: the registration's password rules, and the link's token. */
export const resetPasswordSchema = z
  .object({ password: newPasswordField, confirmPassword: confirmationField, token: z.string().max(200).default("") })
  .refine((v) => confirms(v.password, v.confirmPassword), { message: MESSAGES.passwordsMatch, path: ["confirmPassword"] });

/** The /api register call sends no password confirmation. */
export const apiRegisterSchema = z.object({
  firstName: name(MESSAGES.firstNameMin),
  lastName: name(MESSAGES.lastNameMin),
  email: emailField,
  password: newPasswordField,
});

export const BIO_MAX = 1000;

export const profileSchema = z.object({
  firstName: text({ error: MESSAGES.firstNameRequired }).trim().min(1, MESSAGES.firstNameRequired).max(NAME_MAX, `Must be at most ${NAME_MAX} characters`),
  lastName: text({ error: MESSAGES.lastNameRequired }).trim().min(1, MESSAGES.lastNameRequired).max(NAME_MAX, `Must be at most ${NAME_MAX} characters`),
  bio: text()
    .trim()
    .max(BIO_MAX, `Bio must be at most ${BIO_MAX} characters`)
    .optional()
    .transform((v) => v || null),
});

export const changePasswordSchema = z
  .object({
    currentPassword: z.string({ error: MESSAGES.currentPasswordRequired }).min(1, MESSAGES.currentPasswordRequired),
    newPassword: newPasswordField,
    confirmPassword: confirmationField,
  })
  .refine((v) => confirms(v.newPassword, v.confirmPassword), { message: MESSAGES.passwordsMatch, path: ["confirmPassword"] });

export const apiChangePasswordSchema = z.object({
  currentPassword: z.string({ error: MESSAGES.currentPasswordRequired }).min(1, MESSAGES.currentPasswordRequired),
  newPassword: newPasswordField,
});

export const privacySchema = z.object({
  defaultVisibility: z.enum(VISIBILITIES, { error: VISIBILITY_CHOICE }),
  // An unticked checkbox sends nothing.
  discoverable: z
    .literal("on")
    .optional()
    .transform((v) => v === "on"),
});

export const NOTIFICATION_TOPICS = [
  { key: "tributes", label: "New tributes waiting for my approval" },
  { key: "friendRequests", label: "Friend requests" },
  { key: "orders", label: "Order and payment updates" },
  { key: "news", label: "Occasional news from Everlight" },
] as const;
export type NotificationKey = (typeof NOTIFICATION_TOPICS)[number]["key"];
export type NotificationPreferences = Record<NotificationKey, boolean>;
export const DEFAULT_NOTIFICATIONS: NotificationPreferences = { tributes: true, friendRequests: true, orders: true, news: false };

export const notificationsSchema = z.object(
  Object.fromEntries(
    NOTIFICATION_TOPICS.map((t) => [
      t.key,
      z
        .literal("on")
        .optional()
        .transform((v) => v === "on"),
    ]),
  ) as Record<NotificationKey, z.ZodPipe<z.ZodOptional<z.ZodLiteral<"on">>, z.ZodTransform<boolean, "on" | undefined>>>,
);

export const deleteAccountSchema = z.object({
  password: z.string({ error: "Enter your password to confirm" }).min(1, "Enter your password to confirm"),
});

const STAND_IN_ORIGIN = "https://everlight.invalid";

/**
 * Only same-site paths: never `//evil.example` or `https://…` (open redirects), however it is written.
 * Browsers drop tabs and newlines from addresses and read a backslash as a slash, so `/\tevil` and
 * `/\\evil` would leave the site; a path that needs control characters, backslashes or encoded slashes
 * is not one of ours either, so any of those, or anything not printable ASCII, means home.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//")) return fallback;
  // Our own addresses are sent percent-encoded (requireUser's redirectTo is a URL's path and query), so a
  // character outside printable ASCII (a control, a space, "。") is not one; it cannot go into a Location
  // header either (it made a correct sign-in answer 500).
  if (/[\\\u0000-\u0020\u007f-\uffff]/.test(to)) return fallback;
  const path = to.split(/[?#]/, 1)[0];
  if (/%(?:2f|5c|[01][0-9a-f]|7f)/i.test(path)) return fallback;
  try {
    const url = new URL(to, STAND_IN_ORIGIN);
    return url.origin === STAND_IN_ORIGIN && !url.pathname.startsWith("//") ? to : fallback;
  } catch {
    return fallback;
  }
}

/** A member's email choices as stored, with the defaults for any kind the row does not name (older rows miss newer kinds). */
export function notificationChoices(preferences: unknown): NotificationPreferences {
  return { ...DEFAULT_NOTIFICATIONS, ...((preferences ?? {}) as Partial<NotificationPreferences>) };
}

/** Whether a member wants this kind of email, from their stored choices. */
export function wantsEmail(preferences: unknown, topic: NotificationKey) {
  return notificationChoices(preferences)[topic];
}
