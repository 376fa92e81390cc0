import { handleStripeWebhook } from "~/models/commerce/payment-webhooks.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";

// POST /api/stripe/webhook: Stripe tells us a payment succeeded. Public, because its
// signature is its authentication (and the cross-origin check lets it through: server/security.ts). The
// signature is computed over the raw body, so the body is read here as text, never parsed and re-encoded;
// the server's 64 KB bound (server/request-handler.ts) is far above any event we handle. A 400 tells
// Stripe the event is bad (a wrong signature, an old timestamp); a 503 asks it to send the event again.
const api = apiRoute({
  POST: endpoint({
    access: "public",
    handle: async ({ request }) => {
      const result = await handleStripeWebhook(await request.text(), request.headers.get("stripe-signature"));
      if (result.ok) return { received: true, duplicate: result.duplicate, handled: result.handled };
      return apiError(result.reason === "rejected" ? 400 : 503, result.message);
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
