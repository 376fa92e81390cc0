import type { Route } from "./+types/api.memorials";
import { createMemorial, listMemorialsForViewer, MemorialLimitError, toApiMemorial, type ListFilters } from "~/models/memorial.server";
import { apiError, json, methodNotAllowed, readJsonBody, requireApiUser, withApiErrors } from "~/services/api.server";
import { getOptionalUser } from "~/services/auth.server";
import { MEMORIAL_LIMIT_MESSAGE } from "~/utils/plans";
import { apiCreateMemorialSchema } from "~/utils/validation/memorial";

// GET and POST /api/memorials (memorial-core.md §7). The list holds only what the caller may see,
// decided on the server (DESIGN.md "Rules that hold everywhere"): the spec's original client filtered
// the whole table in the browser, which leaked every private memorial.

const VISIBILITIES = new Set(["public", "friends", "private"]);
const ADMIN_ONLY = "Only administrators can list all memorials";
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

/** A whole number from the query, or the fallback when absent or not a number. */
function intParam(value: string | null, fallback: number) {
  const n = value === null || value.trim() === "" ? NaN : Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}

export async function loader({ request }: Route.LoaderArgs) {
  return withApiErrors(async () => {
    const query = new URL(request.url).searchParams;
    const viewer = await getOptionalUser(request);
    if (query.get("admin") === "true") {
      // Administrators see every memorial anyway (visibleWhere); asking for it is for them only.
      if (!viewer) return apiError(401, "Not signed in");
      if (!viewer.isAdmin) return apiError(403, ADMIN_ONLY);
    }
    const visibility = query.get("visibility") || undefined;
    if (visibility && !VISIBILITIES.has(visibility)) return apiError(400, "visibility must be public, friends or private");
    const filters: ListFilters = {
      visibility: visibility as ListFilters["visibility"],
      userId: query.get("userId")?.slice(0, 100) || undefined,
      search: query.get("search")?.slice(0, 200) || undefined,
      limit: Math.min(Math.max(intParam(query.get("limit"), DEFAULT_LIMIT), 1), MAX_LIMIT),
      offset: Math.min(Math.max(intParam(query.get("offset"), 0), 0), 1_000_000),
    };
    const memorials = await listMemorialsForViewer(viewer, filters);
    return json(memorials.map(toApiMemorial));
  });
}

export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("GET", "POST");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    // The body's userId is ignored: a memorial always belongs to the caller.
    const { userId: _ignored, ...input } = await readJsonBody(request, apiCreateMemorialSchema);
    try {
      return json(toApiMemorial(await createMemorial(user, input)), { status: 201 });
    } catch (error) {
      if (error instanceof MemorialLimitError) return apiError(403, MEMORIAL_LIMIT_MESSAGE, { subscriptionRequired: true });
      throw error;
    }
  });
}
