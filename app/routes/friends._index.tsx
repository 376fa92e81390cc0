import { data, Link, useNavigation } from "react-router";
import type { Route } from "./+types/friends._index";
import { EmptyFindFriends, PersonRow, RemoveFriend } from "~/components/friends/people";
import { listFriends } from "~/models/community/friends.server";
import { requireUser } from "~/request/auth.server";
import { friendAction } from "./friends.server";
import { formatLongDate } from "~/utils/dates";
import { PAGE_NUMBER_MESSAGE, parsePageNumber } from "~/utils/paging";
import type { KeptPageHandle } from "~/utils/kept-pages";

// My Friends: everyone the member is friends with, 50 a page, each with Remove (asked first).

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const page = parsePageNumber(new URL(request.url).searchParams.get("page"));
  if (page === null) throw data({ message: PAGE_NUMBER_MESSAGE }, { status: 400 });
  const list = await listFriends(user.id, page);
  return { ...list, items: list.items.map((f) => ({ ...f, friendsSince: f.friendsSince.toISOString() })) };
}

export const action = ({ request }: Route.ActionArgs) => friendAction(request);

export default function MyFriendsTab({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pages } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <section aria-labelledby="my-friends-heading">
      <h2 id="my-friends-heading" className="text-xl font-semibold text-stone-900">
        My Friends
      </h2>
      {total === 0 ? (
        <EmptyFindFriends>
          <p>You have no friends on Everlight yet.</p>
        </EmptyFindFriends>
      ) : (
        <>
          <p className="mt-1 text-sm text-stone-700">
            {total === 1 ? "1 friend" : `${total} friends`}
            {pages > 1 ? `, page ${page} of ${pages}` : ""}
          </p>
          <ul className="mt-4 space-y-3">
            {items.map((friend) => (
              <li key={friend.id}>
                <PersonRow person={friend} note={`Friends since ${formatLongDate(friend.friendsSince)}`}>
                  <RemoveFriend friend={friend} busy={busy} />
                </PersonRow>
              </li>
            ))}
          </ul>
          {pages > 1 ? (
            <nav aria-label="Pages of friends" className="mt-6 flex justify-between gap-3">
              {page > 1 ? (
                <Link to={`/friends?page=${page - 1}`} className="btn-secondary">
                  Previous page
                </Link>
              ) : (
                <span />
              )}
              {page < pages ? (
                <Link to={`/friends?page=${page + 1}`} className="btn-secondary">
                  Next page
                </Link>
              ) : null}
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "My Friends · Friends · Everlight" }];
