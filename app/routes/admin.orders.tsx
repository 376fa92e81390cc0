import { parseForm } from "~/request/form.server";
import { data, Form, Link, useNavigation } from "react-router";
import { z } from "~/utils/validation/zod";
import type { Route } from "./+types/admin.orders";
import { AdminSection, Card, ConfirmAction, formatDateTime, SearchForm, Tag } from "~/components/admin/admin-ui";
import { PagedList } from "~/components/admin/paged-list";
import { OrderStatusBadge, TestOrderBadge } from "~/components/shop/badges";
import { Field } from "~/components/forms";
import { changeOrderStatus, shipOrder } from "~/models/commerce/order-status.server";
import { listOrdersForAdmin } from "~/models/commerce/orders.server";
import { backWithToast, listQuery, requireAdminActor } from "~/request/admin.server";
import { formatPence } from "~/utils/money";
import { ORDER_STATUS_BADGES } from "~/utils/shop";
import { ORDER_STATUSES, orderStatusSchema, recordIdSchema, SHIP_LIMITS, shipOrderSchema } from "~/utils/validation/admin";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Orders tab: every
// order with its customer, items, total, test marker and status, filtered by status and searched. The
// status changes between pending, processing and completed with a select; cancelling is its own button
// behind a confirmation, because cancelling a paid order refunds it (once), puts its items back in stock
// (once) and emails the customer. Mark as shipped takes the carrier and tracking number, shown to the buyer
// in My Orders and emailed; a mistake there comes back beside its field with what was typed.

const actionSchema = z.object({ intent: z.literal("status"), orderId: recordIdSchema, status: orderStatusSchema.exclude(["shipped"]) });
const shipSchema = z.object({ intent: z.literal("ship"), orderId: recordIdSchema }).and(shipOrderSchema);

type ShipFailure = {
  orderId: string;
  values: { carrier: string; trackingNumber: string };
  errors: Partial<Record<"carrier" | "trackingNumber" | "form", string[]>>;
};

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminActor(request);
  const query = listQuery(request);
  const status = query.status && (ORDER_STATUSES as readonly string[]).includes(query.status) ? query.status : null;
  return { ...(await listOrdersForAdmin({ ...query, status })), search: query.search, status };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await requireAdminActor(request);
  const form = await request.formData();
  if (form.get("intent") === "ship") return shipAction(request, actor, form);
  const submission = parseForm(form, { schema: actionSchema });
  if (submission.status !== "success")
    return backWithToast(request, { type: "error", title: "Error", description: "Failed to update status. Please try again." });
  const result = await changeOrderStatus(actor, submission.value.orderId, submission.value.status);
  if (!result.ok) return backWithToast(request, { type: "error", title: "Failed to update status", description: result.message });
  const description = result.refunded
    ? `Order ${result.number} is cancelled and its payment refunded; the customer has been emailed.`
    : `Order ${result.number} is now ${result.status}.`;
  return backWithToast(request, { type: "success", title: "Status updated", description });
}

async function shipAction(request: Request, actor: Awaited<ReturnType<typeof requireAdminActor>>, form: FormData) {
  const typed = (name: string) => String(form.get(name) ?? "").slice(0, 500);
  const values = { carrier: typed("carrier"), trackingNumber: typed("trackingNumber") };
  const orderId = String(form.get("orderId") ?? "");
  const submission = parseForm(form, { schema: shipSchema });
  if (submission.status !== "success") {
    // An order id the page never sends means there is no form to show the mistakes beside.
    if (submission.error?.orderId) return backWithToast(request, { type: "error", title: "Error", description: "Failed to update status. Please try again." });
    const errors: ShipFailure["errors"] = {};
    if (submission.error?.carrier) errors.carrier = submission.error.carrier;
    if (submission.error?.trackingNumber) errors.trackingNumber = submission.error.trackingNumber;
    return data({ ship: { orderId, values, errors } satisfies ShipFailure }, { status: 400 });
  }
  const { carrier, trackingNumber } = submission.value;
  const result = await shipOrder(actor, submission.value.orderId, { carrier, trackingNumber });
  if (!result.ok && result.reason === "not-found")
    return backWithToast(request, { type: "error", title: "Failed to update status", description: result.message });
  if (!result.ok) return data({ ship: { orderId, values, errors: { form: [result.message] } } satisfies ShipFailure }, { status: 409 });
  const description = result.unchanged
    ? `Order ${result.number} was already shipped with these details.`
    : `Order ${result.number} is marked shipped; the customer has been emailed the tracking number.`;
  return backWithToast(request, { type: "success", title: "Order shipped", description });
}

export default function AdminOrders({ loaderData, actionData }: Route.ComponentProps) {
  const { items, total, page, pages, search, status } = loaderData;
  const shipFailure = actionData && "ship" in actionData ? actionData.ship : null;
  const navigation = useNavigation();
  const busyId = navigation.state === "submitting" ? navigation.formData?.get("orderId") : null;
  return (
    <AdminSection id="orders-heading" title="Orders">
      <div className="mt-4">
        <SearchForm label="Search orders by customer, email, order number or payment id" search={search} hidden={{ status }} />
      </div>
      <nav aria-label="Order status" className="mt-3 flex flex-wrap gap-2 text-sm">
        <Link
          to={search ? `?q=${encodeURIComponent(search)}` : "/admin/orders"}
          className={status ? "link" : "font-semibold text-stone-900"}
          aria-current={status ? undefined : "page"}
        >
          All
        </Link>
        {ORDER_STATUSES.map((s) => (
          <Link
            key={s}
            to={`?${new URLSearchParams({ ...(search ? { q: search } : {}), status: s })}`}
            className={status === s ? "font-semibold text-stone-900" : "link"}
            aria-current={status === s ? "page" : undefined}
          >
            {ORDER_STATUS_BADGES[s].label}
          </Link>
        ))}
      </nav>
      <PagedList
        items={items}
        empty="No orders found."
        summary={{ total, noun: ["order", "orders"], search }}
        page={page}
        pages={pages}
        base="/admin/orders"
        query={{ q: search, status }}
      >
        {(o) => (
          <Card label={`Order ${o.number}`}>
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-48 flex-1">
                <h3 className="flex flex-wrap items-center gap-2 font-semibold text-stone-900">
                  Order {o.number} <OrderStatusBadge status={o.status} /> {o.isTest ? <TestOrderBadge /> : null}{" "}
                  {o.refunded ? <Tag tone="danger">Refunded</Tag> : null}
                </h3>
                <p className="text-sm text-stone-700 wrap-anywhere">
                  {o.customerName} · {o.customerEmail}
                  {o.account && o.account !== o.customerEmail ? ` (account ${o.account})` : o.account ? "" : " (account deleted)"} ·{" "}
                  {formatDateTime(o.createdAt.toISOString())}
                </p>
                <ul className="mt-2 text-sm text-stone-800">
                  {o.items.map((i) => (
                    <li key={i.id}>
                      {i.quantity} × {i.name} — {formatPence(i.lineTotal)}
                      {i.bookHref ? (
                        <>
                          {" "}
                          <a href={`${i.bookHref}?download`} className="link">
                            Download the book to print (PDF)
                          </a>
                        </>
                      ) : null}
                    </li>
                  ))}
                </ul>
                <p className="mt-1 text-sm font-semibold text-stone-900">Total {formatPence(o.total)}</p>
                {o.refundedAt ? <p className="text-sm text-stone-700">Refunded {formatDateTime(o.refundedAt)}</p> : null}
                {o.carrier && o.trackingNumber ? (
                  <p className="text-sm text-stone-700 wrap-anywhere">
                    Shipped{o.shippedAt ? ` ${formatDateTime(o.shippedAt.toISOString())}` : ""} with {o.carrier}, tracking {o.trackingNumber}
                  </p>
                ) : null}
              </div>
              {o.refunded ? null : (
                <div className="flex flex-wrap items-end gap-2">
                  <Form method="post" className="flex flex-wrap items-end gap-2">
                    <input type="hidden" name="intent" value="status" />
                    <input type="hidden" name="orderId" value={o.id} />
                    <div>
                      <label htmlFor={`status-${o.id}`} className="block text-sm font-medium text-stone-800">
                        Status
                      </label>
                      <select
                        id={`status-${o.id}`}
                        name="status"
                        defaultValue={o.status}
                        className="mt-1 block rounded-md border border-stone-400 bg-white px-3 py-2 text-stone-900"
                      >
                        {ORDER_STATUSES.filter(
                          (s) => (s !== "cancelled" || !o.paymentId || o.status === "cancelled") && (s !== "shipped" || o.status === "shipped"),
                        ).map((s) => (
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
                      warning={
                        <p>{`Cancel order ${o.number}? Its payment of ${formatPence(o.total)} is refunded in full and ${o.customerEmail ?? "the customer"} is emailed.`}</p>
                      }
                      confirm="Yes, cancel and refund"
                      intent="status"
                      fields={{ orderId: o.id, status: "cancelled" }}
                    />
                  ) : null}
                  {o.status !== "cancelled" ? <ShipForm order={o} failure={shipFailure?.orderId === o.id ? shipFailure : null} busy={busyId === o.id} /> : null}
                </div>
              )}
            </div>
          </Card>
        )}
      </PagedList>
    </AdminSection>
  );
}

/** Mark as shipped: a plain form per order, its carrier and tracking number beside their messages. */
function ShipForm({
  order,
  failure,
  busy,
}: {
  order: { id: string; number: string; status: string; carrier: string | null; trackingNumber: string | null };
  failure: ShipFailure | null;
  busy: boolean;
}) {
  const shipped = order.status === "shipped";
  return (
    <Form method="post" className="w-full space-y-2 rounded-md border border-stone-200 p-3" aria-label={`Shipping of order ${order.number}`}>
      <input type="hidden" name="intent" value="ship" />
      <input type="hidden" name="orderId" value={order.id} />
      {failure?.errors.form ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {failure.errors.form.join(" ")}
        </p>
      ) : null}
      <div className="grid gap-2 sm:grid-cols-2">
        <Field
          label="Carrier"
          errors={failure?.errors.carrier}
          inputProps={{
            id: `carrier-${order.id}`,
            name: "carrier",
            type: "text",
            maxLength: SHIP_LIMITS.carrierMax,
            defaultValue: failure?.values.carrier ?? order.carrier ?? "",
            required: true,
          }}
        />
        <Field
          label="Tracking number"
          errors={failure?.errors.trackingNumber}
          inputProps={{
            id: `tracking-${order.id}`,
            name: "trackingNumber",
            type: "text",
            maxLength: SHIP_LIMITS.trackingMax,
            defaultValue: failure?.values.trackingNumber ?? order.trackingNumber ?? "",
            required: true,
          }}
        />
      </div>
      <button type="submit" className="btn-secondary" disabled={busy}>
        {shipped ? "Update tracking" : "Mark as shipped"}
        <span className="sr-only"> (order {order.number})</span>
      </button>
    </Form>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Orders · Admin · Everlight" }];
