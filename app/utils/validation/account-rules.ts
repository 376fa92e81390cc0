// Account rules and words that pages need in the browser, without a schema library (the memorial page,
// where most visitors land, ships none). The zod schemas in account.ts are built on these.

export const MESSAGES = {
  email: "Please enter a valid email address",
  loginPassword: "Password must be at least 6 characters",
  firstNameMin: "First name must be at least 2 characters",
  lastNameMin: "Last name must be at least 2 characters",
  passwordMin: "Password must be at least 8 characters",
  passwordUpper: "Password must contain at least one uppercase letter",
  passwordNumber: "Password must contain at least one number",
  passwordsMatch: "Passwords don't match",
  confirmPasswordRequired: "Please confirm your password",
  firstNameRequired: "First name is required",
  lastNameRequired: "Last name is required",
  currentPasswordRequired: "Current password is required",
  currentPasswordIncorrect: "Current password is incorrect",
  invalidLogin: "Invalid email or password. Please try again.",
  emailTaken: "An account with this email already exists. Try signing in instead.",
  deleteAccountPaymentsFailed:
    "We could not stop your monthly plan payments just now, so your account has not been deleted. Please try again in a few minutes.",
} as const;

/** Said to the right password of an account deleted less than 30 days ago (/login offers Restore; the /api says where). */
export function accountDeletedMessage(purgeAt: string, where: "here" | "website") {
  const how = where === "here" ? "You can restore it, with all its memorials, until" : "Sign in on the website to restore it, with all its memorials, before";
  return `This account was deleted. ${how} ${purgeAt}.`;
}

/** Said to the owner of an account an administrator removed, who gave its right password: no way back from here. */
export const ACCOUNT_REMOVED_MESSAGE =
  "This account was closed by our moderators, so it cannot be signed in to. If you think this is a mistake, please write to us through the contact page.";

/** The live checklist under new-password fields: label and test, in the order shown. */
export const PASSWORD_RULES = [
  { label: "At least 8 characters", test: (p: string) => p.length >= 8, message: MESSAGES.passwordMin },
  { label: "One uppercase letter", test: (p: string) => /[A-Z]/.test(p), message: MESSAGES.passwordUpper },
  { label: "One number", test: (p: string) => /[0-9]/.test(p), message: MESSAGES.passwordNumber },
] as const;

// Unlisted (docs/decisions/027-sharing-and-unlisted.md): anyone with the link, but in no list.
export const VISIBILITIES = ["public", "unlisted", "friends", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const VISIBILITY_LABELS = { public: "Public", unlisted: "Unlisted", friends: "Friends Only", private: "Private" } as const;
/** What a visibility that is not one of ours is refused with, on the forms and in the /api. */
export const VISIBILITY_CHOICE = "Choose Public, Unlisted, Friends Only or Private";

/**
 * Who can see a memorial, as families are told it: truthful about Everlight's moderators,
 * who can open any memorial (memorials/access-rules.ts). One wording for the memorial form, the Privacy tab,
 * Help and the Terms.
 */
export const MODERATION_POLICY =
  "Whatever a memorial's visibility, Everlight's moderators can open it to keep the site safe, and may remove one that breaks our terms. They never edit it.";
const MODERATORS_TOO = "Everlight's moderators can open it too.";
export const VISIBILITY_HINTS = {
  public: "Anyone can find and view this memorial.",
  unlisted: "Anyone with the link can view it, but it is not shown in lists or search, and search engines are asked not to index it.",
  friends: `Only you and the members you have accepted as friends can view it. ${MODERATORS_TOO}`,
  private: `Only you can view it. ${MODERATORS_TOO}`,
} as const satisfies Record<(typeof VISIBILITIES)[number], string>;
