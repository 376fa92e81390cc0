import { listOrdersForAdminApi } from "~/models/commerce/orders.server";
import { apiWindow } from "~/request/admin.server";
import { apiRoute, endpoint } from "~/request/api-route.server";

// GET /api/admin/orders.
const api = apiRoute({
  GET: endpoint({ access: "admin", handle: ({ url }) => listOrdersForAdminApi(apiWindow(url)) }),
});
export const loader = api.loader;
export const action = api.action;
