import type { Route } from "./+types/api.tributes.$id";
import { deleteTribute } from "~/models/tribute.server";
import { apiError, json, methodNotAllowed, requireApiUser, withApiErrors } from "~/services/api.server";
import { TRIBUTE_MESSAGES } from "~/utils/validation/tribute";

// DELETE /api/tributes/{id}: reject or delete; the same rule as approving.
export function loader() {
  return methodNotAllowed("DELETE");
}

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const result = await deleteTribute(params.id, { id: user.id, isAdmin: user.isAdmin });
    if (result === "forbidden") return apiError(403, TRIBUTE_MESSAGES.adminRestricted);
    if (result === "not-found") return apiError(404, "Tribute not found");
    return json({ message: "The tribute has been deleted." });
  });
}
