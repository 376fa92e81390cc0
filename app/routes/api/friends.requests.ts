import { listReceivedRequests, listSentRequests, toApiPerson } from "~/models/community/friends.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";

// GET /api/friends/requests (each request shows its sender's profileImageUrl, firstName, lastName and
// email, and its createdAt): the requests waiting for the caller's answer. Ours beside
// it: ?direction=sent lists the caller's own waiting requests (with their receiver), which they may cancel.

const api = apiRoute({
  GET: endpoint({
    access: "member",
    handle: async ({ user, url }) => {
      const direction = url.searchParams.get("direction") ?? "received";
      if (direction === "sent") {
        return (await listSentRequests(user.id)).map((r) => ({
          id: r.id,
          status: "pending",
          createdAt: r.createdAt.toISOString(),
          receiver: toApiPerson(r.receiver),
        }));
      }
      if (direction !== "received") return apiError(400, "direction must be received or sent");
      return (await listReceivedRequests(user.id)).map((r) => ({
        id: r.id,
        status: "pending",
        createdAt: r.createdAt.toISOString(),
        sender: toApiPerson(r.sender),
      }));
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
