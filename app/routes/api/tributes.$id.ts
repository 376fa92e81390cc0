import { moderateTributeAsAdmin } from "~/models/admin.server";
import { deleteTribute } from "~/models/tribute.server";
import { apiActor } from "~/request/admin.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { moderationAnswer } from "~/request/api.server";

// DELETE /api/tributes/{id}: reject or delete; the same rule as approving.
const api = apiRoute({
  DELETE: endpoint({
    access: "member",
    handle: async ({ user, params, request }) =>
      moderationAnswer(
        user.isAdmin ? await moderateTributeAsAdmin(apiActor(user, request), "delete", params.id ?? "") : await deleteTribute(params.id ?? "", user),
        "The tribute has been deleted.",
      ),
  }),
});
export const loader = api.loader;
export const action = api.action;
