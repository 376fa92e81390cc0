import { listContactMessagesForApi } from "~/models/admin.server";
import { apiWindow } from "~/request/admin.server";
import { apiRoute, endpoint } from "~/request/api-route.server";

// GET /api/admin/contact-messages: newest first, ?limit= and ?offset=.
const api = apiRoute({
  GET: endpoint({ access: "admin", handle: ({ url }) => listContactMessagesForApi(apiWindow(url)) }),
});
export const loader = api.loader;
export const action = api.action;
