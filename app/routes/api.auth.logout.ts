import type { Route } from "./+types/api.auth.logout";
import { json, methodNotAllowed, withApiErrors } from "~/services/api.server";
import { destroySessionCookie } from "~/services/session.server";

// POST /api/auth/logout (memorial-core.md §7): deletes the session row, so a copied cookie stops
// working at once, and clears the cookie. Fine when nobody is signed in.
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return withApiErrors(async () => json({ message: "Signed out" }, { headers: { "Set-Cookie": await destroySessionCookie(request) } }));
}
