import { apiRoute, endpoint } from "~/request/api-route.server";
import { json } from "~/request/api.server";
import { destroySessionCookie } from "~/request/session.server";

// POST /api/auth/logout: deletes the session row, so a copied cookie stops
// working at once, and clears the cookie. Fine when nobody is signed in.
const api = apiRoute({
  POST: endpoint({
    access: "public",
    handle: async ({ request }) => json({ message: "Signed out" }, { headers: { "Set-Cookie": await destroySessionCookie(request) } }),
  }),
});
export const loader = api.loader;
export const action = api.action;
