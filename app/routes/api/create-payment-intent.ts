import { startCheckout } from "~/models/commerce/order-checkout.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError, rateLimitedAnswer } from "~/request/api.server";
import { getPaymentProvider } from "~/services/payments.server";
import { publicUrl } from "~/services/env.server";
import { apiCreatePaymentSchema } from "~/utils/validation/shop";

// POST /api/create-payment-intent: body amount,
// shipping and items; answers clientSecret and paymentIntentId. The amount and items the client
// computed are ignored: the payment is for the caller's basket as the database prices it.
const api = apiRoute({
  POST: endpoint({
    access: "member",
    body: apiCreatePaymentSchema,
    handle: async ({ user, body }) => {
      const result = await startCheckout(user, body.shipping, { hosted: false, site: publicUrl() });
      if (!result.ok) {
        if (result.reason === "rate-limited") return rateLimitedAnswer(result);
        return apiError(result.reason === "empty" ? 400 : result.reason === "stock" ? 409 : result.reason === "too-large" ? 422 : 502, result.message);
      }
      if (result.next.kind !== "pay-here") return apiError(502, "Failed to create payment intent. Please try again.");
      const provider = getPaymentProvider();
      return {
        clientSecret: result.next.clientSecret,
        paymentIntentId: result.next.paymentId,
        provider: provider.name,
        isTest: provider.isTest,
        publishableKey: provider.publishableKey,
      };
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
