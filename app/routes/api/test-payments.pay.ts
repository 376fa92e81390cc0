import { payTestPayment } from "~/models/commerce/order-completion.server";
import { isPlanPayment } from "~/models/commerce/plan-subscription.server";
import { payTestPlanPayment } from "~/models/commerce/plan-checkout.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { getPaymentProvider } from "~/services/payments.server";
import { PLANS } from "~/utils/plans";
import { apiTestPaymentSchema } from "~/utils/validation/shop";
import { orderAnswer } from "./shop-answers.server";

// POST /api/test-payments/pay (a call of our own): with the built-in test provider, what Stripe.js
// does in the browser with a card: the payment succeeds, with no card and no money. A shop payment (from
// POST /api/create-payment-intent) makes its order, as POST /api/orders/create-from-payment would; a plan
// payment (from POST /api/create-subscription-payment) grants the plan, as POST
// /api/complete-subscription-upgrade would. With Stripe configured there are no test payments here: 404.
const api = apiRoute({
  POST: endpoint({
    access: "member",
    body: apiTestPaymentSchema,
    handle: async ({ user, body }) => {
      if (getPaymentProvider().name !== "test") return apiError(404, "Test payments are off: payments are taken by Stripe.");
      if (await isPlanPayment(body.paymentIntentId)) {
        const result = await payTestPlanPayment(user, body.paymentIntentId, undefined);
        if (!result) return apiError(404, "No payment information found.");
        if (!result.ok) return apiError(result.reason === "not-found" ? 404 : 409, result.message);
        return { status: "succeeded", planId: result.planId, plan: PLANS[result.planId].name, alreadyDone: result.alreadyDone };
      }
      return orderAnswer(await payTestPayment(user, body.paymentIntentId));
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
