import { addToCart, cartItemForApi, clearCart, listCartForApi } from "~/models/commerce/cart.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { SHOP_MESSAGES } from "~/utils/shop";
import { apiAddToCartSchema } from "~/utils/validation/shop";
import { cartFailure } from "./shop-answers.server";

// GET, POST and DELETE /api/cart. POST takes the usual body (productId,
// productName, productDescription, productImage, quantity, price) but reads only the product and the
// quantity: the name, picture and price are the database's. A memorial is added with memorialId.
const api = apiRoute({
  GET: endpoint({ access: "member", handle: ({ user }) => listCartForApi(user) }),
  POST: endpoint({
    access: "member",
    body: apiAddToCartSchema,
    handle: async ({ user, body }) => {
      const result = await addToCart(user, body);
      return result.ok ? created(await cartItemForApi(user, result.itemId)) : cartFailure(result);
    },
  }),
  DELETE: endpoint({
    access: "member",
    handle: async ({ user }) => {
      const { removed } = await clearCart(user);
      return { message: SHOP_MESSAGES.cleared, removed };
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
