import type { Route } from "./+types/api.auth.login";
import { checkRateLimit, describeRetry, hitRateLimit, RATE_LIMIT_MESSAGES, RATE_LIMITS, resetRateLimit } from "~/models/rate-limit.server";
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

    // Refused before any password work once too many attempts failed, for this email or this address.
    const [byEmail, byIp] = await Promise.all([
      checkRateLimit(RATE_LIMITS.loginPerEmail, email),
      checkRateLimit(RATE_LIMITS.loginPerIp, ip),
    ]);
    if (!byEmail.allowed || !byIp.allowed) {
      const retry = Math.max(byEmail.retryAfterSeconds, byIp.retryAfterSeconds);
      return apiError(429, `${RATE_LIMIT_MESSAGES.login} ${describeRetry(retry)}`, {}, { headers: { "Retry-After": String(retry) } });
    }

    const user = await verifyLogin(email, password);
    if (!user) {
      await Promise.all([hitRateLimit(RATE_LIMITS.loginPerEmail, email), hitRateLimit(RATE_LIMITS.loginPerIp, ip)]);
      return apiError(401, MESSAGES.invalidLogin);
    }
    await resetRateLimit(RATE_LIMITS.loginPerEmail, email);
    return json(user, { headers: { "Set-Cookie": await newUserSessionCookie(request, user.id) } });
  });
}
