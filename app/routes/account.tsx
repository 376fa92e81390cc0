import { Outlet } from "react-router";
import type { Route } from "./+types/account";
import { TabBar } from "~/components/tab-bar";
import { requireUser } from "~/request/auth.server";

// Account settings: six tabs, each its own URL, so
// they work as plain links without JavaScript and can be bookmarked. Signed-out visitors see
// no "Access Denied" message: like every login-required route we send them to sign in
// (requireUser), and bring them back here afterwards.

const TABS = [
  { to: "/account", label: "Profile" },
  { to: "/account/security", label: "Security" },
  { to: "/account/privacy", label: "Privacy" },
  { to: "/account/notifications", label: "Notifications" },
  { to: "/account/following", label: "Following" },
  { to: "/account/manage", label: "Account" },
] as const;

export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request);
  return null;
}

export default function AccountLayout() {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">Account Settings</h1>
      <p className="mt-1 text-stone-700">Manage your profile, password, privacy and account.</p>
      <TabBar label="Account settings" tabs={TABS} />
      <div className="mt-8">
        <Outlet />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Account Settings · Everlight" }];
