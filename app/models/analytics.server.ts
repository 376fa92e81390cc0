import { prisma } from "~/services/db.server";
import { ENDOWMENT_PERCENT } from "~/utils/plans";
import { ANALYTICS_DAYS } from "~/utils/validation/admin";

export { ANALYTICS_DAYS };

// The Analytics tab (commerce-and-accounts.md §2 leaves it open; issue 19 §7, README): the last 30 days,
// per day (UTC): new members, new memorials, tributes received and how many of those are approved by now,
// orders placed and their revenue (cancelled orders left out), plan purchases (a plan's first payment
// made) and the endowment fund's growth (15% of every plan payment made that day). One SQL statement:
// generate_series makes the 30 days, and each table is read once over its createdAt index for the range,
// grouped by day, so it stays fast at 100,000 memorials and 1,000,000 tributes (bench/admin-analytics).


export type DayFigures = {
  day: string;
  members: number;
  memorials: number;
  tributes: number;
  tributesApproved: number;
  orders: number;
  revenue: number;
  planPurchases: number;
  endowment: number;
};

type Row = { day: string; members: number; memorials: number; tributes: number; tributes_approved: number; orders: number; revenue: number | bigint; plan_purchases: number; plan_paid: number | bigint };

/** The figures of the `days` days ending with `today` (UTC), oldest first, with the totals over them. */
export async function dailyFigures(today = new Date(), days = ANALYTICS_DAYS) {
  const last = today.toISOString().slice(0, 10);
  const rows = await prisma().$queryRaw<Row[]>`
    WITH days AS (
      SELECT generate_series(${last}::date - ${days - 1}::int, ${last}::date, interval '1 day')::date AS day
    ),
    bounds AS (SELECT min(day)::timestamp AS start, (max(day) + 1)::timestamp AS stop FROM days),
    members AS (
      SELECT "createdAt"::date AS day, count(*) AS n FROM users, bounds
      WHERE "createdAt" >= bounds.start AND "createdAt" < bounds.stop GROUP BY 1
    ),
    memorials AS (
      SELECT "createdAt"::date AS day, count(*) AS n FROM memorials, bounds
      WHERE "createdAt" >= bounds.start AND "createdAt" < bounds.stop GROUP BY 1
    ),
    tributes AS (
      SELECT "createdAt"::date AS day, count(*) AS n, count(*) FILTER (WHERE "isApproved") AS approved FROM tributes, bounds
      WHERE "createdAt" >= bounds.start AND "createdAt" < bounds.stop GROUP BY 1
    ),
    orders AS (
      SELECT "createdAt"::date AS day, count(*) AS n, coalesce(sum("totalAmount"), 0) AS revenue FROM orders, bounds
      WHERE "createdAt" >= bounds.start AND "createdAt" < bounds.stop AND status <> 'cancelled' GROUP BY 1
    ),
    plan_paid AS (
      SELECT "paidAt"::date AS day, count(*) FILTER (WHERE number = 1) AS purchases, coalesce(sum(amount), 0) AS paid FROM plan_payments, bounds
      WHERE status = 'succeeded' AND "paidAt" >= bounds.start AND "paidAt" < bounds.stop GROUP BY 1
    )
    SELECT to_char(days.day, 'YYYY-MM-DD') AS day,
      coalesce(members.n, 0)::int AS members,
      coalesce(memorials.n, 0)::int AS memorials,
      coalesce(tributes.n, 0)::int AS tributes,
      coalesce(tributes.approved, 0)::int AS tributes_approved,
      coalesce(orders.n, 0)::int AS orders,
      coalesce(orders.revenue, 0)::bigint AS revenue,
      coalesce(plan_paid.purchases, 0)::int AS plan_purchases,
      coalesce(plan_paid.paid, 0)::bigint AS plan_paid
    FROM days
    LEFT JOIN members ON members.day = days.day
    LEFT JOIN memorials ON memorials.day = days.day
    LEFT JOIN tributes ON tributes.day = days.day
    LEFT JOIN orders ON orders.day = days.day
    LEFT JOIN plan_paid ON plan_paid.day = days.day
    ORDER BY days.day`;
  const figures: DayFigures[] = rows.map((r) => ({
    day: r.day,
    members: Number(r.members),
    memorials: Number(r.memorials),
    tributes: Number(r.tributes),
    tributesApproved: Number(r.tributes_approved),
    orders: Number(r.orders),
    revenue: Number(r.revenue),
    planPurchases: Number(r.plan_purchases),
    endowment: Math.floor((Number(r.plan_paid) * ENDOWMENT_PERCENT) / 100),
  }));
  const sum = (key: Exclude<keyof DayFigures, "day">) => figures.reduce((total, d) => total + d[key], 0);
  return {
    days: figures,
    totals: {
      members: sum("members"),
      memorials: sum("memorials"),
      tributes: sum("tributes"),
      tributesApproved: sum("tributesApproved"),
      orders: sum("orders"),
      revenue: sum("revenue"),
      planPurchases: sum("planPurchases"),
      endowment: sum("endowment"),
    },
  };
}
