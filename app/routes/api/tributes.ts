import { listTributesForAdmin } from "~/models/tributes/tributes.server";
import { apiRoute, endpoint } from "~/request/api-route.server";

// GET /api/tributes?approved=false (administrators): every pending tribute
// with the memorialCreatorIsAdmin flag that decides whether the admin may act on it.
const api = apiRoute({
  GET: endpoint({ access: "admin", handle: ({ url }) => listTributesForAdmin(url.searchParams.get("approved") === "true") }),
});
export const loader = api.loader;
export const action = api.action;
