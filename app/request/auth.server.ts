import { data, redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { Actor } from "~/models/audit.server";
import { getSessionUser, signIn, type PublicUser, type SignInResult } from "~/models/accounts/users.server";
import { MESSAGES } from "~/utils/validation/account";
import { clientIp } from "./facts.server";
import { sessionIdFromCookie } from "./session.server";

// Who is asking, and the guards every route uses.

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
// React Router hands each loader its own copy of the Request (stripping ?index and _routes), so a page
// read (GET, HEAD) is known by a key the server sets on it, fresh and random each time, that the copies
// carry (server/request-handler.ts); anything else by the Request itself. A post is never keyed: the
// loaders after an action must see what it changed (a new name in the header, a signed-out session).
export const REQUEST_KEY_HEADER = "x-everlight-request-key";
const perRequest = new WeakMap<Request, Promise<PublicUser | null>>();
const perRequestKey = new Map<string, Promise<PublicUser | null>>();
/** Long enough for every loader of a page; the entry goes then, whatever happened to the request. */
const REQUEST_KEY_MS = 30_000;

export function getOptionalUser(request: Request): Promise<PublicUser | null> {
  const key = request.method === "GET" || request.method === "HEAD" ? request.headers.get(REQUEST_KEY_HEADER) : null;
  let found = key ? perRequestKey.get(key) : perRequest.get(request);
  if (!found) {
    found = (async () => {
      const sid = await sessionIdFromCookie(request.headers.get("Cookie") ?? "");
      return sid ? getSessionUser(sid) : null;
    })();
    if (key) {
      perRequestKey.set(key, found);
      setTimeout(() => perRequestKey.delete(key), REQUEST_KEY_MS).unref();
    } else perRequest.set(request, found);
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

/** An administrator; visitors go to sign in, other members get Access Denied (403). */
export async function requireAdmin(request: Request): Promise<PublicUser> {
  const user = await requireUser(request);
  if (!user.isAdmin) throw data({ message: ADMIN_DENIED }, { status: 403 });
  return user;
}

/** For /login and /register: a signed-in user has nothing to do there. */
export async function requireAnonymous(request: Request) {
  if (await getOptionalUser(request)) throw redirect("/");
}

/** The loader of a page for visitors only (sign in, sign up): a member is sent home, and it has no data. */
export async function signedOutOnlyLoader({ request }: { request: Request }) {
  await requireAnonymous(request);
  return null;
}
