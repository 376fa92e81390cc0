import { Outlet } from "react-router";
import type { Route } from "./+types/admin";
import { TabBar, type Tab } from "~/components/tab-bar";
import { backupStatus } from "~/models/backups/backups.server";
import { requireAdminActor } from "~/request/admin.server";
import { formatLongDate } from "~/utils/dates";
import { describeSize } from "~/utils/vault-rules";
import { ADMIN_TABS } from "~/utils/validation/admin";

// The admin dashboard: nine tabs,
// each its own address so it works without JavaScript and can be bookmarked, and the audit log beside
// them. A visitor is sent to sign in; a member who is not an administrator gets Access Denied
// (403, the error boundary). This check covers this loader only: every tab's loader and action checks
// for itself (app/request/admin.server.ts).

// Each tab but Memorials stays current on the pages below it (a product's page is under Products).
const TABS: Tab[] = ADMIN_TABS.map((tab) => ({ ...tab, end: tab.to === "/admin", prefetch: "intent" }));
const AUDIT_TAB: Tab = { to: "/admin/audit", label: "Audit log", end: false };

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireAdminActor(request);
  return { email: actor.email, backup: backupLine(await backupStatus()) };
}

/** When a moment was, for the backup line: "November 28, 2026 at 07:22 UTC". */
const when = (at: Date) => `${formatLongDate(at)} at ${at.toISOString().slice(11, 16)} UTC`;

/** The site's backups in one sentence, and whether it calls for attention (a failure, or none good for 36 hours). */
function backupLine({ schedule, where, last, lastSuccess, stale }: Awaited<ReturnType<typeof backupStatus>>): { text: string; alert: boolean } {
  const good = lastSuccess
    ? `Last backup ${when(lastSuccess.finishedAt)}${lastSuccess.sizeBytes === null ? "" : `, ${describeSize(lastSuccess.sizeBytes)}`}, ${lastSuccess.verified ? "verified" : "not verified"}.`
    : "No backup has been made yet.";
  const failed = last?.status === "failed" ? ` The latest, tried ${when(last.startedAt)}, failed: ${last.error ?? "no reason was recorded"}.` : "";
  const plan = schedule === "off" ? " Automatic backups are off (BACKUP_SCHEDULE)." : ` Automatic backups: ${schedule}, kept in ${where}.`;
  return { text: good + failed + plan, alert: stale || !!failed };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-3xl font-bold text-stone-900">Admin dashboard</h1>
        <p className="text-sm text-stone-700">Signed in as {loaderData.email}</p>
      </div>
      <p
        role={loaderData.backup.alert ? "alert" : undefined}
        className={`mt-2 text-sm ${loaderData.backup.alert ? "font-medium text-red-800" : "text-stone-700"}`}
      >
        {loaderData.backup.text}
      </p>
      <TabBar label="Admin dashboard" tabs={TABS} trailingTab={AUDIT_TAB} spacing="compact" />
      <div className="mt-8">
        <Outlet />
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Admin dashboard · Everlight" }];
