import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { destroySessionCookie } from "~/request/session.server";
import { redirectWithToast } from "~/request/toast.server";

// POST only: a GET must never change data (a link or prefetch could sign someone out).
export async function action({ request }: Route.ActionArgs) {
  return redirectWithToast("/", { type: "info", title: "You have been signed out." }, { "Set-Cookie": await destroySessionCookie(request) });
}

export function loader() {
  return redirect("/");
}
