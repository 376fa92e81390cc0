import { getPopupState } from "~/models/feedback.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { popupTypeOf } from "~/utils/feedback";

// GET /api/popup-state/{type}: the caller's { popupType, completed, skipCount }.
// Only ux_feedback exists; any other type is not found.

export const UNKNOWN_POPUP = "Popup not found";

const api = apiRoute({
  GET: endpoint({
    access: "member",
    handle: async ({ user, params }) => {
      const type = popupTypeOf(params.type);
      return type ? getPopupState(user.id, type) : apiError(404, UNKNOWN_POPUP);
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
