import type { Route } from "./+types/api.auth.user";
import { json, requireApiUser, withApiErrors } from "~/services/api.server";

// GET /api/auth/user (memorial-core.md §7): the signed-in user, or 401 `{ message }`.
export async function loader({ request }: Route.LoaderArgs) {
  return withApiErrors(async () => json(await requireApiUser(request)));
}
