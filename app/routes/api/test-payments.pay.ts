import { payTestPayment } from "~/models/order.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { getPaymentProvider } from "~/services/payments.server";
import { apiTestPaymentSchema } from "~/utils/validation/shop";
import { orderAnswer } from "./shop-answers.server";

// POST /api/test-payments/pay (ours, beside the spec's): with the built-in test provider, what Stripe.js
// does in the browser with a card: the payment (from POST /api/create-payment-intent) succeeds, with no
// card and no money, and the order is made as POST /api/orders/create-from-payment would. With Stripe
// configured there are no test payments here: 404.
const api = apiRoute({
  POST: endpoint({
    access: "member",
    body: apiTestPaymentSchema,
    handle: async ({ user, body }) => {
      if (getPaymentProvider().name !== "test") return apiError(404, "Test payments are off: payments are taken by Stripe.");
      return orderAnswer(await payTestPayment(user, body.paymentIntentId));
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
