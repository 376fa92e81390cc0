import { startPlanPurchase } from "~/models/commerce/plan-checkout.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { getPaymentProvider } from "~/services/payments.server";
import { createSubscriptionPaymentSchema } from "~/utils/validation/subscription";

// POST /api/create-subscription-payment: body planId and, for plans with
// options, paymentType (full or monthly); answers clientSecret and paymentIntentId. What is charged is
// decided on the server (the plan's price, less what the member already paid for the plan they hold).
// With the built-in provider, testCard picks the saved test card (README).
const api = apiRoute({
  POST: endpoint({
    access: "member",
    body: createSubscriptionPaymentSchema,
    handle: async ({ user, body }) => {
      const result = await startPlanPurchase(user, body.planId, body.paymentType ?? "full", { testCard: body.testCard });
      if (!result.ok) return apiError(result.reason === "provider" ? 502 : 400, result.message);
      const provider = getPaymentProvider();
      return {
        clientSecret: result.clientSecret,
        paymentIntentId: result.paymentId,
        amount: result.amountPence,
        currency: "gbp",
        provider: provider.name,
        isTest: provider.isTest,
        publishableKey: provider.publishableKey,
      };
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
