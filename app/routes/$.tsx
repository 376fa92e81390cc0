import { data } from "react-router";
import type { Route } from "./+types/$";
import { NotFound } from "~/components/error-page";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Complete as plain HTML: its scripts wait for the visitor's first use (app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle & KeptPageHandle = { hydrateOnUse: true, kept: { visitors: "not-found" } };

// Any path no other route claims: the not-found page, with a real 404 status.
export async function loader() {
  return data(null, { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}

export const meta: Route.MetaFunction = () => [{ title: "404 Page Not Found · Everlight" }];
