import { deleteMediaItem } from "~/models/memorials/media.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";

// DELETE /api/memorials/media/{mediaId}: the memorial's owner removes one photo
// or video, row and stored files. Anyone else's item, an administrator's included, is "not found"
// (memorials/access-rules.ts: administrators delete whole memorials, never single photos).
const MEDIA_NOT_FOUND = "Media not found";

const api = apiRoute({
  DELETE: endpoint({
    access: "member",
    ids: { mediaId: MEDIA_NOT_FOUND },
    handle: async ({ user, params }) => ((await deleteMediaItem(params.mediaId!, user)) ? { message: "Media deleted" } : apiError(404, MEDIA_NOT_FOUND)),
  }),
});
export const loader = api.loader;
export const action = api.action;
