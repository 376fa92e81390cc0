import { findMemorialForViewer, isRecordId, MEMORIAL_NOT_FOUND } from "~/models/memorial.server";
import { canModerate, leaveTribute, listApprovedTributes, listPendingTributes } from "~/models/tribute.server";
import type { PublicUser } from "~/models/user.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { apiError, json, NOT_SIGNED_IN, rateLimitedAnswer } from "~/request/api.server";
import { clientIp } from "~/request/facts.server";
import { PAGE_NUMBER_MESSAGE, parsePageNumber } from "~/utils/paging";
import { TRIBUTE_MESSAGES, tributeSchema } from "~/utils/validation/tribute";

// GET /api/memorials/{id}/tributes?approved=true&page=N and POST …/tributes (memorial-core.md §7),
// under the memorial's own access rules: nothing of a memorial the caller may not see.

/** The memorial this caller may see; signed out and not public: 401 (the spec's client reads it as "nothing"). */
async function visibleMemorial(id: string | undefined, user: PublicUser | null) {
  const lookup = isRecordId(id) ? await findMemorialForViewer(id, user) : ({ status: "not-found" } as const);
  if (lookup.status === "ok") return lookup.memorial;
  throw lookup.status === "locked" && !user ? apiError(401, NOT_SIGNED_IN) : apiError(404, MEMORIAL_NOT_FOUND);
}

const api = apiRoute({
  GET: endpoint({
    access: "public",
    handle: async ({ user, params, url }) => {
      const memorial = await visibleMemorial(params.id, user);
      if (url.searchParams.get("approved") === "false") {
        // Pending tributes only to those who moderate this memorial (or the owner/admin view).
        if (!user || !(canModerate(user, memorial) || user.isAdmin)) return apiError(403, "Only the memorial's owner can see pending tributes");
        return listPendingTributes(memorial.id);
      }
      const pageNumber = parsePageNumber(url.searchParams.get("page"));
      if (pageNumber === null) return apiError(400, PAGE_NUMBER_MESSAGE);
      const page = await listApprovedTributes(memorial.id, pageNumber);
      return json(page.items.map((t) => ({ ...t, memorialId: memorial.id })), { headers: { "X-Total-Count": String(page.total) } });
    },
  }),
  POST: endpoint({
    access: "public",
    body: tributeSchema,
    before: async ({ user, params }) => (await visibleMemorial(params.id, user), null),
    handle: async ({ request, params, body }) => {
      const result = await leaveTribute(params.id!, body, clientIp(request));
      if (!result.ok) return rateLimitedAnswer(result);
      return created({ ...result.tribute, message: TRIBUTE_MESSAGES.pending });
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
