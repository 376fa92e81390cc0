import { orderStatusBadge, TEST_ORDER_LABEL } from "~/utils/shop";

// Order badges: completed, pending, processing and cancelled
// have their own colours; any other status is shown as destructive. A test order says so wherever it is shown.

const TONES = {
  success: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  warning: "bg-amber-100 text-amber-900 ring-amber-300",
  info: "bg-sky-100 text-sky-900 ring-sky-300",
  muted: "bg-stone-100 text-stone-800 ring-stone-300",
  destructive: "bg-red-100 text-red-900 ring-red-300",
} as const;

const BADGE = "inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-semibold ring-1 ring-inset";

export function OrderStatusBadge({ status }: { status: string }) {
  const badge = orderStatusBadge(status);
  return (
    <span className={`${BADGE} ${TONES[badge.tone]}`} data-tone={badge.tone}>
      <span className="sr-only">Status: </span>
      {badge.label}
    </span>
  );
}

export function TestOrderBadge() {
  return (
    <span className={`${BADGE} bg-violet-100 text-violet-900 ring-violet-300`} title="Paid with the built-in test provider: no card was charged">
      {TEST_ORDER_LABEL}
    </span>
  );
}
