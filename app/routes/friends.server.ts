import { parseForm } from "~/request/form.server";
import { cancelFriendRequest, removeFriend, respondToFriendRequest, sendFriendRequest } from "~/models/community/friends.server";
import { requireUser } from "~/request/auth.server";
import { redirectWithToast, type ToastInput } from "~/request/toast.server";
import { FRIEND_MESSAGES, friendActionSchema, REQUEST_AGAIN_AFTER_DAYS } from "~/utils/validation/friends";

// The /friends screens' forms, the screen's server half beside its routes: every tab posts
// `intent` and the id it acts on to its own address; the use case decides (app/models/community/friends.server.ts)
// and the member comes back to the same tab (and the same search) with a toast saying what happened.

const name = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim();

/** Where to come back to: this tab, keeping only its own query (the search, the page). */
function backTo(request: Request) {
  const url = new URL(request.url);
  const kept = new URLSearchParams();
  for (const key of ["email", "page"]) {
    const value = url.searchParams.get(key);
    if (value) kept.set(key, value);
  }
  const query = kept.toString();
  return `${url.pathname}${query ? `?${query}` : ""}`;
}

export async function friendAction(request: Request) {
  const user = await requireUser(request);
  const submission = parseForm(await request.formData(), { schema: friendActionSchema });
  const toast =
    submission.status === "success"
      ? await perform(user, submission.value)
      : { type: "error" as const, title: "Nothing was changed", description: "The form was incomplete. Please try again." };
  return redirectWithToast(backTo(request), toast);
}

async function perform(user: { id: string }, action: ReturnType<typeof friendActionSchema.parse>): Promise<ToastInput> {
  const failed = (title: string, description: string): ToastInput => ({ type: "error", title, description });
  switch (action.intent) {
    case "request": {
      const result = await sendFriendRequest(user, action.receiverId);
      if (!result.ok) return failed(FRIEND_MESSAGES.requestFailed, result.message);
      return { type: "success", title: "Friend request sent", description: `We have let ${name(result.receiver)} know. You will be friends once they accept.` };
    }
    case "accept":
    case "reject": {
      const result = await respondToFriendRequest(user.id, action.requestId, action.intent === "accept" ? "accepted" : "rejected");
      if (!result.ok) return failed(FRIEND_MESSAGES.respondFailed, result.message);
      return result.status === "accepted"
        ? {
            type: "success",
            title: "Friend request accepted",
            description: `You and ${name(result.sender)} are now friends, and can see each other's friends-only memorials.`,
          }
        : { type: "success", title: "Friend request rejected", description: `${name(result.sender)} may ask again after ${REQUEST_AGAIN_AFTER_DAYS} days.` };
    }
    case "cancel": {
      const result = await cancelFriendRequest(user.id, action.requestId);
      if (!result.ok) return failed(FRIEND_MESSAGES.cancelFailed, result.message);
      return { type: "success", title: "Friend request cancelled", description: `Your request to ${name(result.receiver)} has been withdrawn.` };
    }
    case "remove": {
      const result = await removeFriend(user.id, action.friendId);
      if (!result.ok) return failed(FRIEND_MESSAGES.removeFailed, result.message);
      return { type: "success", title: "Friend removed", description: `You and ${name(result.friend)} are no longer friends.` };
    }
  }
}
