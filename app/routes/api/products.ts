import { listActiveProductsForApi, toApiProduct } from "~/models/commerce/products.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { isShopGroup, SHOP_GROUP_IDS } from "~/utils/shop";

// GET /api/products: the active products, newest first; ?category= one of
// the shop's groups (digital, physical, service: app/utils/shop.ts maps them onto the admin categories).
const api = apiRoute({
  GET: endpoint({
    access: "public",
    handle: async ({ url }) => {
      const category = url.searchParams.get("category") || null;
      if (category !== null && !isShopGroup(category)) return apiError(400, `category must be one of ${SHOP_GROUP_IDS.join(", ")}`);
      return (await listActiveProductsForApi(category)).map(toApiProduct);
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
