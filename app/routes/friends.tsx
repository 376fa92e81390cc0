import { Outlet } from "react-router";
import type { Route } from "./+types/friends";
import { TabBar, type Tab } from "~/components/tab-bar";
import { friendCounts } from "~/models/community/friends.server";
import { requireUser } from "~/request/auth.server";

// Friends: three tabs, each its own address, so they work as plain
// links without JavaScript and can be bookmarked: My Friends (count), Requests (count), Find Friends.
// A signed-out visitor gets no login prompt: like every login-required page we send them to sign in
// and bring them back here.

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { counts: await friendCounts(user.id) };
}

export default function FriendsLayout({ loaderData }: Route.ComponentProps) {
  const { counts } = loaderData;
  const tabs: Tab[] = [
    { to: "/friends", label: "My Friends", count: counts.friends },
    { to: "/friends/requests", label: "Requests", count: counts.requests },
    { to: "/friends/find", label: "Find Friends" },
  ];
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">Friends</h1>
      <p className="mt-1 text-stone-700">Friends can see each other&apos;s memorials that are shared with friends only.</p>
      <TabBar label="Friends" tabs={tabs} spacing="roomyFromSmall" />
      <div className="mt-8">
        <Outlet />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Friends · Everlight" }];
