import { z } from "~/utils/validation/zod";
import { text } from "./validation/text";

// Following a memorial (docs/decisions/023-follow.md): what the pages and emails say,
// and the visitor form's rules, in one place.

/** How long a visitor's confirmation link works; an unconfirmed follow is deleted after it. */
export const FOLLOW_CONFIRM_VALID_DAYS = 7;
/** New tributes and photos wait this long before a digest goes, so one moderation session makes one email. */
export const DIGEST_FOLD_MS = 60 * 60_000;
/** At most one digest per follower per memorial in this time. */
export const DIGEST_INTERVAL_MS = 24 * 3600_000;
/** The most tributes one digest lists by name (the rest are counted). */
export const DIGEST_MAX_TRIBUTES = 10;

export const FOLLOW_MESSAGES = {
  follow: "Follow",
  following: "Following",
  unfollow: "Unfollow",
  hint: "Get an email, at most once a day, when new tributes or photos appear.",
  remindersLabel: "Also remind me of the anniversaries",
  showNameLabel: "Let the family see my name",
  emailLabel: "Your email address",
  emailRequired: "Enter your email address",
  emailInvalid: "Enter an email address like name@example.com",
  checkEmail: "Check your email: we sent you a link to confirm. Nothing else is sent until you do.",
  followed: "You follow this memorial",
  unfollowed: "You no longer follow this memorial",
  confirmed: "You follow this memorial now",
  rateLimited: "Too many follow requests from your network.",
  invalidLink: "This confirmation link is not valid or has expired. Follow the memorial again to get a new one.",
  alreadyConfirmed: "This link was already used: you follow this memorial.",
  turnRemindersOn: "Turn reminders on",
  turnRemindersOff: "Turn reminders off",
  remindersOn: "Anniversary reminders are on: we will email you a week before each anniversary, and on the day",
  remindersOff: "Anniversary reminders are off for this memorial. You still follow it",
  notFollowed: "You do not follow this memorial",
  nothingFollowed: "You do not follow any memorials yet. Open a memorial and choose Follow.",
} as const;

export const visitorFollowSchema = z.object({
  email: text({ error: FOLLOW_MESSAGES.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, FOLLOW_MESSAGES.emailRequired)
    .max(254, FOLLOW_MESSAGES.emailInvalid)
    .pipe(z.email({ error: FOLLOW_MESSAGES.emailInvalid })),
  reminders: z.boolean().default(false),
});
export type VisitorFollowInput = z.infer<typeof visitorFollowSchema>;
