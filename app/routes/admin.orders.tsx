import { Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/admin.orders";
import { AdminPager, Card, ConfirmAction, Empty, formatDateTime, ListSummary, SearchForm, Tag } from "~/components/admin/admin-ui";
import { OrderStatusBadge, TestOrderBadge } from "~/components/shop/badges";
import { changeOrderStatus, listOrdersForAdmin } from "~/models/order.server";
import { backWithToast, listQuery, requireAdminActor } from "~/request/admin.server";
import { formatPence } from "~/utils/money";
import { ORDER_STATUS_BADGES } from "~/utils/shop";
import { ORDER_STATUSES, orderStatusSchema, recordIdSchema } from "~/utils/validation/admin";

// Orders tab (commerce-and-accounts.md §3 "Admin views also carry user and items", §4; issue 19 §5): every
// order with its customer, items, total, test marker and status, filtered by status and searched. The
// status changes between pending, processing and completed with a select; cancelling is its own button
// behind a confirmation, because cancelling a paid order refunds it (once) and emails the customer.

const actionSchema = z.object({ intent: z.literal("status"), orderId: recordIdSchema, status: orderStatusSchema });

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminActor(request);
  const query = listQuery(request);
  const status = query.status && (ORDER_STATUSES as readonly string[]).includes(query.status) ? query.status : null;
  return { ...(await listOrdersForAdmin({ ...query, status })), search: query.search, status };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await requireAdminActor(request);
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return backWithToast(request, { type: "error", title: "Error", description: "Failed to update status. Please try again." });
  const result = await changeOrderStatus(actor, parsed.data.orderId, parsed.data.status);
  if (!result.ok) return backWithToast(request, { type: "error", title: "Failed to update status", description: result.message });
  const description = result.refunded
    ? `Order ${result.number} is cancelled and its payment refunded; the customer has been emailed.`
    : `Order ${result.number} is now ${result.status}.`;
  return backWithToast(request, { type: "success", title: "Status updated", description });
}

export default function AdminOrders({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pages, search, status } = loaderData;
  const navigation = useNavigation();
  const busyId = navigation.state === "submitting" ? navigation.formData?.get("orderId") : null;
  return (
    <section aria-labelledby="orders-heading">
      <h2 id="orders-heading" className="text-xl font-semibold text-slate-900">
        Orders
      </h2>
      <div className="mt-4">
        <SearchForm label="Search orders by customer, email, order number or payment id" search={search} hidden={{ status }} />
      </div>
      <nav aria-label="Order status" className="mt-3 flex flex-wrap gap-2 text-sm">
        <Link to={search ? `?q=${encodeURIComponent(search)}` : "/admin/orders"} className={status ? "link" : "font-semibold text-slate-900"} aria-current={status ? undefined : "page"}>
          All
        </Link>
        {ORDER_STATUSES.map((s) => (
          <Link key={s} to={`?${new URLSearchParams({ ...(search ? { q: search } : {}), status: s })}`} className={status === s ? "font-semibold text-slate-900" : "link"} aria-current={status === s ? "page" : undefined}>
            {ORDER_STATUS_BADGES[s].label}
          </Link>
        ))}
      </nav>
      <ListSummary total={total} noun={["order", "orders"]} search={search} />
      {items.length === 0 ? (
        <Empty>No orders found.</Empty>
      ) : (
        <ul className="mt-4 space-y-3">
          {items.map((o) => (
            <Card key={o.id} label={`Order ${o.number}`}>
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="min-w-48 flex-1">
                  <h3 className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
                    Order {o.number} <OrderStatusBadge status={o.status} /> {o.isTest ? <TestOrderBadge /> : null} {o.refunded ? <Tag tone="danger">Refunded</Tag> : null}
                  </h3>
                  <p className="text-sm text-slate-700 wrap-anywhere">
                    {o.customerName} · {o.customerEmail}
                    {o.account && o.account !== o.customerEmail ? ` (account ${o.account})` : o.account ? "" : " (account deleted)"} · {formatDateTime(o.createdAt.toISOString())}
                  </p>
                  <ul className="mt-2 text-sm text-slate-800">
                    {o.items.map((i) => (
                      <li key={i.id}>
                        {i.quantity} × {i.name} — {formatPence(i.lineTotal)}
                      </li>
                    ))}
                  </ul>
                  <p className="mt-1 text-sm font-semibold text-slate-900">Total {formatPence(o.total)}</p>
                  {o.refundedAt ? <p className="text-sm text-slate-700">Refunded {formatDateTime(o.refundedAt)}</p> : null}
                </div>
                {o.refunded ? null : (
                  <div className="flex flex-wrap items-end gap-2">
                    <Form method="post" className="flex flex-wrap items-end gap-2">
                      <input type="hidden" name="intent" value="status" />
                      <input type="hidden" name="orderId" value={o.id} />
                      <div>
                        <label htmlFor={`status-${o.id}`} className="block text-sm font-medium text-slate-800">
                          Status
                        </label>
                        <select id={`status-${o.id}`} name="status" defaultValue={o.status} className="mt-1 block rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900">
                          {ORDER_STATUSES.filter((s) => s !== "cancelled" || !o.paymentId || o.status === "cancelled").map((s) => (
                            <option key={s} value={s}>
                              {ORDER_STATUS_BADGES[s].label}
                            </option>
                          ))}
                        </select>
                      </div>
                      <button type="submit" className="btn-secondary" disabled={busyId === o.id}>
                        Update status<span className="sr-only"> of order {o.number}</span>
                      </button>
                    </Form>
                    {o.paymentId && o.status !== "cancelled" ? (
                      <ConfirmAction
                        summary="Cancel and refund…"
                        warning={<p>{`Cancel order ${o.number}? Its payment of ${formatPence(o.total)} is refunded in full and ${o.customerEmail ?? "the customer"} is emailed.`}</p>}
                        confirm="Yes, cancel and refund"
                        intent="status"
                        fields={{ orderId: o.id, status: "cancelled" }}
                      />
                    ) : null}
                  </div>
                )}
              </div>
            </Card>
          ))}
        </ul>
      )}
      <AdminPager page={page} pages={pages} base="/admin/orders" query={{ q: search, status }} />
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Orders · Admin · Everlight" }];
