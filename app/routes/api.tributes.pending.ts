import type { Route } from "./+types/api.tributes.pending";
import { listPendingForOwner } from "~/models/tribute.server";
import { json, requireApiUser, withApiErrors } from "~/services/api.server";

// GET /api/tributes/pending: pending tributes on the caller's own memorials only.
export async function loader({ request }: Route.LoaderArgs) {
  return withApiErrors(async () => json(await listPendingForOwner((await requireApiUser(request)).id)));
}
