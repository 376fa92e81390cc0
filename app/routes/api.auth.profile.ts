import { z } from "zod";
import type { Route } from "./+types/api.auth.profile";
import { updateProfile } from "~/models/user.server";
import { json, methodNotAllowed, readJsonBody, requireApiUser, withApiErrors } from "~/services/api.server";
import { profileSchema } from "~/utils/validation/account";

// The form's schema; a JSON caller may also send `bio: null` for "no bio".
const apiProfileSchema = z.preprocess(
  (body) => (body && typeof body === "object" && "bio" in body && body.bio === null ? { ...body, bio: undefined } : body),
  profileSchema,
);

// PUT /api/auth/profile { firstName, lastName, bio } (commerce-and-accounts.md §7): the updated user.
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const input = await readJsonBody(request, apiProfileSchema);
    return json(await updateProfile(user.id, input));
  });
}
