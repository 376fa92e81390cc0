import { cancelFriendRequest } from "~/models/community/friends.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { failingAs, refusalAnswer } from "~/request/refusal.server";
import { FRIEND_MESSAGES } from "~/utils/validation/friends";

// DELETE /api/friends/requests/{id}, a call of our own: the sender withdraws a request that
// still waits.

const api = apiRoute({
  DELETE: endpoint({
    access: "member",
    handle: ({ user, params }) =>
      failingAs(FRIEND_MESSAGES.cancelFailed, async () => {
        const result = await cancelFriendRequest(user.id, params.id ?? "");
        if (!result.ok) return refusalAnswer(result, FRIEND_MESSAGES.cancelFailed);
        return { id: params.id, message: "Friend request cancelled" };
      }),
  }),
});
export const loader = api.loader;
export const action = api.action;
