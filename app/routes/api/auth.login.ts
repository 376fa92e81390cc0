import { purgeDateOf } from "~/utils/deletion";
import { signIn } from "~/models/accounts/users.server";
import { apiRoute, endpoint } from "~/request/api-route.server";
import { apiError, json, rateLimitedAnswer } from "~/request/api.server";
import { clientIp } from "~/request/facts.server";
import { startSession } from "~/request/session.server";
import { formatLongDate } from "~/utils/dates";
import { loginSchema, MESSAGES } from "~/utils/validation/account";
import { ACCOUNT_REMOVED_MESSAGE, accountDeletedMessage } from "~/utils/validation/account-rules";

// POST /api/auth/login { email, password }: the same use case, limits and
// messages as the /login form (signIn). Answers the PublicUser and a cookie for a brand-new session.
const api = apiRoute({
  POST: endpoint({
    access: "public",
    body: loginSchema,
    handle: async ({ request, body }) => {
      const result = await signIn(body.email, body.password, clientIp(request));
      if (!result.ok && result.reason === "rate-limited") return rateLimitedAnswer(result);
      if (!result.ok && result.reason === "removed") return apiError(403, ACCOUNT_REMOVED_MESSAGE, { reason: "account-removed" });
      if (!result.ok && result.reason === "deleted")
        return apiError(403, accountDeletedMessage(formatLongDate(purgeDateOf(result.deletedAt)), "website"), { reason: "account-deleted" });
      if (!result.ok) return apiError(401, MESSAGES.invalidLogin);
      return json(result.user, { headers: { "Set-Cookie": await startSession(request, result.user.id) } });
    },
  }),
});
export const loader = api.loader;
export const action = api.action;
