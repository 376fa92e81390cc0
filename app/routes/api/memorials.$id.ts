import { isUsablePortraitUrl } from "~/models/memorials/media.server";
import { deleteMemorial } from "~/models/memorials/deletion.server";
import { findMemorialForViewer, MEMORIAL_NOT_FOUND } from "~/models/memorials/access.server";
import { MemorialDatesError, MemorialRoleError, toApiMemorial, updateOwnMemorial } from "~/models/memorials/records.server";
import { actorOf } from "~/request/auth.server";
import { apiRoute, endpoint, memorialNotFound } from "~/request/api-route.server";
import { apiError } from "~/request/api.server";
import { apiUpdateMemorialSchema, MEMORIAL_MESSAGES } from "~/utils/validation/memorial";

// GET, PUT and DELETE /api/memorials/{id}. A memorial the caller may not see or
// write is answered exactly like a missing one (memorialNotFound), so the API never tells a stranger that
// a private memorial exists; the page says more (its lock panel).

const BAD_PORTRAIT = "The profile image must be one of this memorial's photos, or none";

const api = apiRoute({
  GET: endpoint({
    access: "public",
    ids: { id: MEMORIAL_NOT_FOUND },
    handle: async ({ user, params }) => {
      const lookup = await findMemorialForViewer(params.id!, user);
      return lookup.status === "ok" ? toApiMemorial(lookup.memorial) : memorialNotFound();
    },
  }),
  /**
   * The owner or a co-manager: any subset of the memorial's fields, or just
   * profileImageUrl; visibility and isPublished only by the owner or a manager (an editor: 403).
   */
  PUT: endpoint({
    access: "member",
    body: apiUpdateMemorialSchema,
    ids: { id: MEMORIAL_NOT_FOUND },
    handle: async ({ user, params, body: input, request }) => {
      const id = params.id!;
      if (input.profileImageUrl !== undefined) {
        input.profileImageUrl = input.profileImageUrl?.trim() || null;
        if (!(await isUsablePortraitUrl(id, input.profileImageUrl))) return apiError(400, BAD_PORTRAIT, { errors: { profileImageUrl: [BAD_PORTRAIT] } });
      }
      const updated = await updateOwnMemorial(id, actorOf(user, request), input).catch((error: unknown) => {
        if (error instanceof MemorialDatesError) return "dates" as const;
        if (error instanceof MemorialRoleError) return "role" as const;
        throw error;
      });
      if (updated === "role") return apiError(403, new MemorialRoleError().message);
      if (updated === "dates")
        return apiError(400, MEMORIAL_MESSAGES.passingBeforeBirth, { errors: { dateOfPassing: [MEMORIAL_MESSAGES.passingBeforeBirth] } });
      return updated ? toApiMemorial(updated) : memorialNotFound();
    },
  }),
  /** The owner or an administrator (recorded in the audit log); the stored photos and videos go with it. */
  DELETE: endpoint({
    access: "member",
    ids: { id: MEMORIAL_NOT_FOUND },
    handle: async ({ user, params, request }) => {
      const id = params.id!;
      const deleted = await deleteMemorial(id, actorOf(user, request));
      return deleted ? { message: "Memorial deleted" } : memorialNotFound();
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
