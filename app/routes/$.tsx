import { data } from "react-router";
import type { Route } from "./+types/$";
import { NotFound } from "~/components/error-page";
import { requireAdmin, requireUser } from "~/request/auth.server";
import { requiresAdmin, requiresLogin } from "~/utils/route-access";

// Any path no other route claims: the spec's not-found page, with a real 404 status. Login-required
// paths whose screens are not built yet still send a visitor to sign in first (and /admin answers a
// member with Access Denied), so no protected address ever behaves as public.
export async function loader({ request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  if (requiresAdmin(pathname)) await requireAdmin(request);
  else if (requiresLogin(pathname)) await requireUser(request);
  return data(null, { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}

export const meta: Route.MetaFunction = () => [{ title: "404 Page Not Found · Everlight" }];
