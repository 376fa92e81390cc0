import { createMemorial, listMemorialsForViewer, MemorialLimitError, toApiMemorial, type ListFilters } from "~/models/memorials/records.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { apiError, NOT_SIGNED_IN } from "~/request/api.server";
import { ADMIN_DENIED } from "~/request/auth.server";
import { MEMORIAL_LIMIT_MESSAGE } from "~/utils/plans";
import { VISIBILITIES } from "~/utils/validation/account-rules";
import { apiCreateMemorialSchema } from "~/utils/validation/memorial";

// GET and POST /api/memorials. The list holds only what the caller may see,
// decided on the server: filtering the whole table in the browser
// would leak every private memorial.

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

/** A whole number from the query, or the fallback when absent or not a number. */
function intParam(value: string | null, fallback: number) {
  const n = value === null || value.trim() === "" ? NaN : Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}

const api = apiRoute({
  GET: endpoint({
    access: "public",
    handle: async ({ user, url }) => {
      const query = url.searchParams;
      if (query.get("admin") === "true") {
        // Administrators see every memorial anyway (visibleWhere); asking for it is for them only.
        if (!user) return apiError(401, NOT_SIGNED_IN);
        if (!user.isAdmin) return apiError(403, ADMIN_DENIED);
      }
      const visibility = query.get("visibility") || undefined;
      // ?visibility=unlisted finds only the caller's own, co-managed (and, for an administrator, all) unlisted
      // memorials: visibleWhere never lets anyone else's through (docs/decisions/027-sharing-and-unlisted.md).
      if (visibility && !(VISIBILITIES as readonly string[]).includes(visibility))
        return apiError(400, "visibility must be public, unlisted, friends or private");
      const filters: ListFilters = {
        visibility: visibility as ListFilters["visibility"],
        userId: query.get("userId")?.slice(0, 100) || undefined,
        search: query.get("search")?.slice(0, 200) || undefined,
        limit: Math.min(Math.max(intParam(query.get("limit"), DEFAULT_LIMIT), 1), MAX_LIMIT),
        offset: Math.min(Math.max(intParam(query.get("offset"), 0), 0), 1_000_000),
      };
      return (await listMemorialsForViewer(user, filters)).map(toApiMemorial);
    },
  }),
  POST: endpoint({
    access: "member",
    body: apiCreateMemorialSchema,
    handle: async ({ user, body }) => {
      // The body's userId is ignored: a memorial always belongs to the caller.
      const { userId: _ignored, ...input } = body;
      try {
        return created(toApiMemorial(await createMemorial(user, input)));
      } catch (error) {
        if (error instanceof MemorialLimitError) return apiError(403, MEMORIAL_LIMIT_MESSAGE, { subscriptionRequired: true });
        throw error;
      }
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
