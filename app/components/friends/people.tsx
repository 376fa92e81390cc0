import type { ReactNode } from "react";
import { Form, Link } from "react-router";

// What the /friends tabs show of a member: a picture or initials, the name, the address, and
// the one action that fits where the two stand. Every action is a plain form post, so it works without
// JavaScript; removing a friend asks first, in place (a disclosure holding the button that removes).

export type PersonView = { id: string; firstName: string; lastName: string; email: string; profileImageUrl: string | null };

export function MemberAvatar({ person }: { person: PersonView }) {
  if (person.profileImageUrl) {
    return <img src={person.profileImageUrl} alt="" width={48} height={48} className="with-fallback h-12 w-12 shrink-0 rounded-full object-cover" />;
  }
  return (
    <span aria-hidden="true" className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-heather-100 font-bold text-heather-800">
      {person.firstName.charAt(0).toUpperCase()}
      {person.lastName.charAt(0).toUpperCase()}
    </span>
  );
}

export const fullName = (p: Pick<PersonView, "firstName" | "lastName">) => `${p.firstName} ${p.lastName}`.trim();

/** One member in a list: who they are, a line about them, and what can be done. */
export function PersonRow({ person, note, children, headingLevel = 3 }: { person: PersonView; note?: ReactNode; children?: ReactNode; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <MemberAvatar person={person} />
        <div className="min-w-0 wrap-anywhere">
          <Heading className="font-semibold text-stone-900">{fullName(person)}</Heading>
          <p className="text-sm text-stone-700">{person.email}</p>
          {note ? <p className="mt-1 text-sm text-stone-700">{note}</p> : null}
        </div>
      </div>
      {children ? <div className="flex flex-wrap items-start gap-2 sm:justify-end">{children}</div> : null}
    </div>
  );
}

/** A button that posts one intent with the id it acts on. */
export function ActionButton({
  intent,
  field,
  id,
  label,
  who,
  variant = "primary",
  busy,
}: {
  intent: string;
  field: string;
  id: string;
  label: string;
  who: string;
  variant?: "primary" | "secondary";
  busy?: boolean;
}) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name={field} value={id} />
      <button type="submit" name="intent" value={intent} className={variant === "primary" ? "btn-primary" : "btn-secondary"} disabled={busy}>
        {label}
        <span className="sr-only"> ({who})</span>
      </button>
    </Form>
  );
}

/** Remove, asked first: the disclosure holds the sentence saying what it means and the button that does it. */
export function RemoveFriend({ friend, busy }: { friend: PersonView; busy?: boolean }) {
  const name = fullName(friend);
  return (
    <details className="w-full sm:w-auto sm:max-w-xs">
      <summary className="btn-secondary cursor-pointer list-none [&::-webkit-details-marker]:hidden">
        Remove<span className="sr-only"> {name} from your friends</span>
      </summary>
      <Form method="post" preventScrollReset className="mt-2 rounded-md border border-red-200 bg-red-50 p-3">
        <p className="text-sm text-red-900">Remove {name} from your friends? You will no longer see each other&apos;s friends-only memorials.</p>
        <input type="hidden" name="friendId" value={friend.id} />
        <button type="submit" name="intent" value="remove" className="btn mt-2 bg-red-700 text-white hover:bg-red-800" disabled={busy}>
          Remove friend<span className="sr-only"> {name}</span>
        </button>
      </Form>
    </details>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <div className="rounded-lg border border-dashed border-stone-300 bg-stone-50 p-6 text-center text-stone-700">{children}</div>;
}

/** An empty list that shows the way to find friends: what is missing, then the link to the search. */
export function EmptyFindFriends({ children }: { children: ReactNode }) {
  return (
    <div className="mt-4">
      <EmptyState>
        {children}
        <p className="mt-2">
          <Link to="/friends/find" className="link">
            Find friends by their email address
          </Link>
        </p>
      </EmptyState>
    </div>
  );
}
