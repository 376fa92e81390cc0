import { z } from "~/utils/validation/zod";
import { setContactStatus } from "~/models/admin.server";
import { actorOf } from "~/request/auth.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { ADMIN_MESSAGES, contactStatusSchema } from "~/utils/validation/admin";

// PATCH /api/admin/contact-messages/{id}/status { status }: any of new,
// read, replied, resolved.
const api = apiRoute({
  PATCH: endpoint({
    access: "admin",
    body: z.object({ status: contactStatusSchema }),
    ids: { id: ADMIN_MESSAGES.messageNotFound },
    handle: async ({ user, params, body, request }) => {
      const updated = await setContactStatus(actorOf(user, request), params.id!, body.status);
      if (!updated) return apiError(404, ADMIN_MESSAGES.messageNotFound);
      return updated;
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
