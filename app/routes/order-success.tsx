import { redirect } from "react-router";
import type { Route } from "./+types/order-success";
import { requireUser } from "~/request/auth.server";

// The older confirmation view: it leads to the same place as
// /order-confirmation, with the same address query (payment_intent or session_id), so one page and one
// use case make the order. (Loading this page does not clear the basket; only a paid order does.)
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return redirect(`/order-confirmation${new URL(request.url).search}`);
}
