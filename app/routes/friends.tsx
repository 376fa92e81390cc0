import { NavLink, Outlet } from "react-router";
import type { Route } from "./+types/friends";
import { friendCounts } from "~/models/friend.server";
import { requireUser } from "~/request/auth.server";

// Friends (commerce-and-accounts.md §2 "Friends"): three tabs, each its own address, so they work as plain
// links without JavaScript and can be bookmarked: My Friends (count), Requests (count), Find Friends. The
// spec shows a signed-out visitor a login prompt; like every login-required page we send them to sign in
// and bring them back here.

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { counts: await friendCounts(user.id) };
}

export default function FriendsLayout({ loaderData }: Route.ComponentProps) {
  const { counts } = loaderData;
  const tabs = [
    { to: "/friends", label: "My Friends", count: counts.friends },
    { to: "/friends/requests", label: "Requests", count: counts.requests },
    { to: "/friends/find", label: "Find Friends", count: null },
  ];
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-slate-900">Friends</h1>
      <p className="mt-1 text-slate-700">Friends can see each other&apos;s memorials that are shared with friends only.</p>
      <nav aria-label="Friends" className="mt-6 border-b border-slate-200">
        <ul className="-mb-px flex flex-wrap gap-1">
          {tabs.map((tab) => (
            <li key={tab.to}>
              <NavLink
                to={tab.to}
                end
                className={({ isActive }) =>
                  `inline-block rounded-t-md border-b-2 px-3 py-2 text-sm font-medium sm:px-4 ${
                    isActive ? "border-indigo-700 text-indigo-800" : "border-transparent text-slate-700 hover:border-slate-400 hover:text-slate-900"
                  }`
                }
              >
                {tab.label}
                {tab.count !== null ? <span className="tabular-nums">{` (${tab.count})`}</span> : null}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-8">
        <Outlet />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Friends · Everlight" }];
