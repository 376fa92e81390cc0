import { removeCartItem, setCartQuantity } from "~/models/commerce/cart.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { SHOP_MESSAGES } from "~/utils/shop";
import { apiUpdateCartSchema } from "~/utils/validation/shop";
import { cartFailure } from "./shop-answers.server";

// PUT and DELETE /api/cart/{id}: a line of the caller's own basket only
// (anyone else's is not found). The quantity stays between 1 and the stock.
const api = apiRoute({
  PUT: endpoint({
    access: "member",
    body: apiUpdateCartSchema,
    handle: async ({ user, params, body }) => {
      const result = await setCartQuantity(user, params.id ?? "", body.quantity);
      return result.ok ? (result.item ?? {}) : cartFailure(result);
    },
  }),
  DELETE: endpoint({
    access: "member",
    handle: async ({ user, params }) => {
      const result = await removeCartItem(user, params.id ?? "");
      return result.ok ? { message: SHOP_MESSAGES.removed } : cartFailure(result);
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
