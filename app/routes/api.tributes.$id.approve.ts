import type { Route } from "./+types/api.tributes.$id.approve";
import { approveTribute } from "~/models/tribute.server";
import { apiError, json, methodNotAllowed, requireApiUser, withApiErrors } from "~/services/api.server";
import { TRIBUTE_MESSAGES } from "~/utils/validation/tribute";

// PUT /api/tributes/{id}/approve: the memorial's owner, or an admin on an admin's memorial.
export function loader() {
  return methodNotAllowed("PUT");
}

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const result = await approveTribute(params.id, { id: user.id, isAdmin: user.isAdmin });
    if (result === "forbidden") return apiError(403, TRIBUTE_MESSAGES.adminRestricted);
    if (result === "not-found") return apiError(404, "Tribute not found");
    return json({ message: "The tribute has been approved and is now visible." });
  });
}
