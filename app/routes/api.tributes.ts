import type { Route } from "./+types/api.tributes";
import { listTributesForAdmin } from "~/models/tribute.server";
import { apiError, json, requireApiUser, withApiErrors } from "~/services/api.server";

// GET /api/tributes?approved=false (administrators): every pending tribute with the
// memorialCreatorIsAdmin flag that decides whether the admin may act on it.
export async function loader({ request }: Route.LoaderArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    if (!user.isAdmin) return apiError(403, "You don't have permission to access the admin dashboard.");
    const approved = new URL(request.url).searchParams.get("approved") === "true";
    return json(await listTributesForAdmin(approved));
  });
}
