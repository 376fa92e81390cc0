import type { Route } from "./+types/api.auth.change-password";
import { describeRetry, hitPasswordCheckLimits, RATE_LIMIT_MESSAGES } from "~/models/rate-limit.server";
import { deleteOtherSessions } from "~/models/session.server";
import { checkPassword, updatePassword } from "~/models/user.server";
import { apiError, json, methodNotAllowed, readJsonBody, requireApiUser, withApiErrors } from "~/services/api.server";
import { clientIp } from "~/services/request.server";
import { getSession } from "~/services/session.server";
import { apiChangePasswordSchema, MESSAGES } from "~/utils/validation/account";


// PUT /api/auth/change-password { currentPassword, newPassword } (commerce-and-accounts.md §7).
// Every checked attempt counts against the user and the address (a stolen session must not become a
// password-guessing oracle); a change ends every other session of the user.
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  return withApiErrors(async () => {
    const user = await requireApiUser(request);
    const { currentPassword, newPassword } = await readJsonBody(request, apiChangePasswordSchema);

    const limit = await hitPasswordCheckLimits(user.id, clientIp(request));
    if (!limit.allowed) {
      const retry = limit.retryAfterSeconds;
      return apiError(429, `${RATE_LIMIT_MESSAGES.passwordChange} ${describeRetry(retry)}`, {}, { headers: { "Retry-After": String(retry) } });
    }

    if (!(await checkPassword(user.id, currentPassword))) {
      return apiError(400, MESSAGES.currentPasswordIncorrect, { errors: { currentPassword: [MESSAGES.currentPasswordIncorrect] } });
    }
    await updatePassword(user.id, newPassword);
    await deleteOtherSessions(user.id, (await getSession(request)).id);
    return json({ message: "Password changed" });
  });
}
