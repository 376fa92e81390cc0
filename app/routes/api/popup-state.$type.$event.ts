import { recordPopupComplete, recordPopupSkip } from "~/models/feedback.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { popupTypeOf } from "~/utils/feedback";
import { UNKNOWN_POPUP } from "./popup-state.$type";

// POST /api/popup-state/{type}/complete and /skip: record that the caller finished
// or skipped the popup; the answer is the new { popupType, completed, skipCount }.

const EVENTS = { complete: recordPopupComplete, skip: recordPopupSkip } as const;

const api = apiRoute({
  POST: endpoint({
    access: "member",
    handle: async ({ user, params }) => {
      const type = popupTypeOf(params.type);
      const record = params.event === "complete" || params.event === "skip" ? EVENTS[params.event] : null;
      return type && record ? record(user.id, type) : apiError(404, UNKNOWN_POPUP);
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
