import { data, Form } from "react-router";
import { CardFootLink } from "~/components/forms";
import type { Route } from "./+types/follow.$token";
import { confirmFollow, findFollowConfirmation } from "~/models/community/follows.server";
import { FOLLOW_MESSAGES } from "~/utils/follow";

// A visitor's link to confirm following a memorial, opened from its email. Opening it
// asks (a link scanner must not confirm anyone: nothing changes on GET); the button confirms, once. A link
// already used says so; an unknown or expired one answers 404.

export async function loader({ params }: Route.LoaderArgs) {
  const found = await findFollowConfirmation(params.token);
  if (found.state === "invalid" || !found.follow) return data({ state: "invalid" as const, name: null, memorialId: null }, { status: 404 });
  return { state: found.state, name: found.follow.memorialName, memorialId: found.follow.memorialId };
}

export async function action({ params }: Route.ActionArgs) {
  const before = await findFollowConfirmation(params.token);
  if (before.state === "confirmed" && before.follow)
    return { state: "confirmed" as const, name: before.follow.memorialName, memorialId: before.follow.memorialId };
  const done = await confirmFollow(params.token);
  if (done.state !== "confirmed" || !done.follow) return data({ state: "invalid" as const, name: null, memorialId: null }, { status: 404 });
  return { state: "done" as const, name: done.follow.memorialName, memorialId: done.follow.memorialId };
}

export default function ConfirmFollow({ loaderData, actionData }: Route.ComponentProps) {
  const { state, name, memorialId } = actionData ?? loaderData;
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <div className="space-y-4 rounded-xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
        {state === "invalid" ? (
          <>
            <h1 className="text-2xl font-bold text-stone-900">This link cannot be used</h1>
            <p className="text-stone-800">{FOLLOW_MESSAGES.invalidLink}</p>
          </>
        ) : state === "pending" ? (
          <>
            <h1 className="text-2xl font-bold text-stone-900 wrap-anywhere">Follow the memorial of {name}?</h1>
            <p className="text-stone-800">{FOLLOW_MESSAGES.hint} Every email has a link to stop them.</p>
            <Form method="post">
              <button type="submit" className="btn-primary w-full">
                Yes, follow this memorial
              </button>
            </Form>
          </>
        ) : (
          <>
            <h1 className="text-2xl font-bold text-stone-900 wrap-anywhere">You follow the memorial of {name}</h1>
            <p role="status" className="text-stone-800">
              {state === "done" ? `${FOLLOW_MESSAGES.confirmed}.` : FOLLOW_MESSAGES.alreadyConfirmed} {FOLLOW_MESSAGES.hint}
            </p>
          </>
        )}
        {memorialId ? <CardFootLink to={`/memorials/${memorialId}`}>Go to the memorial</CardFootLink> : null}
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Confirm following · Everlight" }, { name: "robots", content: "noindex" }];
