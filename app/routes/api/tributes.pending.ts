import { listPendingForOwner } from "~/models/tributes/tributes.server";
import { apiRoute, endpoint } from "~/request/api-route.server";

// GET /api/tributes/pending: pending tributes on the caller's own memorials only.
const api = apiRoute({
  GET: endpoint({ access: "member", handle: ({ user }) => listPendingForOwner(user.id) }),
});
export const loader = api.loader;
export const action = api.action;
