import { removeProduct, updateProduct } from "~/models/commerce/products.server";
import { actorOf } from "~/request/auth.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { ADMIN_MESSAGES, apiProductSchema } from "~/utils/validation/admin";

// PUT and DELETE /api/admin/products/{id}. DELETE answers what happened:
// a product with orders is deactivated rather than deleted. PUT takes an optional
// expectedStockQuantity, the stock the client read: a sale meanwhile is then never undone.
const api = apiRoute({
  PUT: endpoint({
    access: "admin",
    body: apiProductSchema,
    ids: { id: ADMIN_MESSAGES.productNotFound },
    handle: async ({ user, params, body, request }) => {
      const { expectedStockQuantity, ...input } = body;
      const result = await updateProduct(actorOf(user, request), params.id!, { ...input, expectedStock: expectedStockQuantity });
      if (result.ok) return result.product;
      if (result.reason === "not-found") return apiError(404, ADMIN_MESSAGES.productNotFound);
      // A sale (or another edit) changed the stock since the client read it; the current figure.
      return apiError(409, result.message, { stockQuantity: result.stock });
    },
  }),
  DELETE: endpoint({
    access: "admin",
    ids: { id: ADMIN_MESSAGES.productNotFound },
    handle: async ({ user, params, request }) => {
      const result = await removeProduct(actorOf(user, request), params.id!);
      if (!result.ok) return apiError(404, ADMIN_MESSAGES.productNotFound);
      return { message: result.outcome === "deleted" ? "Product deleted" : "Product deactivated", outcome: result.outcome };
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
