import { findMemorialForViewer, MEMORIAL_NOT_FOUND } from "~/models/memorials/access.server";
import { canSeePendingTributes, leaveTribute, listApprovedTributes, listPendingTributes } from "~/models/tributes/tributes.server";
import { apiRoute, created, endpoint, memorialNotFound } from "~/request/api-route.server";
import { apiError, json, rateLimitedAnswer } from "~/request/api.server";
import { clientIp } from "~/request/facts.server";
import { PAGE_NUMBER_MESSAGE, parsePageNumber } from "~/utils/paging";
import { TRIBUTE_MESSAGES, tributeSchema } from "~/utils/validation/tribute";

// GET /api/memorials/{id}/tributes?approved=true&page=N and POST …/tributes,
// under the memorial's own access rules: nothing of a memorial the caller may not see.

const api = apiRoute({
  GET: endpoint({
    access: "public",
    ids: { id: MEMORIAL_NOT_FOUND },
    handle: async ({ user, params, url }) => {
      const lookup = await findMemorialForViewer(params.id!, user);
      if (lookup.status !== "ok") return memorialNotFound();
      const { memorial } = lookup;
      if (url.searchParams.get("approved") === "false") {
        if (!canSeePendingTributes(user, memorial)) return apiError(403, "Only the memorial's owner can see pending tributes");
        return listPendingTributes(memorial.id);
      }
      const pageNumber = parsePageNumber(url.searchParams.get("page"));
      if (pageNumber === null) return apiError(400, PAGE_NUMBER_MESSAGE);
      const page = await listApprovedTributes(memorial.id, pageNumber);
      return json(
        page.items.map((t) => ({ ...t, memorialId: memorial.id })),
        { headers: { "X-Total-Count": String(page.total) } },
      );
    },
  }),
  POST: endpoint({
    access: "public",
    body: tributeSchema,
    memorial: "visible",
    handle: async ({ request, params, body }) => {
      const result = await leaveTribute(params.id!, body, clientIp(request));
      if (!result.ok) return rateLimitedAnswer(result);
      return created({ ...result.tribute, message: TRIBUTE_MESSAGES.pending });
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
