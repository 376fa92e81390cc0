import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { destroySessionCookie } from "~/request/session.server";
import { withToast } from "~/request/toast.server";

// POST only: a GET must never change data (a link or prefetch could sign someone out).
export async function action({ request }: Route.ActionArgs) {
  const headers = await withToast({ type: "info", title: "You have been signed out." }, { "Set-Cookie": await destroySessionCookie(request) });
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
