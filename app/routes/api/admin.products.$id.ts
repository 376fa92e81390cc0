import { isRecordId } from "~/models/memorial.server";
import { removeProduct, updateProduct } from "~/models/product.server";
import { apiActor } from "~/request/admin.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { ADMIN_MESSAGES, apiProductSchema } from "~/utils/validation/admin";

// PUT and DELETE /api/admin/products/{id} (commerce-and-accounts.md §7). DELETE answers what happened:
// a product with orders is deactivated rather than deleted (issue 19 §4).
const api = apiRoute({
  PUT: endpoint({
    access: "admin",
    body: apiProductSchema,
    handle: async ({ user, params, body, request }) => {
      const product = isRecordId(params.id) ? await updateProduct(apiActor(user, request), params.id, body) : null;
      if (!product) return apiError(404, ADMIN_MESSAGES.productNotFound);
      return product;
    },
  }),
  DELETE: endpoint({
    access: "admin",
    handle: async ({ user, params, request }) => {
      const result = isRecordId(params.id) ? await removeProduct(apiActor(user, request), params.id) : { ok: false as const };
      if (!result.ok) return apiError(404, ADMIN_MESSAGES.productNotFound);
      return { message: result.outcome === "deleted" ? "Product deleted" : "Product deactivated", outcome: result.outcome };
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
