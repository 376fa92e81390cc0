import { countView } from "~/models/memorials/views.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { json } from "~/request/api.server";

// POST /api/memorials/{id}/view: counts a view of a memorial the
// caller may see. Its failures are ignored by the client, so a count that could not be made is a 202
// with viewCount null rather than an error.
const api = apiRoute({
  POST: endpoint({
    access: "public",
    memorial: "visible",
    handle: async ({ params }) => {
      const viewCount = await countView(params.id!).catch((error: unknown) => {
        console.error("Counting a view failed:", error);
        return null;
      });
      return json({ viewCount }, { status: viewCount === null ? 202 : 200 });
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
