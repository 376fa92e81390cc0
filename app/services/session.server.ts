import { createCookie, createSessionStorage, redirect, type Session } from "react-router";
import {
  createSessionRow,
  deleteSessionRow,
  readSessionRow,
  SESSION_TTL_MS,
  updateSessionRow,
  type SessionData,
} from "~/models/session.server";
import { getEnv } from "./env.server";
import { getSessionSecrets } from "./secrets.server";

// The session cookie holds only the signed session id; the data lives in the `sessions` table.

function isSecure() {
  const env = getEnv();
  return env.SESSION_COOKIE_SECURE ? env.SESSION_COOKIE_SECURE === "true" : env.NODE_ENV === "production";
}

let storage: ReturnType<typeof makeStorage> | undefined;

function makeStorage() {
  const cookie = createCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: isSecure(),
    secrets: getSessionSecrets(),
    maxAge: SESSION_TTL_MS / 1000,
  });
  return createSessionStorage<SessionData>({
    cookie,
    createData: (data, expires) => createSessionRow(data as SessionData, expires),
    readData: (id) => readSessionRow(id),
    updateData: (id, data, expires) => updateSessionRow(id, data as SessionData, expires),
    deleteData: (id) => deleteSessionRow(id),
  });
}

export function sessionStorage() {
  storage ??= makeStorage();
  return storage;
}

export function getSession(request: Request) {
  return sessionStorage().getSession(request.headers.get("Cookie"));
}

export function sessionId(session: Session<SessionData>): string | undefined {
  return session.id || undefined;
}

/**
 * Signs the user in: a brand-new session row and id (never the visitor's old one: session fixation),
 * then a redirect that sets the cookie.
 */
export async function createUserSession(request: Request, userId: string, redirectTo: string, headers = new Headers()) {
  const old = await getSession(request);
  if (old.id) await deleteSessionRow(old.id);
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  headers.append("Set-Cookie", await sessionStorage().commitSession(session));
  return redirect(redirectTo, { headers });
}

/** The Set-Cookie header of a new session for the user (for the /api, which answers JSON). */
export async function newUserSessionCookie(request: Request, userId: string) {
  const old = await getSession(request);
  if (old.id) await deleteSessionRow(old.id);
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  return sessionStorage().commitSession(session);
}

/** Deletes the session row (so a copied cookie stops working at once) and clears the cookie. */
export async function destroySessionCookie(request: Request) {
  const session = await getSession(request);
  return sessionStorage().destroySession(session);
}
