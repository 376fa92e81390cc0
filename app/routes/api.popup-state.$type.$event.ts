import type { Route } from "./+types/api.popup-state.$type.$event";
import { recordPopupComplete, recordPopupSkip } from "~/models/feedback.server";
import { apiError, json, methodNotAllowed, requireApiUser, withApiErrors } from "~/services/api.server";
import { popupTypeOf } from "~/utils/feedback";
import { UNKNOWN_POPUP } from "./api.popup-state.$type";

// POST /api/popup-state/{type}/complete and /skip (memorial-core.md §7): record that the caller finished
// or skipped the popup; the answer is the new { popupType, completed, skipCount }.

const EVENTS = { complete: recordPopupComplete, skip: recordPopupSkip } as const;

export function loader() {
  return methodNotAllowed("POST");
}

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const type = popupTypeOf(params.type);
    const record = params.event === "complete" || params.event === "skip" ? EVENTS[params.event] : null;
    if (!type || !record) return apiError(404, UNKNOWN_POPUP);
    return json(await record(user.id, type));
  });
}
