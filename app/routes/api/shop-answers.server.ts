import type { CartFailure } from "~/models/commerce/cart.server";
import { apiOrder } from "~/models/commerce/orders.server";
import type { CompletePaymentResult } from "~/models/commerce/order-completion.server";
import { apiError, json } from "~/request/api.server";

// How the shop's use cases answer over the /api: `{ message }` on every
// error, and a message about stock always says "stock", which a client titles Stock Limitation.

/** A basket use case's refusal. */
export function cartFailure(result: CartFailure): Response {
  if (result.reason === "not-found") return apiError(404, result.message);
  return apiError(400, result.message);
}

/**
 * completePayment's outcome: the order (201 when this call made it, 200 when it existed), or why there
 * is none: no such payment of yours (404), not paid (402), still processing (202), refunded because an
 * item sold out (409, a message about stock), the provider unreachable (502).
 */
export async function orderAnswer(result: CompletePaymentResult): Promise<Response> {
  if (result.ok) return json(await apiOrder(result.order.id), { status: result.created ? 201 : 200 });
  switch (result.reason) {
    case "not-found":
      return apiError(404, result.message);
    case "unpaid":
      return apiError(402, result.providerMessage ? `${result.message} ${result.providerMessage}` : result.message, { paymentIntentId: result.paymentId });
    case "processing":
      return json({ message: result.message, paymentIntentId: result.paymentId, status: "processing" }, { status: 202 });
    case "refunded":
      return apiError(409, result.message, { paymentIntentId: result.paymentId, refunded: !result.refundPending });
    case "provider":
      return apiError(502, result.message);
  }
}
