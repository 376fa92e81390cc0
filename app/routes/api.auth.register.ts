import type { Route } from "./+types/api.auth.register";
import { describeRetry, hitRegistrationLimits } from "~/models/rate-limit.server";
import { createUser, EmailTakenError } from "~/models/user.server";
import { apiError, json, methodNotAllowed, readJsonBody, withApiErrors } from "~/services/api.server";
import { clientIp } from "~/services/request.server";
import { newUserSessionCookie } from "~/services/session.server";
import { apiRegisterSchema, MESSAGES } from "~/utils/validation/account";

// POST /api/auth/register { firstName, lastName, email, password } (memorial-core.md §7; the
// confirmation is not sent, §5). Same rules, limit and messages as the /register form; 201 with the
// PublicUser, signed in.
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => {
    const input = await readJsonBody(request, apiRegisterSchema);
    const limit = await hitRegistrationLimits(clientIp(request), input.email);
    if (!limit.allowed) {
      return apiError(
        429,
        `${limit.message} ${describeRetry(limit.retryAfterSeconds)}`,
        {},
        { headers: { "Retry-After": String(limit.retryAfterSeconds) } },
      );
    }
    try {
      const user = await createUser(input);
      return json(user, { status: 201, headers: { "Set-Cookie": await newUserSessionCookie(request, user.id) } });
    } catch (error) {
      if (error instanceof EmailTakenError) return apiError(409, MESSAGES.emailTaken);
      throw error;
    }
  });
}
