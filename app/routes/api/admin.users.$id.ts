import { z } from "~/utils/validation/zod";
import { deleteUserAsAdmin, setAdminRights, type AdminUserResult } from "~/models/admin.server";
import { actorOf } from "~/request/auth.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { ADMIN_MESSAGES } from "~/utils/validation/admin";

// DELETE /api/admin/users/{id} and PATCH /api/admin/users/{id} { isAdmin }:
// the Users tab's use cases, with the same guards: never the last administrator, never one's own rights
// unless `confirmOwn: true` is sent too, never one's own account (README "Admin dashboard").

const patchSchema = z.object({
  isAdmin: z.boolean({ error: "isAdmin must be true or false" }),
  confirmOwn: z.boolean({ error: "confirmOwn must be true or false" }).optional(),
});

function refusal(result: Exclude<AdminUserResult, { ok: true }>) {
  if (result.reason === "not-found") return apiError(404, ADMIN_MESSAGES.userNotFound);
  if (result.reason === "payments") return apiError(503, ADMIN_MESSAGES.paymentsNotStopped, { reason: result.reason });
  return apiError(
    409,
    result.reason === "last-admin" ? ADMIN_MESSAGES.lastAdmin : result.reason === "own-rights" ? ADMIN_MESSAGES.ownRights : ADMIN_MESSAGES.ownAccount,
    { reason: result.reason },
  );
}

const api = apiRoute({
  PATCH: endpoint({
    access: "admin",
    body: patchSchema,
    ids: { id: ADMIN_MESSAGES.userNotFound },
    handle: async ({ user, params, body, request }) => {
      const result = await setAdminRights(actorOf(user, request), params.id!, body.isAdmin, { confirmOwn: body.confirmOwn === true });
      if (!result.ok) return refusal(result);
      return { message: "User updated", user: result.user };
    },
  }),
  DELETE: endpoint({
    access: "admin",
    ids: { id: ADMIN_MESSAGES.userNotFound },
    handle: async ({ user, params, request }) => {
      const result = await deleteUserAsAdmin(actorOf(user, request), params.id!);
      if (!result.ok) return refusal(result);
      return { message: "User deleted", user: result.user, restorableUntil: result.purgeAt?.toISOString() };
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
