import { data } from "react-router";
import type { Route } from "./+types/order-confirmation";
import { ButtonLinks } from "~/components/button-links";
import { OrderSummary } from "~/components/shop/order-summary";
import { TestOrderBadge } from "~/components/shop/badges";
import { completePayment } from "~/models/commerce/order-completion.server";
import { requireUser } from "~/request/auth.server";
import { formatLongDate } from "~/utils/dates";
import { SHOP_MESSAGES, WHATS_NEXT } from "~/utils/shop";

// Order confirmation. Stripe
// sends the buyer here with ?payment_intent=… (the Payment Element) or ?session_id=… (Stripe Checkout, the
// page without JavaScript); the test provider's Pay button does too. Opening it asks the provider whether
// the payment succeeded and makes the order if the webhook has not already (completePayment: once, however
// often this page is opened). Someone else's payment or session id finds nothing: "Invalid Order".

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const paymentId = url.searchParams.get("payment_intent")?.trim();
  const sessionId = url.searchParams.get("session_id")?.trim();
  if (!paymentId && !sessionId) return data({ state: "invalid" as const }, { status: 400 });
  const result = await completePayment(paymentId ? { paymentId } : { sessionId: sessionId! }, { userId: user.id });
  if (result.ok) return { state: "placed" as const, order: result.order };
  switch (result.reason) {
    case "not-found":
      return data({ state: "invalid" as const }, { status: 404 });
    case "unpaid":
      return data({ state: "unpaid" as const, message: result.message, detail: result.providerMessage }, { status: 402 });
    case "processing":
      return { state: "processing" as const, message: result.message, paymentId: result.paymentId };
    case "refunded":
      return data({ state: "refunded" as const, message: result.message, paymentId: result.paymentId }, { status: 409 });
    case "provider":
      return data({ state: "error" as const, message: result.message }, { status: 502 });
  }
}

export default function OrderConfirmationPage({ loaderData }: Route.ComponentProps) {
  return <div className="mx-auto max-w-3xl px-4 py-10">{body(loaderData)}</div>;
}

function body(view: Route.ComponentProps["loaderData"]) {
  switch (view.state) {
    case "invalid":
      return (
        <Panel tone="error" title="Invalid Order" links={[["/", "Return Home"]]}>
          <p>{SHOP_MESSAGES.invalidOrder}</p>
        </Panel>
      );
    case "unpaid":
      return (
        <Panel
          tone="error"
          title="Payment Failed"
          links={[
            ["/checkout", "Back to checkout"],
            ["/basket", "View basket"],
          ]}
        >
          <p>{view.message}</p>
          {view.detail ? <p className="mt-2">{view.detail}</p> : null}
        </Panel>
      );
    case "processing":
      return (
        <Panel
          tone="info"
          title="Payment processing"
          links={[
            ["/orders", "My Orders"],
            ["/", "Return Home"],
          ]}
        >
          <p>{view.message}</p>
          <p className="mt-2 text-sm">Payment ID: {view.paymentId}</p>
        </Panel>
      );
    case "refunded":
      return (
        <Panel
          tone="error"
          title="Payment refunded"
          links={[
            ["/products", "Continue Shopping"],
            ["/basket", "View basket"],
          ]}
        >
          <p>{view.message}</p>
          <p className="mt-2 text-sm">Payment ID: {view.paymentId}</p>
        </Panel>
      );
    case "error":
      return (
        <Panel
          tone="error"
          title="Payment Error"
          links={[
            ["/orders", "My Orders"],
            ["/", "Return Home"],
          ]}
        >
          <p>{view.message} Please reload this page in a moment: you will not be charged twice.</p>
        </Panel>
      );
    case "placed": {
      const { order } = view;
      return (
        <div className="space-y-6">
          <div className="rounded-lg border border-emerald-300 bg-emerald-50 p-6 text-emerald-950">
            <div className="flex flex-wrap items-center gap-3">
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-8 w-8 text-emerald-700" fill="none" stroke="currentColor" strokeWidth="2.5">
                <path d="M20 6 9 17l-5-5" />
              </svg>
              <h1 className="text-3xl font-bold">Order Placed Successfully</h1>
              {order.isTest ? <TestOrderBadge /> : null}
            </div>
            <p className="mt-3">
              Thank you{order.customerName ? `, ${order.customerName}` : ""}. Your order {order.number} of {formatLongDate(order.createdAt)} is confirmed.
              {order.isTest ? " It is a test order: no card was charged and nothing will be sent." : ""}
            </p>
            <p className="mt-2 text-sm wrap-anywhere">
              Payment ID: <span data-testid="payment-id">{order.paymentId}</span>
            </p>
          </div>
          <OrderSummary
            heading={`Order ${order.number}`}
            lines={order.items.map((i) => ({ key: i.id, name: i.name, quantity: i.quantity, lineTotal: i.lineTotal }))}
            subtotal={order.subtotal}
            tax={order.tax}
            total={order.total}
          />
          {order.shipping.length ? (
            <section aria-labelledby="sent-to-heading" className="rounded-lg border border-stone-200 bg-white p-4 sm:p-6">
              <h2 id="sent-to-heading" className="text-lg font-semibold text-stone-900">
                Sending to
              </h2>
              <p className="mt-2 text-stone-800 wrap-anywhere">{order.shipping.join(", ")}</p>
            </section>
          ) : null}
          <section aria-labelledby="next-heading" className="rounded-lg border border-stone-200 bg-white p-4 sm:p-6">
            <h2 id="next-heading" className="text-lg font-semibold text-stone-900">
              What&apos;s Next
            </h2>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-stone-800">
              {WHATS_NEXT.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </section>
          <ButtonLinks
            links={[
              { to: "/products", label: "Continue Shopping" },
              { to: "/orders", label: "View My Orders" },
              { to: "/", label: "Return Home", look: "ghost" },
            ]}
          />
        </div>
      );
    }
  }
}

function Panel({ tone, title, links, children }: { tone: "error" | "info"; title: string; links: [string, string][]; children: React.ReactNode }) {
  return (
    <div className={`rounded-lg border p-6 ${tone === "error" ? "border-red-300 bg-red-50 text-red-950" : "border-sky-300 bg-sky-50 text-sky-950"}`}>
      <h1 className="text-3xl font-bold">{title}</h1>
      <div className="mt-3">{children}</div>
      <ButtonLinks className="mt-6" links={links.map(([to, label]) => ({ to, label }))} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.state === "placed" ? "Order Placed" : "Order confirmation"} · Everlight` }];
