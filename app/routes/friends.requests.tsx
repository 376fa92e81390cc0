import { useNavigation } from "react-router";
import type { Route } from "./+types/friends.requests";
import { ActionButton, EmptyFindFriends, EmptyState, fullName, PersonRow } from "~/components/friends/people";
import { listReceivedRequests, listSentRequests } from "~/models/community/friends.server";
import { requireUser } from "~/request/auth.server";
import { friendAction } from "./friends.server";
import { formatLongDate } from "~/utils/dates";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Requests: those waiting for the member's answer (Accept or Reject), and those they sent that wait for
// someone else's (Cancel request).

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const [received, sent] = await Promise.all([listReceivedRequests(user.id), listSentRequests(user.id)]);
  return {
    received: received.map((r) => ({ id: r.id, createdAt: r.createdAt.toISOString(), person: r.sender })),
    sent: sent.map((r) => ({ id: r.id, createdAt: r.createdAt.toISOString(), person: r.receiver })),
  };
}

export const action = ({ request }: Route.ActionArgs) => friendAction(request);

export default function RequestsTab({ loaderData }: Route.ComponentProps) {
  const { received, sent } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="space-y-10">
      <section aria-labelledby="received-heading">
        <h2 id="received-heading" className="text-xl font-semibold text-stone-900">
          Waiting for your answer
        </h2>
        {received.length === 0 ? (
          <div className="mt-4">
            <EmptyState>
              <p>No one is waiting for your answer.</p>
            </EmptyState>
          </div>
        ) : (
          <ul className="mt-4 space-y-3">
            {received.map((r) => (
              <li key={r.id}>
                <PersonRow person={r.person} note={`Asked on ${formatLongDate(r.createdAt)}`}>
                  <ActionButton intent="accept" field="requestId" id={r.id} label="Accept" who={fullName(r.person)} busy={busy} />
                  <ActionButton intent="reject" field="requestId" id={r.id} label="Reject" who={fullName(r.person)} variant="secondary" busy={busy} />
                </PersonRow>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="sent-heading">
        <h2 id="sent-heading" className="text-xl font-semibold text-stone-900">
          Sent by you
        </h2>
        {sent.length === 0 ? (
          <EmptyFindFriends>
            <p>You have no requests waiting for an answer.</p>
          </EmptyFindFriends>
        ) : (
          <ul className="mt-4 space-y-3">
            {sent.map((r) => (
              <li key={r.id}>
                <PersonRow person={r.person} note={`Sent on ${formatLongDate(r.createdAt)}, waiting for an answer`}>
                  <ActionButton intent="cancel" field="requestId" id={r.id} label="Cancel request" who={fullName(r.person)} variant="secondary" busy={busy} />
                </PersonRow>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Requests · Friends · Everlight" }];
