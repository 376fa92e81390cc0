import { Link } from "react-router";
import type { Route } from "./+types/endowment";
import { EndowmentPolicyPoints } from "~/components/endowment-policy";
import { endowmentReport } from "~/models/commerce/plan-subscription.server";
import { formatPence } from "~/utils/money";
import { ENDOWMENT_PERCENT } from "~/utils/plans";
import { SUPPORT_EMAIL } from "~/utils/site";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Complete as plain HTML: its scripts wait for the visitor's first use (app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle & KeptPageHandle = { hydrateOnUse: true, kept: { visitors: "endowment", members: "any" } };

// The endowment fund in public: the annual public report the Forever policy promises,
// computed from the plan payments as they are recorded (per calendar year and in total, net of what was
// given back), with the policy and the succession plan. Public, and kept rendered like the other public
// pages: its version moves with every plan payment and refund (server/page-cache.ts).

export async function loader() {
  return endowmentReport();
}

const COLUMNS = ["Year", "Payments", "Taken", "Given back", "To the fund"];

export default function EndowmentPage({ loaderData }: Route.ComponentProps) {
  const { years, pence, payments, takenPence, givenBackPence } = loaderData;
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">The Endowment Fund</h1>
      <p className="mt-2 text-stone-700">
        Families choose Everlight so that a memorial outlasts them. {ENDOWMENT_PERCENT}% of every Forever and Forever Plus payment is set aside in a ring-fenced
        fund that keeps memorials online whatever happens to us. This is the fund&apos;s public report.
      </p>

      <section aria-labelledby="fund-today" className="mt-8 rounded-lg border border-heather-200 bg-heather-50 p-5">
        <h2 id="fund-today" className="text-xl font-semibold text-stone-900">
          The fund today
        </h2>
        <p className="mt-2 text-3xl font-bold text-heather-900">{formatPence(pence)}</p>
        <p className="mt-1 text-stone-800">
          {ENDOWMENT_PERCENT}% of {formatPence(takenPence - givenBackPence)} kept from {payments} Forever and Forever Plus{" "}
          {payments === 1 ? "payment" : "payments"}
          {givenBackPence > 0 ? ` (after ${formatPence(givenBackPence)} given back)` : ""}.
        </p>
      </section>

      <section aria-labelledby="fund-years" className="mt-8">
        <h2 id="fund-years" className="text-xl font-semibold text-stone-900">
          Year by year
        </h2>
        {years.length === 0 ? (
          <p className="mt-2 text-stone-700">No plan has been paid for yet, so the fund is empty. Each payment will show here as it is made.</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[20rem] border-collapse text-left text-sm">
              <caption className="sr-only">The endowment fund by calendar year: payments, amounts taken and given back, and the fund&apos;s share</caption>
              <thead>
                <tr className="border-b border-stone-300 text-stone-700">
                  {COLUMNS.map((column, i) => (
                    <th key={column} scope="col" className={i < COLUMNS.length - 1 ? "py-2 pr-3 font-semibold" : "py-2 font-semibold"}>
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {years.map((year) => (
                  <tr key={year.year} className="border-b border-stone-200 text-stone-900">
                    <th scope="row" className="py-2 pr-3 font-semibold">
                      {year.year}
                    </th>
                    <td className="py-2 pr-3">{year.payments}</td>
                    <td className="py-2 pr-3">{formatPence(year.takenPence)}</td>
                    <td className="py-2 pr-3">{formatPence(year.givenBackPence)}</td>
                    <td className="py-2 font-semibold">{formatPence(year.fundPence)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="mt-3 text-sm text-stone-700">
          Computed from the payments themselves as they are recorded, by the calendar year in which each was paid (UTC). A payment refunded in full is not
          counted; the part of a payment given back because it was more than the plan cost by then is taken off in the year it was given back. The current
          year&apos;s row grows until the year ends.
        </p>
      </section>

      <section aria-labelledby="fund-policy" className="mt-8">
        <h2 id="fund-policy" className="text-xl font-semibold text-stone-900">
          The policy
        </h2>
        <p className="mt-1 text-sm text-stone-600">Last updated January 2025. Applies to all Forever Plan customers.</p>
        <EndowmentPolicyPoints />
      </section>

      <section aria-labelledby="fund-succession" className="mt-8">
        <h2 id="fund-succession" className="text-xl font-semibold text-stone-900">
          If Everlight closes
        </h2>
        <p className="mt-2 text-stone-800">
          The succession plan hands every memorial, with its photos, videos and approved tributes, to a nonprofit archive, so that the people remembered here
          are not lost with the company. The fund pays for that hand-over and for keeping the memorials online afterwards; its capital is never spent on
          anything else.
        </p>
        <p className="mt-2 text-stone-800">
          Questions about the fund? Write to{" "}
          <a href={`mailto:${SUPPORT_EMAIL}`} className="link">
            {SUPPORT_EMAIL}
          </a>
          , or read{" "}
          <Link to="/help#plans" className="link">
            about the plans
          </Link>
          .
        </p>
      </section>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "The Endowment Fund · Everlight" },
  {
    name: "description",
    content: `${ENDOWMENT_PERCENT}% of every Forever plan payment keeps memorials online for good: the fund's public report, year by year.`,
  },
];
