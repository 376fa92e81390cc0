import { createProduct, listProductsForApi } from "~/models/commerce/products.server";
import { actorOf } from "~/request/auth.server";
import { apiWindow } from "~/request/admin.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { apiProductSchema } from "~/utils/validation/admin";

// GET and POST /api/admin/products: every product, active or not; a new
// one from { name, description, price (pence), imageUrl or null, category, stockQuantity, isActive }.
const api = apiRoute({
  GET: endpoint({ access: "admin", handle: ({ url }) => listProductsForApi(apiWindow(url)) }),
  POST: endpoint({
    access: "admin",
    body: apiProductSchema,
    handle: async ({ user, body, request }) => created(await createProduct(actorOf(user, request), { ...body, imageUrl: body.imageUrl ?? null })),
  }),
});
export const loader = api.loader;
export const action = api.action;
