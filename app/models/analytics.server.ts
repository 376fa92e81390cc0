import { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { queryRows, sqlQuery } from "~/services/sql-statements.server";
import { ENDOWMENT_PERCENT } from "~/utils/plans";
import { ANALYTICS_DAYS } from "~/utils/validation/admin";

export { ANALYTICS_DAYS };

// The Analytics tab (README): the last 30 days,
// per day (UTC): new members, new memorials, tributes received and how many of those are approved by now,
// orders placed and their revenue (cancelled orders left out), plan purchases (a plan's first payment
// made) and the endowment fund's growth (15% of every plan payment made that day). One SQL statement:
// each table is read once over its createdAt index for the range and grouped by day, the groups added up
// onto the 30 days of generate_series, so it stays fast at 100,000 memorials and 1,000,000 tributes
// (bench/admin-analytics).

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

/** Each day's figures from `first` to `last` (YYYY-MM-DD, UTC); `next` is the day after `last`. */
const figuresByDay = sqlQuery({
  name: "analytics.figuresByDay",
  columns: {
    day: "text",
    members: "int4",
    memorials: "int4",
    tributes: "int4",
    tributes_approved: "int4",
    orders: "int4",
    revenue: "int8",
    plan_purchases: "int4",
    plan_paid: "int8",
  },
  sql: (first: string, last: string, next: string) => Prisma.sql`
    WITH figures AS (
      SELECT "createdAt"::date AS day, count(*) AS members, 0 AS memorials, 0 AS tributes, 0 AS approved, 0 AS orders, 0 AS revenue, 0 AS purchases, 0 AS paid
      FROM users WHERE "createdAt" >= ${first}::timestamp AND "createdAt" < ${next}::timestamp GROUP BY 1
      UNION ALL
      SELECT "createdAt"::date, 0, count(*), 0, 0, 0, 0, 0, 0
      FROM memorials WHERE "createdAt" >= ${first}::timestamp AND "createdAt" < ${next}::timestamp GROUP BY 1
      UNION ALL
      SELECT "createdAt"::date, 0, 0, count(*), count(*) FILTER (WHERE "isApproved"), 0, 0, 0, 0
      FROM tributes WHERE "createdAt" >= ${first}::timestamp AND "createdAt" < ${next}::timestamp GROUP BY 1
      UNION ALL
      SELECT "createdAt"::date, 0, 0, 0, 0, count(*), coalesce(sum("totalAmount"), 0), 0, 0
      FROM orders WHERE "createdAt" >= ${first}::timestamp AND "createdAt" < ${next}::timestamp AND status <> 'cancelled' GROUP BY 1
      UNION ALL
      SELECT "paidAt"::date, 0, 0, 0, 0, 0, 0, count(*) FILTER (WHERE number = 1), coalesce(sum(amount), 0)
      FROM plan_payments WHERE status = 'succeeded' AND "paidAt" >= ${first}::timestamp AND "paidAt" < ${next}::timestamp GROUP BY 1
    )
    SELECT to_char(days.day, 'YYYY-MM-DD') AS day,
      coalesce(sum(figures.members), 0)::int AS members,
      coalesce(sum(figures.memorials), 0)::int AS memorials,
      coalesce(sum(figures.tributes), 0)::int AS tributes,
      coalesce(sum(figures.approved), 0)::int AS tributes_approved,
      coalesce(sum(figures.orders), 0)::int AS orders,
      coalesce(sum(figures.revenue), 0)::bigint AS revenue,
      coalesce(sum(figures.purchases), 0)::int AS plan_purchases,
      coalesce(sum(figures.paid), 0)::bigint AS plan_paid
    FROM (SELECT generate_series(${first}::date, ${last}::date, interval '1 day')::date AS day) AS days
    LEFT JOIN figures ON figures.day = days.day
    GROUP BY days.day
    ORDER BY days.day`,
  examples: [["2026-01-01", "2026-01-30", "2026-01-31"]],
});

/** The figures of the `days` days ending with `today` (UTC), oldest first, with the totals over them. */
export async function dailyFigures(today = new Date(), days = ANALYTICS_DAYS) {
  const last = today.toISOString().slice(0, 10);
  // The range as constants, so the planner walks each createdAt index for just those days; each table is
  // grouped by day on its own and the groups added up (joined one to another, the planner multiplied their
  // row guesses into the hundreds of millions and spent 1.6 s compiling the statement with JIT).
  const first = new Date(Date.parse(last) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const next = new Date(Date.parse(last) + 86_400_000).toISOString().slice(0, 10);
  const rows = await queryRows(prisma(), figuresByDay(first, last, next));
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
