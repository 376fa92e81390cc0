import { approveTribute } from "~/models/tribute.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { moderationAnswer } from "~/request/api.server";

// PUT /api/tributes/{id}/approve: the memorial's owner, or an admin on an admin's memorial.
const api = apiRoute({
  PUT: endpoint({
    access: "member",
    handle: async ({ user, params }) => moderationAnswer(await approveTribute(params.id ?? "", user), "The tribute has been approved and is now visible."),
  }),
});
export const loader = api.loader;
export const action = api.action;
