import { moderateTribute } from "~/models/tributes/tributes.server";
import { actorOf } from "~/request/auth.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { moderationAnswer } from "~/request/api.server";

// PUT /api/tributes/{id}/approve: the memorial's owner, or an admin on an admin's memorial; the use case
// decides, and records an administrator's act in the audit log.
const api = apiRoute({
  PUT: endpoint({
    access: "member",
    handle: async ({ user, params, request }) =>
      moderationAnswer(await moderateTribute("approve", params.id ?? "", actorOf(user, request)), "The tribute has been approved and is now visible."),
  }),
});
export const loader = api.loader;
export const action = api.action;
