import { completePlanPayment, type CompletePlanResult } from "~/models/commerce/plan-completion.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { PLANS, SUBSCRIPTION_MESSAGES } from "~/utils/plans";
import { completeSubscriptionSchema } from "~/utils/validation/subscription";

// POST /api/complete-subscription-upgrade: body paymentIntentId. The plan is
// granted only after the provider says that payment succeeded for the amount recorded for this member's
// plan, and only once: someone else's, an unpaid, a wrong-amount, a wrong-plan or a used
// payment grants nothing.
const STATUS: Record<Exclude<CompletePlanResult, { ok: true }>["reason"], number> = {
  "not-found": 404,
  unpaid: 402,
  mismatch: 409,
  used: 409,
  provider: 502,
  refunded: 409,
  superseded: 409,
};

const api = apiRoute({
  POST: endpoint({
    access: "member",
    body: completeSubscriptionSchema,
    handle: async ({ user, body }) => {
      const result = await completePlanPayment(body.paymentIntentId, { userId: user.id, expect: { planId: body.planId, paymentType: body.paymentType } });
      if (!result.ok) return apiError(STATUS[result.reason], result.message);
      if (result.excessRefund)
        return {
          message: `${SUBSCRIPTION_MESSAGES.upgradedTitle} ${result.excessRefund.message}`,
          planId: result.planId,
          alreadyDone: false,
          refundedPence: result.excessRefund.pence,
        };
      if (result.secondPayment)
        return { message: result.secondPayment.message, planId: result.planId, alreadyDone: true, secondPaymentRefunded: result.secondPayment.refunded };
      return {
        message: `${SUBSCRIPTION_MESSAGES.upgradedTitle} ${SUBSCRIPTION_MESSAGES.upgraded(PLANS[result.planId].name)}`,
        planId: result.planId,
        alreadyDone: result.alreadyDone,
      };
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
