import { changePassword } from "~/models/accounts/account.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError, rateLimitedAnswer } from "~/request/api.server";
import { clientIp } from "~/request/facts.server";
import { getSession } from "~/request/session.server";
import { apiChangePasswordSchema } from "~/utils/validation/account";

// PUT /api/auth/change-password { currentPassword, newPassword }: the
// Security tab's use case (changePassword): every attempt counted first, every other session ended.
const api = apiRoute({
  PUT: endpoint({
    access: "member",
    body: apiChangePasswordSchema,
    handle: async ({ request, user, body }) => {
      const result = await changePassword(user, body, { ip: clientIp(request), keepSessionId: (await getSession(request)).id || undefined });
      if (result.ok) return { message: "Password changed" };
      if (result.reason === "rate-limited") return rateLimitedAnswer(result);
      return apiError(400, result.fieldErrors.currentPassword![0], { errors: result.fieldErrors });
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
