import { Outlet } from "react-router";
import type { Route } from "./+types/admin";
import { TabBar, type Tab } from "~/components/tab-bar";
import { requireAdminActor } from "~/request/admin.server";
import { ADMIN_TABS } from "~/utils/validation/admin";

// The admin dashboard (commerce-and-accounts.md §2 "Admin dashboard", §6 "Admin"; issue 19): nine tabs,
// each its own address so it works without JavaScript and can be bookmarked, and the audit log beside
// them. A visitor is sent to sign in; a member who is not an administrator gets the spec's Access Denied
// (403, the error boundary). This check covers this loader only: every tab's loader and action checks
// for itself (app/request/admin.server.ts).

// Each tab but Memorials stays current on the pages below it (a product's page is under Products).
const TABS: Tab[] = ADMIN_TABS.map((tab) => ({ ...tab, end: tab.to === "/admin", prefetch: "intent" }));
const AUDIT_TAB: Tab = { to: "/admin/audit", label: "Audit log", end: false };

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireAdminActor(request);
  return { email: actor.email };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-3xl font-bold text-slate-900">Admin dashboard</h1>
        <p className="text-sm text-slate-700">Signed in as {loaderData.email}</p>
      </div>
      <TabBar label="Admin dashboard" tabs={TABS} trailingTab={AUDIT_TAB} spacing="compact" />
      <div className="mt-8">
        <Outlet />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Admin dashboard · Everlight" }];
