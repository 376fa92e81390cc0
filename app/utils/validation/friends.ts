import { z } from "~/utils/validation/zod";
import { MESSAGES } from "./account-rules";
import { text } from "./text";

// Friends: the forms' and the
// /api's rules and sentences, in one place for both.

export const FRIEND_MESSAGES = {
  searchSignIn: "Please log in to search for users.",
  searchFailed: "Search failed.",
  requestSignIn: "Please log in to send friend requests.",
  requestFailed: "Failed to send request.",
  respondFailed: "Failed to respond.",
  removeFailed: "Failed to remove friend.",
  cancelFailed: "Failed to cancel request.",
  emailRequired: "Please enter an email address to search for.",
  email: MESSAGES.email,
  /** The same answer for an unknown address and for a member who chose not to be found (README). */
  noMatch: "No member found with that email address. They may not have an account yet, or may have chosen not to be found by email.",
  self: "That is your own email address.",
  memberNotFound: "We could not find that member.",
  requestNotFound: "That request is no longer waiting: it may have been answered or cancelled.",
  notFriends: "You are not friends with that member.",
} as const;

/** After a rejected request, its sender may ask the same member again this many days later (README). */
export const REQUEST_AGAIN_AFTER_DAYS = 30;

/** Friends listed per page (a long-lived member may have hundreds). */
export const FRIENDS_PAGE_SIZE = 50;

export const friendSearchSchema = z.object({
  email: text({ error: FRIEND_MESSAGES.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, FRIEND_MESSAGES.emailRequired)
    .max(254, FRIEND_MESSAGES.email)
    .pipe(z.email({ error: FRIEND_MESSAGES.email })),
});

const recordId = (message: string) => text({ error: message }).trim().min(1, message).max(100, message);

export const friendRequestSchema = z.object({ receiverId: recordId("receiverId is required") });

export const FRIEND_RESPONSES = ["accepted", "rejected"] as const;
export const respondSchema = z.object({
  response: z.enum(FRIEND_RESPONSES, { error: "response must be accepted or rejected" }),
});

/** The screens' forms: one intent each, with the id it acts on. */
export const friendActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("request"), receiverId: recordId("Choose a member") }),
  z.object({ intent: z.literal("accept"), requestId: recordId("Choose a request") }),
  z.object({ intent: z.literal("reject"), requestId: recordId("Choose a request") }),
  z.object({ intent: z.literal("cancel"), requestId: recordId("Choose a request") }),
  z.object({ intent: z.literal("remove"), friendId: recordId("Choose a friend") }),
]);

export type FriendshipStatus = "none" | "friends" | "pending_sent" | "pending_received";
