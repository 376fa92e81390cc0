import { data, Link } from "react-router";
import type { Route } from "./+types/orders";
import { ButtonLinks } from "~/components/button-links";
import { Pager } from "~/components/pager";
import { OrderStatusBadge, TestOrderBadge } from "~/components/shop/badges";
import { listOrders } from "~/models/commerce/orders.server";
import { requireUser } from "~/request/auth.server";
import { formatLongDate } from "~/utils/dates";
import { formatPence } from "~/utils/money";
import { PAGE_NUMBER_MESSAGE, parsePageNumber } from "~/utils/paging";
import type { KeptPageHandle } from "~/utils/kept-pages";

// My Orders: the member's orders, newest first,
// a page at a time, each with its status badge (a paid order reads Paid; processing, shipped with its carrier
// and tracking number, completed, cancelled; any other value destructive) and, for test payments, a Test order badge. Links to the account, the shop and memorials.

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const page = parsePageNumber(new URL(request.url).searchParams.get("page"));
  if (page === null) throw data({ message: PAGE_NUMBER_MESSAGE }, { status: 400 });
  return listOrders(user.id, page);
}

export default function OrdersPage({ loaderData }: Route.ComponentProps) {
  const { orders, page, pages, total } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10">
      <Link to="/account" className="link text-sm">
        ← Back to My Account
      </Link>
      <h1 className="mt-2 text-3xl font-bold text-stone-900">My Orders</h1>
      {total === 0 ? (
        <div className="mt-6 rounded-lg border border-stone-200 bg-white p-6">
          <p className="text-stone-800">You have not placed any orders yet.</p>
          <ButtonLinks
            className="mt-4"
            links={[
              { to: "/products", label: "Browse products" },
              { to: "/memorials", label: "Explore memorials" },
            ]}
          />
        </div>
      ) : (
        <>
          <p className="mt-1 text-stone-700">
            {total} order{total === 1 ? "" : "s"}, newest first.
          </p>
          <ol className="mt-6 space-y-4">
            {orders.map((order) => (
              <li key={order.id}>
                <article aria-labelledby={`order-${order.id}`} className="rounded-lg border border-stone-200 bg-white p-4 sm:p-6" data-testid="order">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h2 id={`order-${order.id}`} className="text-lg font-semibold text-stone-900">
                      Order {order.number}
                    </h2>
                    <div className="flex flex-wrap gap-2">
                      <OrderStatusBadge status={order.status} />
                      {order.isTest ? <TestOrderBadge /> : null}
                    </div>
                  </div>
                  <p className="text-sm text-stone-700">Placed on {formatLongDate(order.createdAt)}</p>
                  {order.status === "shipped" && order.carrier && order.trackingNumber ? (
                    <p
                      className="mt-2 rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-950 wrap-anywhere"
                      data-testid="shipment"
                    >
                      Shipped{order.shippedAt ? ` on ${formatLongDate(order.shippedAt)}` : ""} with {order.carrier}. Tracking number:{" "}
                      <span className="font-semibold">{order.trackingNumber}</span>
                    </p>
                  ) : null}
                  <ul className="mt-3 space-y-1 text-stone-800">
                    {order.items.map((item) => (
                      <li key={item.id}>
                        <p className="flex justify-between gap-4">
                          <span className="wrap-anywhere">
                            {item.quantity} × {item.name}
                          </span>
                          <span className="shrink-0">{formatPence(item.lineTotal)}</span>
                        </p>
                        {item.bookHref ? (
                          <a href={item.bookHref} className="link text-sm">
                            Preview the book (PDF)
                          </a>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                  <p className="mt-3 flex justify-between gap-4 border-t border-stone-200 pt-3 font-semibold text-stone-900">
                    <span>Total (tax included)</span>
                    <span>{formatPence(order.total)}</span>
                  </p>
                  <p className="mt-1 text-sm text-stone-700 wrap-anywhere">Payment ID: {order.paymentId}</p>
                </article>
              </li>
            ))}
          </ol>
          <Pager page={page} pages={pages} href={(n) => (n === 1 ? "/orders" : `/orders?page=${n}`)} previous="Newer orders" next="Older orders" />
        </>
      )}
      <p className="mt-8 flex flex-wrap gap-4 text-sm">
        <Link to="/products" className="link">
          Products
        </Link>
        <Link to="/memorials" className="link">
          Memorials
        </Link>
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "My Orders · Everlight" }];
