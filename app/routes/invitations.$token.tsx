import { data, Form, Link } from "react-router";
import type { Route } from "./+types/invitations.$token";
import { answerInvitation, findInvitation, type InvitationState } from "~/models/memorials/managers.server";
import { actorOf, requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { CO_MANAGER_MESSAGES, CO_MANAGER_ROLE_HINTS } from "~/utils/co-managers";
import { formatLongDate } from "~/utils/dates";

// An invitation to help manage a memorial, opened from its email. Signing in comes
// first (the login page brings the member back here, token and all); then Accept and Decline are two
// plain forms. Any signed-in member holding the link may answer (docs/decisions/020-co-managers.md).
// A link that was used, declined, revoked or has expired answers 410 with what happened; an unknown one 404.

const GONE: Record<Exclude<InvitationState, "pending">, string> = {
  invalid: CO_MANAGER_MESSAGES.invalid,
  expired: CO_MANAGER_MESSAGES.expired,
  used: CO_MANAGER_MESSAGES.used,
  declined: CO_MANAGER_MESSAGES.declinedBefore,
  revoked: CO_MANAGER_MESSAGES.revokedBefore,
};

function unusable(state: Exclude<InvitationState, "pending"> | "owner") {
  const message = state === "owner" ? CO_MANAGER_MESSAGES.ownInvitation : GONE[state];
  return data({ status: "gone" as const, message }, { status: state === "invalid" ? 404 : state === "owner" ? 409 : 410 });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireUser(request);
  const found = await findInvitation(params.token);
  if (found.state !== "pending" || !found.invitation) return unusable(found.state === "pending" ? "invalid" : found.state);
  const i = found.invitation;
  return {
    status: "pending" as const,
    memorialName: i.memorialName,
    invitedBy: i.invitedBy,
    role: i.role,
    asSuccessor: i.asSuccessor,
    expiresOn: formatLongDate(i.expiresAt),
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const answer = form.get("answer");
  if (answer !== "accept" && answer !== "decline") throw data(null, { status: 400 });
  const result = await answerInvitation(params.token, actorOf(user, request), answer);
  if (!result.ok) return unusable(result.state === "pending" ? "invalid" : result.state);
  if (answer === "decline") return redirectWithToast("/my-memorials", { type: "success", title: CO_MANAGER_MESSAGES.declined });
  return redirectWithToast(`/memorials/${result.memorialId}`, { type: "success", title: CO_MANAGER_MESSAGES.accepted });
}

export default function Invitation({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ?? loaderData;
  if (view.status === "gone") {
    return (
      <div className="mx-auto max-w-xl px-4 py-16">
        <h1 className="text-3xl font-bold text-stone-900">This invitation cannot be used</h1>
        <p className="mt-4 text-stone-700">{view.message}</p>
        <p className="mt-6">
          <Link to="/my-memorials" className="link">
            Go to My Memorials
          </Link>
        </p>
      </div>
    );
  }
  const { memorialName, invitedBy, role, asSuccessor, expiresOn } = view;
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-3xl font-bold text-stone-900 wrap-anywhere">Help manage the memorial of {memorialName}</h1>
      <p className="mt-4 text-stone-700 wrap-anywhere">
        {invitedBy} invited you as {role === "manager" ? "a manager" : "an editor"}. {CO_MANAGER_ROLE_HINTS[role]}
        {asSuccessor ? " You would also be its successor: the memorial passes to you if its owner deletes their account or is away for a long time." : ""}
      </p>
      <p className="mt-2 text-sm text-stone-700">This invitation can be used until {expiresOn}.</p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Form method="post">
          <button type="submit" name="answer" value="accept" className="btn-primary">
            Accept invitation
          </button>
        </Form>
        <Form method="post">
          <button type="submit" name="answer" value="decline" className="btn-secondary">
            Decline
          </button>
        </Form>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Invitation · Everlight" }, { name: "robots", content: "noindex" }];
