import { AdminSection } from "~/components/admin/admin-ui";
import type { Route } from "./+types/admin.analytics";
import { BarChart } from "~/components/admin/bar-chart";
import { dailyFigures } from "~/models/analytics.server";
import { requireAdminActor } from "~/request/admin.server";
import { formatPence } from "~/utils/money";
import { ANALYTICS_DAYS } from "~/utils/validation/admin";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Analytics tab (the product description leaves its contents to us; the README says what it shows):
// the last 30 days per day, as SVG charts drawn on the server and one table of the same numbers (for
// screen readers, and for anyone who wants the figures), computed by one SQL aggregation
// (analytics.server.ts).

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminActor(request);
  return dailyFigures();
}

export default function AdminAnalytics({ loaderData }: Route.ComponentProps) {
  const { days, totals } = loaderData;
  const dates = days.map((d) => d.day);
  const of = (key: Exclude<keyof (typeof days)[number], "day">) => days.map((d) => d[key]);
  const money = (n: number) => formatPence(n);
  return (
    <AdminSection id="analytics-heading" title="Analytics">
      <p className="mt-1 text-stone-700">
        The last {ANALYTICS_DAYS} days, {dates[0]} to {dates[dates.length - 1]} (UTC). Revenue leaves out cancelled orders; the endowment fund grows by 15% of
        every plan payment.
      </p>
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <BarChart title="New members" days={dates} series={[{ label: "Members", values: of("members"), className: "fill-heather-600" }]} />
        <BarChart title="New memorials" days={dates} series={[{ label: "Memorials", values: of("memorials"), className: "fill-heather-600" }]} />
        <BarChart
          title="Tributes"
          days={dates}
          series={[
            { label: "Received", values: of("tributes"), className: "fill-heather-600" },
            { label: "Approved", values: of("tributesApproved"), className: "fill-emerald-600" },
          ]}
        />
        <BarChart title="Orders" days={dates} series={[{ label: "Orders", values: of("orders"), className: "fill-heather-600" }]} />
        <BarChart title="Revenue" days={dates} format={money} series={[{ label: "Revenue", values: of("revenue"), className: "fill-heather-600" }]} />
        <BarChart title="Plans" days={dates} series={[{ label: "Plan purchases", values: of("planPurchases"), className: "fill-heather-600" }]} />
        <BarChart
          title="Endowment fund growth"
          days={dates}
          format={money}
          series={[{ label: "Added to the fund", values: of("endowment"), className: "fill-heather-600" }]}
        />
      </div>
      <h3 id="analytics-table-heading" className="mt-8 text-lg font-semibold text-stone-900">
        The figures
      </h3>
      {/* A region that scrolls sideways on a phone must be reachable by keyboard (axe: scrollable-region-focusable). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex */}
      <div className="mt-2 overflow-x-auto rounded-lg border border-stone-200" tabIndex={0} role="region" aria-labelledby="analytics-table-heading">
        <table className="min-w-full text-right text-sm tabular-nums" data-testid="analytics-table">
          <caption className="sr-only">Per day, the last {ANALYTICS_DAYS} days</caption>
          <thead className="bg-stone-50 text-stone-900">
            <tr>
              {["Day", "Members", "Memorials", "Tributes", "Approved", "Orders", "Revenue", "Plans", "Endowment"].map((h) => (
                <th key={h} scope="col" className="px-2 py-2 font-semibold first:text-left">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100 text-stone-800">
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row" className="px-2 py-1 text-left font-normal whitespace-nowrap">
                  {d.day}
                </th>
                <td className="px-2 py-1">{d.members}</td>
                <td className="px-2 py-1">{d.memorials}</td>
                <td className="px-2 py-1">{d.tributes}</td>
                <td className="px-2 py-1">{d.tributesApproved}</td>
                <td className="px-2 py-1">{d.orders}</td>
                <td className="px-2 py-1 whitespace-nowrap">{formatPence(d.revenue)}</td>
                <td className="px-2 py-1">{d.planPurchases}</td>
                <td className="px-2 py-1 whitespace-nowrap">{formatPence(d.endowment)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="bg-stone-50 font-semibold text-stone-900">
            <tr>
              <th scope="row" className="px-2 py-2 text-left">
                Total
              </th>
              <td className="px-2 py-2" data-testid="total-members">
                {totals.members}
              </td>
              <td className="px-2 py-2" data-testid="total-memorials">
                {totals.memorials}
              </td>
              <td className="px-2 py-2">{totals.tributes}</td>
              <td className="px-2 py-2">{totals.tributesApproved}</td>
              <td className="px-2 py-2">{totals.orders}</td>
              <td className="px-2 py-2 whitespace-nowrap">{formatPence(totals.revenue)}</td>
              <td className="px-2 py-2">{totals.planPurchases}</td>
              <td className="px-2 py-2 whitespace-nowrap">{formatPence(totals.endowment)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </AdminSection>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Analytics · Admin · Everlight" }];
