import { z } from "~/utils/validation/zod";
import { changeOrderStatus } from "~/models/commerce/order-status.server";
import { actorOf } from "~/request/auth.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { ADMIN_MESSAGES, orderStatusSchema, shipOrderSchema } from "~/utils/validation/admin";

// An /api call of our own: PATCH /api/admin/orders/{id}/status { status },
// the Orders tab's status change. Cancelling a paid order refunds it once, puts its items back in stock once
// and emails the customer; "shipped" takes carrier and trackingNumber and emails them.
const api = apiRoute({
  PATCH: endpoint({
    access: "admin",
    body: z.object({ status: orderStatusSchema, carrier: z.unknown().optional(), trackingNumber: z.unknown().optional() }).superRefine((body, ctx) => {
      if (body.status !== "shipped") return;
      const parsed = shipOrderSchema.safeParse(body);
      for (const issue of parsed.error?.issues ?? []) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    }),
    ids: { id: ADMIN_MESSAGES.orderNotFound },
    handle: async ({ user, params, body, request }) => {
      const shipping = body.status === "shipped" ? shipOrderSchema.parse(body) : undefined;
      const result = await changeOrderStatus(actorOf(user, request), params.id!, body.status, { shipping });
      if (!result.ok) return apiError(result.reason === "not-found" ? 404 : result.reason === "refund-failed" ? 502 : 409, result.message);
      return { message: "Status updated", status: result.status, refunded: result.refunded, ...(shipping ?? {}) };
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
