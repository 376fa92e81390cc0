import { completePayment } from "~/models/commerce/order-completion.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiCreateOrderSchema } from "~/utils/validation/shop";
import { orderAnswer } from "./shop-answers.server";

// POST /api/orders/create-from-payment: body paymentIntentId (or, ours, a
// Checkout Session's sessionId). The order is made only if the provider says the payment succeeded, and
// once, whoever asks first (the confirmation page, this call, the webhook): see commerce/order-completion.server.ts.
const api = apiRoute({
  POST: endpoint({
    access: "member",
    body: apiCreateOrderSchema,
    handle: async ({ user, body }) =>
      orderAnswer(await completePayment(body.paymentIntentId ? { paymentId: body.paymentIntentId } : { sessionId: body.sessionId! }, { userId: user.id })),
  }),
});
export const loader = api.loader;
export const action = api.action;
