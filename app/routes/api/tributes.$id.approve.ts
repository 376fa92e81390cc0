import { moderateTributeAsAdmin } from "~/models/admin.server";
import { approveTribute } from "~/models/tribute.server";
import { apiActor } from "~/request/admin.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { moderationAnswer } from "~/request/api.server";

// PUT /api/tributes/{id}/approve: the memorial's owner, or an admin on an admin's memorial.
const api = apiRoute({
  PUT: endpoint({
    access: "member",
    // An administrator's moderation is recorded in the audit log (issue 19 §8); the rule is the same.
    handle: async ({ user, params, request }) =>
      moderationAnswer(
        user.isAdmin ? await moderateTributeAsAdmin(apiActor(user, request), "approve", params.id ?? "") : await approveTribute(params.id ?? "", user),
        "The tribute has been approved and is now visible.",
      ),
  }),
});
export const loader = api.loader;
export const action = api.action;
