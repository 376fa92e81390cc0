import { data, redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getUserById, verifyLogin, type PublicUser } from "~/models/user.server";
import { MESSAGES } from "~/utils/validation/account";
import { getSession } from "./session.server";

// Who is asking, and the guards every route uses (STYLE.md "Server code is named for what it guards").

export class InvalidCredentialsError extends Error {
  constructor() {
    super(MESSAGES.invalidLogin);
  }
}

export const authenticator = new Authenticator<PublicUser>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const email = String(form.get("email") ?? "").trim().toLowerCase();
    const password = String(form.get("password") ?? "");
    const user = await verifyLogin(email, password);
    if (!user) throw new InvalidCredentialsError();
    return user;
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
      return userId ? getUserById(userId) : null;
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
