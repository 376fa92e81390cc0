import { data, redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { Actor } from "~/models/audit.server";
import { getSignedInUser, signIn, type PublicUser, type SignInResult } from "~/models/user.server";
import { MESSAGES } from "~/utils/validation/account";
import { clientIp } from "./facts.server";
import { getSession } from "./session.server";

// Who is asking, and the guards every route uses (STYLE.md "Server code is named for what it guards").

/** A sign-in the signIn use case refused: why, for the form to say. */
export class SignInRefusedError extends Error {
  constructor(readonly result: Exclude<SignInResult, { ok: true }>) {
    super(result.reason === "rate-limited" ? result.message : MESSAGES.invalidLogin);
  }
}

// The /login form's strategy: the signIn use case (shared with POST /api/auth/login) behind remix-auth.
export const authenticator = new Authenticator<PublicUser>();
authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const email = String(form.get("email") ?? "")
      .trim()
      .toLowerCase();
    const password = String(form.get("password") ?? "");
    const result = await signIn(email, password, clientIp(request));
    if (!result.ok) throw new SignInRefusedError(result);
    return result.user;
  }),
  "form",
);

// One look-up per request however many loaders ask (root, layout and page loaders run in parallel).
const perRequest = new WeakMap<Request, Promise<PublicUser | null>>();

export function getOptionalUser(request: Request): Promise<PublicUser | null> {
  let found = perRequest.get(request);
  if (!found) {
    found = (async () => {
      const session = await getSession(request);
      const userId = session.get("userId");
      return userId ? getSignedInUser(userId) : null;
    })();
    perRequest.set(request, found);
  }
  return found;
}

export function loginPath(request: Request) {
  const url = new URL(request.url);
  const here = url.pathname + url.search;
  return here === "/" ? "/login" : `/login?${new URLSearchParams({ redirectTo: here })}`;
}

/** The signed-in user, or a redirect to /login?redirectTo=<here>. */
export async function requireUser(request: Request): Promise<PublicUser> {
  const user = await getOptionalUser(request);
  if (!user) throw redirect(loginPath(request));
  return user;
}

/** The signed-in person as the use cases take them, to decide and to record: who, administrator or not, from where. */
export function actorOf(user: PublicUser, request: Request): Actor {
  return { id: user.id, email: user.email, isAdmin: user.isAdmin, ip: clientIp(request) };
}

export const ADMIN_DENIED = "You don't have permission to access the admin dashboard.";

/** An administrator; visitors go to sign in, other members get the spec's Access Denied (403). */
export async function requireAdmin(request: Request): Promise<PublicUser> {
  const user = await requireUser(request);
  if (!user.isAdmin) throw data({ message: ADMIN_DENIED }, { status: 403 });
  return user;
}

/** For /login and /register: a signed-in user has nothing to do there. */
export async function requireAnonymous(request: Request) {
  if (await getOptionalUser(request)) throw redirect("/");
}
