import type { Route } from "./+types/api.popup-state.$type";
import { getPopupState } from "~/models/feedback.server";
import { apiError, json, methodNotAllowed, requireApiUser, withApiErrors } from "~/services/api.server";
import { popupTypeOf } from "~/utils/feedback";

// GET /api/popup-state/{type} (memorial-core.md §7): the caller's { popupType, completed, skipCount }.
// Only ux_feedback exists; any other type is not found.

export const UNKNOWN_POPUP = "Popup not found";

export async function loader({ request, params }: Route.LoaderArgs) {
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const type = popupTypeOf(params.type);
    if (!type) return apiError(404, UNKNOWN_POPUP);
    return json(await getPopupState(user.id, type));
  });
}

export function action() {
  return methodNotAllowed("GET");
}
