import { moderateTribute } from "~/models/tributes/tributes.server";
import { actorOf } from "~/request/auth.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { moderationAnswer } from "~/request/api.server";

// DELETE /api/tributes/{id}: reject or delete; the same rule, and the same audit, as approving.
const api = apiRoute({
  DELETE: endpoint({
    access: "member",
    handle: async ({ user, params, request }) =>
      moderationAnswer(await moderateTribute("reject", params.id ?? "", actorOf(user, request)), "The tribute has been deleted."),
  }),
});
export const loader = api.loader;
export const action = api.action;
