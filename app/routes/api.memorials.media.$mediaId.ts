import type { Route } from "./+types/api.memorials.media.$mediaId";
import { deleteMediaItem } from "~/models/media.server";
import { isRecordId } from "~/models/memorial.server";
import { apiError, json, methodNotAllowed, requireApiUser, withApiErrors } from "~/services/api.server";

// DELETE /api/memorials/media/{mediaId} (memorial-core.md §7): the memorial's owner removes one photo
// or video, row and stored files. Anyone else's item, an administrator's included, is "not found"
// (memorial-access.ts: administrators delete whole memorials, never single photos).

const NOT_FOUND = "Media not found";

export function loader() {
  return methodNotAllowed("DELETE");
}

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    if (!isRecordId(params.mediaId) || !(await deleteMediaItem(params.mediaId, user))) return apiError(404, NOT_FOUND);
    return json({ message: "Media deleted" });
  });
}
