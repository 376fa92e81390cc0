import { sendFriendRequest, toApiPerson } from "~/models/community/friends.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { failingAs, refusalAnswer } from "~/request/refusal.server";
import { FRIEND_MESSAGES, friendRequestSchema } from "~/utils/validation/friends";

// POST /api/friends/request with receiverId: 201 with the waiting request;
// the receiver is emailed if they want to be. Refusals carry "Failed to send request." and why.

const api = apiRoute({
  POST: endpoint({
    access: "member",
    signInMessage: FRIEND_MESSAGES.requestSignIn,
    body: friendRequestSchema,
    handle: ({ user, body }) =>
      failingAs(FRIEND_MESSAGES.requestFailed, async () => {
        const result = await sendFriendRequest(user, body.receiverId);
        if (!result.ok) return refusalAnswer(result, FRIEND_MESSAGES.requestFailed);
        return created({
          id: result.requestId,
          senderId: user.id,
          receiverId: result.receiver.id,
          status: "pending",
          receiver: toApiPerson(result.receiver),
          message: "Friend request sent",
        });
      }),
  }),
});
export const loader = api.loader;
export const action = api.action;
