import { getFormProps, getInputProps } from "@conform-to/react";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/friends.find";
import { ActionButton, fullName, PersonRow, RemoveFriend } from "~/components/friends/people";
import { Field, lowerCaseAsTyped } from "~/components/forms";
import { useSchemaForm } from "~/components/schema-form";
import { searchMemberByEmail } from "~/models/community/friends.server";
import { requireUser } from "~/request/auth.server";
import { friendAction } from "./friends.server";
import { formatLongDate } from "~/utils/dates";
import { FRIEND_MESSAGES, friendSearchSchema, type FriendshipStatus } from "~/utils/validation/friends";

// Find Friends: a search by exact
// email address, as a GET form so it works without JavaScript and the result stays in the address while
// the member acts on it. It finds only members who allow it (Account → Privacy); anyone else, and an
// address nobody has, get the same sentence (README).

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const email = new URL(request.url).searchParams.get("email");
  if (email === null) return { email: "", error: null, outcome: null };
  const parsed = friendSearchSchema.safeParse({ email });
  if (!parsed.success) return data({ email, error: parsed.error.issues[0].message, outcome: null }, { status: 400 });
  const result = await searchMemberByEmail(user, parsed.data.email);
  if (!result.ok)
    return data(
      { email, error: null, outcome: { kind: "refused" as const, message: result.message } },
      { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
    );
  if (result.self) return { email, error: null, outcome: { kind: "self" as const } };
  if (!result.match) return { email, error: null, outcome: { kind: "none" as const } };
  const { status, requestId, requestAllowedFrom, ...person } = result.match;
  return { email, error: null, outcome: { kind: "found" as const, person, status, requestId, requestAllowedFrom: requestAllowedFrom?.toISOString() ?? null } };
}

export const action = ({ request }: Route.ActionArgs) => friendAction(request);

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => {
  const retryAfter = loaderHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

const STATUS_TEXT: Record<FriendshipStatus, string> = {
  none: "Not friends yet",
  pending_sent: "Request sent, waiting for an answer",
  pending_received: "Has sent you a friend request",
  friends: "Friends",
};

export default function FindFriendsTab({ loaderData }: Route.ComponentProps) {
  const { email, error, outcome } = loaderData;
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useSchemaForm(friendSearchSchema, { id: "friend-search", defaultValue: { email } });
  return (
    <div className="space-y-8">
      <section aria-labelledby="find-heading">
        <h2 id="find-heading" className="text-xl font-semibold text-stone-900">
          Find Friends
        </h2>
        <p className="mt-1 text-stone-700">Search for a member by their email address. Only members who allow it can be found.</p>
        <Form method="get" {...getFormProps(form)} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
          <Field
            className="flex-1"
            label="Email address"
            errors={fields.email.errors ?? (error ? [error] : null)}
            inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off", onInput: lowerCaseAsTyped, autoFocus: !!error }}
          />
          <button type="submit" className="btn-primary sm:mt-6">
            Search
          </button>
        </Form>
      </section>

      {outcome ? (
        <section aria-labelledby="result-heading" aria-live="polite">
          <h2 id="result-heading" className="sr-only">
            Search result
          </h2>
          {outcome.kind === "found" ? (
            <PersonRow
              person={outcome.person}
              note={<StatusNote status={outcome.status} allowedFrom={outcome.requestAllowedFrom} name={outcome.person.firstName} />}
            >
              <ResultAction outcome={outcome} busy={busy} />
            </PersonRow>
          ) : (
            <p data-testid="search-answer" className="rounded-lg border border-stone-200 bg-stone-50 p-4 text-stone-800" role="status">
              {outcome.kind === "self" ? FRIEND_MESSAGES.self : outcome.kind === "none" ? FRIEND_MESSAGES.noMatch : outcome.message}
            </p>
          )}
        </section>
      ) : null}
    </div>
  );
}

function StatusNote({ status, allowedFrom, name }: { status: FriendshipStatus; allowedFrom: string | null; name: string }) {
  return (
    <span data-testid="friendship-status" data-status={status}>
      {allowedFrom ? `${name} declined your last request. You can send another from ${formatLongDate(allowedFrom)}.` : STATUS_TEXT[status]}
    </span>
  );
}

type Found = {
  person: { id: string; firstName: string; lastName: string; email: string; profileImageUrl: string | null };
  status: FriendshipStatus;
  requestId: string | null;
  requestAllowedFrom: string | null;
};

/** The one action that fits where the two stand. */
function ResultAction({ outcome, busy }: { outcome: Found; busy: boolean }) {
  const who = fullName(outcome.person);
  switch (outcome.status) {
    case "none":
      return outcome.requestAllowedFrom ? null : (
        <ActionButton intent="request" field="receiverId" id={outcome.person.id} label="Send friend request" who={who} busy={busy} />
      );
    case "pending_sent":
      return <ActionButton intent="cancel" field="requestId" id={outcome.requestId!} label="Cancel request" who={who} variant="secondary" busy={busy} />;
    case "pending_received":
      return (
        <>
          <ActionButton intent="accept" field="requestId" id={outcome.requestId!} label="Accept" who={who} busy={busy} />
          <ActionButton intent="reject" field="requestId" id={outcome.requestId!} label="Reject" who={who} variant="secondary" busy={busy} />
        </>
      );
    case "friends":
      return (
        <>
          <Link to="/friends" className="btn-ghost">
            See your friends
          </Link>
          <RemoveFriend friend={outcome.person} busy={busy} />
        </>
      );
  }
}

export const meta: Route.MetaFunction = () => [{ title: "Find Friends · Friends · Everlight" }];
