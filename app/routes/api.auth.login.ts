import type { Route } from "./+types/api.auth.login";
import { signIn } from "~/models/user.server";
import { apiError, json, methodNotAllowed, readJsonBody, withApiErrors } from "~/services/api.server";
import { clientIp } from "~/services/request.server";
import { newUserSessionCookie } from "~/services/session.server";
import { loginSchema, MESSAGES } from "~/utils/validation/account";

// POST /api/auth/login { email, password } (memorial-core.md §7): the same use case, limits and
// messages as the /login form (signIn). Answers the PublicUser and a cookie for a brand-new session.
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => {
    const { email, password } = await readJsonBody(request, loginSchema);
    const result = await signIn(email, password, clientIp(request));
    if (!result.ok && result.reason === "rate-limited") {
      return apiError(429, result.message, {}, { headers: { "Retry-After": String(result.retryAfterSeconds) } });
    }
    if (!result.ok) return apiError(401, MESSAGES.invalidLogin);
    return json(result.user, { headers: { "Set-Cookie": await newUserSessionCookie(request, result.user.id) } });
  });
}
