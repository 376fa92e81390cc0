import { data, redirect } from "react-router";
import type { Route } from "./+types/m.$shortId";
import { MemorialNotFound } from "~/components/memorial/lock-panel";
import { findMemorialIdByShortId } from "~/models/memorials/records.server";

// A memorial's permanent address (docs/decisions/028-permanent-address-and-qr.md):
// /m/<shortId>, printed under its QR code and cut into stone, sends anyone on to the memorial's page
// with a permanent redirect; the page decides who may see it. An address that is not a short id, names
// no memorial, or names a deleted one is the memorial page's own "Memorial Not Found" (404).
export async function loader({ params }: Route.LoaderArgs) {
  const id = await findMemorialIdByShortId(params.shortId);
  if (!id) return data({ status: "not-found" as const }, { status: 404 });
  // Permanent: /memorials/<id> never changes either, so a browser may remember it (a signed-in member's answer
  // is still marked private by the server, as every answer to a session is).
  return redirect(`/memorials/${id}`, { status: 301 });
}

export default function PermanentAddress() {
  return <MemorialNotFound />;
}

export const meta: Route.MetaFunction = () => [{ title: "Memorial Not Found · Everlight" }, { name: "robots", content: "noindex" }];
