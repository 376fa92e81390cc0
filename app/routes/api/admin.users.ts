import { listUsersForApi } from "~/models/admin.server";
import { apiWindow } from "~/request/admin.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { cleanSearch } from "~/utils/validation/admin";

// GET /api/admin/users: users newest first, ?search= by name or
// email, ?limit= (at most 100) and ?offset=; never a password hash.
const api = apiRoute({
  GET: endpoint({ access: "admin", handle: ({ url }) => listUsersForApi({ search: cleanSearch(url.searchParams.get("search")), ...apiWindow(url) }) }),
});
export const loader = api.loader;
export const action = api.action;
