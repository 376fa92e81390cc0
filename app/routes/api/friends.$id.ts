import { removeFriend } from "~/models/community/friends.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { failingAs, refusalAnswer } from "~/request/refusal.server";
import { FRIEND_MESSAGES } from "~/utils/validation/friends";

// DELETE /api/friends/{id}: ends the friendship with the member whose user
// id this is, both ways at once; their friends-only memorials close to each other from the next request.

const api = apiRoute({
  DELETE: endpoint({
    access: "member",
    handle: ({ user, params }) =>
      failingAs(FRIEND_MESSAGES.removeFailed, async () => {
        const result = await removeFriend(user.id, params.id ?? "");
        if (!result.ok) return refusalAnswer(result, FRIEND_MESSAGES.removeFailed);
        return { message: "Friend removed" };
      }),
  }),
});
export const loader = api.loader;
export const action = api.action;
