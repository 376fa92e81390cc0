import type { Route } from "./+types/api.memorials.$id.view";
import { canViewMemorial, countView, isRecordId } from "~/models/memorial.server";
import { apiError, json, methodNotAllowed } from "~/services/api.server";
import { getOptionalUser } from "~/services/auth.server";

// POST /api/memorials/{id}/view (memorial-core.md §4 "View counter"): counts a view of a memorial the
// caller may see. Its failures are ignored by the client, so it never answers 500: a count that could
// not be made is a 202 with viewCount null.

const NOT_FOUND = "Memorial not found";

export function loader() {
  return methodNotAllowed("POST");
}

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  try {
    const access = isRecordId(params.id) ? await canViewMemorial(params.id, await getOptionalUser(request)) : null;
    if (!access?.allowed) return apiError(404, NOT_FOUND);
    const viewCount = await countView(params.id);
    return json({ viewCount }, { status: viewCount === null ? 202 : 200 });
  } catch (error) {
    if (error instanceof Response) return error;
    console.error(error);
    return json({ viewCount: null }, { status: 202 });
  }
}
