import { createCookie } from "react-router";
import { secureCookies } from "~/services/env.server";
import { getSessionSecrets } from "~/services/secrets.server";

// The proof, between /login's two steps, that whoever asks to restore a deleted account has just given
// its password: a signed cookie naming the account, good for ten minutes and read only by /login. Nothing
// in the page or the form carries it, so a restore cannot be asked for anyone else.

const RESTORE_MINUTES = 10;

function restoreCookie() {
  return createCookie("__restore", {
    httpOnly: true,
    sameSite: "lax",
    // "/" rather than "/login": with JavaScript the form posts to /login.data, which "/login" does not cover.
    path: "/",
    maxAge: RESTORE_MINUTES * 60,
    secure: secureCookies(),
    secrets: getSessionSecrets(),
  });
}

/** The Set-Cookie that lets this browser restore the account in the next few minutes. */
export function offerRestore(userId: string): Promise<string> {
  return restoreCookie().serialize({ userId, until: Date.now() + RESTORE_MINUTES * 60_000 });
}

/** The account this browser may restore, if it gave the password in the last few minutes. */
export async function restorableAccount(request: Request): Promise<string | null> {
  const value: unknown = await restoreCookie().parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return null;
  const { userId, until } = value as { userId?: unknown; until?: unknown };
  return typeof userId === "string" && typeof until === "number" && until > Date.now() ? userId : null;
}

/** Clears the offer once it is used. */
export function clearRestoreOffer(): Promise<string> {
  return restoreCookie().serialize("", { maxAge: 0 });
}
