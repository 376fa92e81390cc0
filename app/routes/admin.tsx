import { NavLink, Outlet } from "react-router";
import type { Route } from "./+types/admin";
import { requireAdminActor } from "~/request/admin.server";
import { ADMIN_TABS } from "~/utils/validation/admin";

// The admin dashboard (commerce-and-accounts.md §2 "Admin dashboard", §6 "Admin"; issue 19): nine tabs,
// each its own address so it works without JavaScript and can be bookmarked, and the audit log beside
// them. A visitor is sent to sign in; a member who is not an administrator gets the spec's Access Denied
// (403, the error boundary). This check covers this loader only: every tab's loader and action checks
// for itself (app/request/admin.server.ts).

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireAdminActor(request);
  return { email: actor.email };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const tabClass = ({ isActive }: { isActive: boolean }) =>
    `inline-block rounded-t-md border-b-2 px-3 py-2 text-sm font-medium ${
      isActive ? "border-indigo-700 text-indigo-800" : "border-transparent text-slate-700 hover:border-slate-400 hover:text-slate-900"
    }`;
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-3xl font-bold text-slate-900">Admin dashboard</h1>
        <p className="text-sm text-slate-700">Signed in as {loaderData.email}</p>
      </div>
      <nav aria-label="Admin dashboard" className="mt-6 border-b border-slate-200">
        <ul className="-mb-px flex flex-wrap gap-x-1">
          {ADMIN_TABS.map((tab) => (
            <li key={tab.to}>
              <NavLink to={tab.to} end={tab.to === "/admin"} prefetch="intent" className={tabClass}>
                {tab.label}
              </NavLink>
            </li>
          ))}
          <li className="ml-auto">
            <NavLink to="/admin/audit" className={tabClass}>
              Audit log
            </NavLink>
          </li>
        </ul>
      </nav>
      <div className="mt-8">
        <Outlet />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Admin dashboard · Everlight" }];
