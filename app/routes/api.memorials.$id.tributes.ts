import type { Route } from "./+types/api.memorials.$id.tributes";
import { findMemorialForViewer } from "~/models/memorial.server";
import { describeRetry, hitRateLimit, RATE_LIMITS } from "~/models/rate-limit.server";
import { createTribute, listApprovedTributes, listPendingTributes, canModerate } from "~/models/tribute.server";
import { apiError, json, methodNotAllowed, readJsonBody, withApiErrors } from "~/services/api.server";
import { getOptionalUser } from "~/services/auth.server";
import { clientIp } from "~/services/request.server";
import { PAGE_NUMBER_MESSAGE, parsePageNumber } from "~/utils/paging";
import { TRIBUTE_MESSAGES, tributeSchema } from "~/utils/validation/tribute";

// GET /api/memorials/{id}/tributes?approved=true&page=N and POST …/tributes (memorial-core.md §7),
// under the memorial's own access rules: nothing of a memorial the caller may not see.

async function visibleMemorial(request: Request, id: string) {
  const viewer = await getOptionalUser(request);
  const lookup = await findMemorialForViewer(id, viewer);
  if (lookup.status !== "ok") {
    // Signed out and not public: 401 (the spec's client reads it as "nothing"); otherwise not found.
    throw lookup.status === "locked" && !viewer ? apiError(401, "Not signed in") : apiError(404, "Memorial not found");
  }
  return { viewer, memorial: lookup.memorial };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  return withApiErrors(async () => {
    const { viewer, memorial } = await visibleMemorial(request, params.id);
    const url = new URL(request.url);
    if (url.searchParams.get("approved") === "false") {
      // Pending tributes only to those who moderate this memorial (or the owner/admin view).
      if (!viewer || !(canModerate(viewer, memorial) || viewer.isAdmin)) return apiError(403, "Only the memorial's owner can see pending tributes");
      return json(await listPendingTributes(memorial.id));
    }
    const pageNumber = parsePageNumber(url.searchParams.get("page"));
    if (pageNumber === null) return apiError(400, PAGE_NUMBER_MESSAGE);
    const page = await listApprovedTributes(memorial.id, pageNumber);
    return json(page.items.map((t) => ({ ...t, memorialId: memorial.id })), { headers: { "X-Total-Count": String(page.total) } });
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  return withApiErrors(async () => {
    const { memorial } = await visibleMemorial(request, params.id);
    const input = await readJsonBody(request, tributeSchema);
    const limit = await hitRateLimit(RATE_LIMITS.tributePerIp, clientIp(request));
    if (!limit.allowed) {
      return apiError(429, `${TRIBUTE_MESSAGES.rateLimited} ${describeRetry(limit.retryAfterSeconds)}`, {}, { headers: { "Retry-After": String(limit.retryAfterSeconds) } });
    }
    return json({ ...(await createTribute(memorial.id, input)), message: TRIBUTE_MESSAGES.pending }, { status: 201 });
  });
}
