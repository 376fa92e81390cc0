import { createCookie, createSessionStorage, type Session } from "react-router";
import { createSessionRow, deleteSessionRow, readSessionRow, SESSION_TTL_MS, updateSessionRow, type SessionData } from "~/models/accounts/sessions.server";
import { secureCookies } from "~/services/env.server";
import { getSessionSecrets } from "~/services/secrets.server";
import { signedOnce } from "./signed-once.server";

// The session cookie holds only the signed session id; the data lives in the `sessions` table.

let storage: ReturnType<typeof makeStorage> | undefined;
let sessionCookie: ReturnType<typeof makeCookie> | undefined;

function makeCookie() {
  return createCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: secureCookies(),
    secrets: getSessionSecrets(),
    maxAge: SESSION_TTL_MS / 1000,
  });
}

function makeStorage() {
  return createSessionStorage<SessionData>({
    cookie: (sessionCookie ??= makeCookie()),
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

/** Cookie headers whose signature was checked, with the session id they carry (signed-once.server.ts). */
const checked = signedOnce<string | null>(2_000);
/** Ours with a toast's are about 300 characters: a longer header is checked each time, never kept. */
const CHECKED_HEADER_MAX = 1_024;

/** The session id a Cookie header carries, its signature checked; null if none or forged. The row is not read. */
export function sessionIdFromCookie(cookieHeader: string): Promise<string | null> {
  return checked(
    cookieHeader,
    () => (sessionCookie ??= makeCookie()).parse(cookieHeader).then((id: unknown) => (typeof id === "string" && id ? id : null)),
    cookieHeader.length <= CHECKED_HEADER_MAX,
  );
}

export function sessionId(session: Session<SessionData>): string | undefined {
  return session.id || undefined;
}

/**
 * Signs the user in, for the forms and the /api alike: a brand-new session row and id (never the
 * visitor's old one: session fixation). Answers the Set-Cookie header that carries it.
 */
export async function startSession(request: Request, userId: string): Promise<string> {
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
