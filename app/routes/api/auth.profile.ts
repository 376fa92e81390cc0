import { z } from "~/utils/validation/zod";
import { updateProfile } from "~/models/accounts/users.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { profileSchema } from "~/utils/validation/account";

// The form's schema; a JSON caller may also send `bio: null` for "no bio".
const apiProfileSchema = z.preprocess(
  (body) => (body && typeof body === "object" && "bio" in body && body.bio === null ? { ...body, bio: undefined } : body),
  profileSchema,
);

// PUT /api/auth/profile { firstName, lastName, bio }: the updated user.
const api = apiRoute({
  PUT: endpoint({ access: "member", body: apiProfileSchema, handle: ({ user, body }) => updateProfile(user.id, body) }),
});
export const loader = api.loader;
export const action = api.action;
