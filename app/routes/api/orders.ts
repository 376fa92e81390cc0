import { listOrdersForApi } from "~/models/commerce/orders.server";
import { apiRoute, endpoint } from "~/request/api-route.server";

// GET /api/orders: the caller's orders, newest first, with their items
// (?limit up to 100, ?offset).
function intParam(value: string | null, fallback: number, min: number, max: number) {
  const n = value === null || value.trim() === "" ? NaN : Number(value);
  return Number.isFinite(n) ? Math.min(Math.max(Math.trunc(n), min), max) : fallback;
}

const api = apiRoute({
  GET: endpoint({
    access: "member",
    handle: ({ user, url }) =>
      listOrdersForApi(user.id, {
        limit: intParam(url.searchParams.get("limit"), 50, 1, 100),
        offset: intParam(url.searchParams.get("offset"), 0, 0, 1_000_000),
      }),
  }),
});
export const loader = api.loader;
export const action = api.action;
