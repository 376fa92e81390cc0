import { cancelPlan } from "~/models/commerce/plan-instalments.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";

// POST /api/cancel-subscription (ours, so that Cancel Subscription actually does something): future
// instalments stop and the plan stays active to the end of the month paid for. A plan paid in full, or
// the free plan, has nothing to cancel: 409 with what that means.
const api = apiRoute({
  POST: endpoint({
    access: "member",
    handle: async ({ user }) => {
      const result = await cancelPlan(user);
      if (!result.ok) return apiError(result.reason === "provider" ? 502 : 409, result.message);
      return { message: result.message, accessUntil: result.accessUntil?.toISOString() ?? null };
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
