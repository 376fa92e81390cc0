import { respondToFriendRequest, toApiPerson } from "~/models/community/friends.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { failingAs, refusalAnswer } from "~/request/refusal.server";
import { FRIEND_MESSAGES, respondSchema } from "~/utils/validation/friends";

// POST /api/friends/requests/{id}/respond with response accepted or rejected:
// only the request's receiver, only while it waits. Accepting makes both friends at once.

const api = apiRoute({
  POST: endpoint({
    access: "member",
    body: respondSchema,
    handle: ({ user, params, body }) =>
      failingAs(FRIEND_MESSAGES.respondFailed, async () => {
        const result = await respondToFriendRequest(user.id, params.id ?? "", body.response);
        if (!result.ok) return refusalAnswer(result, FRIEND_MESSAGES.respondFailed);
        return {
          id: params.id,
          status: result.status,
          sender: toApiPerson(result.sender),
          message: result.status === "accepted" ? "Friend request accepted" : "Friend request rejected",
        };
      }),
  }),
});
export const loader = api.loader;
export const action = api.action;
