import type { Route } from "./+types/api.memorials.$id";
import { deleteStoredMedia, isUsablePortraitUrl } from "~/models/media.server";
import { deleteMemorial, findMemorialForViewer, isRecordId, MemorialDatesError, toApiMemorial, updateOwnMemorial } from "~/models/memorial.server";
import { apiError, json, methodNotAllowed, readJsonBody, requireApiUser, withApiErrors } from "~/services/api.server";
import { getOptionalUser } from "~/services/auth.server";
import { apiUpdateMemorialSchema, MEMORIAL_MESSAGES } from "~/utils/validation/memorial";

// GET, PUT and DELETE /api/memorials/{id} (memorial-core.md §7). A memorial the caller may not see or
// write is answered exactly like a missing one (404), so the API never tells a stranger that a
// private memorial exists; the page says more (its lock panel), as the spec asks.

const NOT_FOUND = "Memorial not found";
const BAD_PORTRAIT = "The profile image must be one of this memorial's photos, or none";

export async function loader({ request, params }: Route.LoaderArgs) {
  return withApiErrors(async () => {
    if (!isRecordId(params.id)) return apiError(404, NOT_FOUND);
    const lookup = await findMemorialForViewer(params.id, await getOptionalUser(request));
    if (lookup.status !== "ok") return apiError(404, NOT_FOUND);
    return json(toApiMemorial(lookup.memorial));
  });
}

export async function action({ request, params }: Route.ActionArgs) {
  if (request.method === "PUT") return withApiErrors(() => update(request, params.id));
  if (request.method === "DELETE") return withApiErrors(() => remove(request, params.id));
  return methodNotAllowed("GET", "PUT", "DELETE");
}

/** Owner only: any subset of the memorial's fields, or just profileImageUrl. */
async function update(request: Request, id: string) {
  const user = await requireApiUser(request);
  const input = await readJsonBody(request, apiUpdateMemorialSchema);
  if (!isRecordId(id)) return apiError(404, NOT_FOUND);
  if (input.profileImageUrl !== undefined) {
    input.profileImageUrl = input.profileImageUrl?.trim() || null;
    if (!(await isUsablePortraitUrl(id, input.profileImageUrl))) return apiError(400, BAD_PORTRAIT, { errors: { profileImageUrl: [BAD_PORTRAIT] } });
  }
  const updated = await updateOwnMemorial(id, user.id, input).catch((error: unknown) => {
    if (error instanceof MemorialDatesError) return "dates" as const;
    throw error;
  });
  if (updated === "dates") return apiError(400, MEMORIAL_MESSAGES.passingBeforeBirth, { errors: { dateOfPassing: [MEMORIAL_MESSAGES.passingBeforeBirth] } });
  if (!updated) return apiError(404, NOT_FOUND);
  return json(toApiMemorial(updated));
}

/** The owner or an administrator; the stored photos and videos go with it. */
async function remove(request: Request, id: string) {
  const user = await requireApiUser(request);
  if (!isRecordId(id)) return apiError(404, NOT_FOUND);
  const storedUrls = await deleteMemorial(id, user);
  if (!storedUrls) return apiError(404, NOT_FOUND);
  await deleteStoredMedia(storedUrls);
  return json({ message: "Memorial deleted" });
}
