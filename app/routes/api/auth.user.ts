import { apiRoute, endpoint } from "~/request/api-route.server";

// GET /api/auth/user: the signed-in user, or 401 `{ message }`.
const api = apiRoute({
  GET: endpoint({ access: "member", handle: ({ user }) => user }),
});
export const loader = api.loader;
export const action = api.action;
