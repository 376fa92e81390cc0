import type { Route } from "./+types/api.auth.login";
import { checkLoginAllowed, recordLoginFailure, recordLoginSuccess } from "~/models/rate-limit.server";
import { verifyLogin } from "~/models/user.server";
import { apiError, json, methodNotAllowed, readJsonBody, withApiErrors } from "~/services/api.server";
import { clientIp } from "~/services/request.server";
import { newUserSessionCookie } from "~/services/session.server";
import { loginSchema, MESSAGES } from "~/utils/validation/account";

// POST /api/auth/login { email, password } (memorial-core.md §7): the same rules, limits and messages
// as the /login form. Answers the PublicUser and a cookie for a brand-new session.
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => {
    const { email, password } = await readJsonBody(request, loginSchema);
    const ip = clientIp(request);

    const throttle = await checkLoginAllowed(email, ip);
    if (!throttle.allowed) return apiError(429, throttle.message, {}, { headers: { "Retry-After": String(throttle.retryAfterSeconds) } });

    const user = await verifyLogin(email, password);
    if (!user) {
      await recordLoginFailure(email, ip);
      return apiError(401, MESSAGES.invalidLogin);
    }
    await recordLoginSuccess(email);
    return json(user, { headers: { "Set-Cookie": await newUserSessionCookie(request, user.id) } });
  });
}
