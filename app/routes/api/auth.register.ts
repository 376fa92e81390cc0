import { registerAccount } from "~/models/accounts/account.server";
import { apiRoute, created, endpoint } from "~/request/api-route.server";
import { apiError, rateLimitedAnswer } from "~/request/api.server";
import { clientIp } from "~/request/facts.server";
import { startSession } from "~/request/session.server";
import { apiRegisterSchema } from "~/utils/validation/account";

// POST /api/auth/register { firstName, lastName, email, password } (no password
// confirmation is sent). The same use case, limits and messages as the /register form; 201 with the
// PublicUser, signed in.
const api = apiRoute({
  POST: endpoint({
    access: "public",
    body: apiRegisterSchema,
    handle: async ({ request, body }) => {
      const result = await registerAccount(body, clientIp(request));
      if (result.ok) return created(result.user, { headers: { "Set-Cookie": await startSession(request, result.user.id) } });
      if (result.reason === "rate-limited") return rateLimitedAnswer(result);
      return apiError(409, result.fieldErrors.email![0], { errors: result.fieldErrors });
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
