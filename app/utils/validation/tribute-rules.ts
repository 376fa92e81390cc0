// The tribute form's limits, messages and checks without a schema library, so that the memorial page
// (the page our visitors land on) ships no validation library to the browser. The server checks the
// same rules with zod (tribute.ts, built on these constants and the same email pattern); a test holds
// the two together.

import { withThousands } from "~/utils/text";
import { hasControlCharacters, TEXT_MESSAGES } from "./text-rules";

export const TRIBUTE_LIMITS = { nameMin: 2, nameMax: 80, contentMin: 10, contentMax: 2000, emailMax: 254 } as const;

export const TRIBUTE_MESSAGES = {
  name: `Please enter your name (${TRIBUTE_LIMITS.nameMin}–${TRIBUTE_LIMITS.nameMax} characters)`,
  content: `Please write your tribute (${TRIBUTE_LIMITS.contentMin}–${withThousands(TRIBUTE_LIMITS.contentMax)} characters)`,
  email: "Please enter a valid email address, or leave it empty",
  submitFailed: "Failed to submit tribute. Please try again.",
  pending: "Thank you. Your tribute has been sent to the family and will appear once they approve it.",
  tooFast: "That was quicker than we expected. Please take a moment to read your tribute through, then send it again.",
  honeypot:
    "Your tribute looked like automated spam and was not sent. If you are a person, please leave the field marked “Leave this empty” empty and send it again.",
  rateLimited: "You have left several tributes in a short time.",
  approveFailed: "Failed to approve tribute. Please try again.",
  deleteFailed: "Failed to delete tribute. Please try again.",
  adminRestricted: "Actions restricted: Memorial created by non-admin user.",
} as const;

/** zod's own email pattern (zod/v4 core regexes.email), so browser and server agree on every address. */
// Also an HTML pattern attribute, compiled with the v flag, where a hyphen in a class must be escaped.
// eslint-disable-next-line no-useless-escape
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

export const TRIBUTE_FIELDS = ["authorName", "authorEmail", "content"] as const;
export type TributeField = (typeof TRIBUTE_FIELDS)[number];

/** The error for one field of the tribute form, or null when it is fine. */
export function checkTributeField(field: TributeField, value: string): string | null {
  if (hasControlCharacters(value)) return TEXT_MESSAGES.control;
  const v = value.trim();
  const within = (min: number, max: number) => v.length >= min && v.length <= max;
  if (field === "authorName") return within(TRIBUTE_LIMITS.nameMin, TRIBUTE_LIMITS.nameMax) ? null : TRIBUTE_MESSAGES.name;
  if (field === "content") return within(TRIBUTE_LIMITS.contentMin, TRIBUTE_LIMITS.contentMax) ? null : TRIBUTE_MESSAGES.content;
  return v === "" || (v.length <= TRIBUTE_LIMITS.emailMax && EMAIL_PATTERN.test(v.toLowerCase())) ? null : TRIBUTE_MESSAGES.email;
}
