import { prisma } from "~/services/db.server";
import { askProvider } from "~/services/payments/provider.server";
import { queueMail } from "../mail/outbox.server";
import { providerFor, shippingOf, type CheckoutRow } from "./order-checkout.server";

// A checkout paid for but not made into an order (sold out meanwhile, a wrong amount, a second payment of
// one basket) is refunded in full through the provider that took it: once (an idempotent refund keyed by
// the checkout), retried until it goes through, and the buyer told once.

/** Refunds a checkout's payment through its provider (idempotent); left "refunding" to retry if it fails. */
export async function finishRefund(checkout: CheckoutRow): Promise<CheckoutRow> {
  const provider = providerFor(checkout);
  if (!provider || !checkout.paymentId) return checkout;
  const paymentId = checkout.paymentId;
  const refund = await askProvider(
    () => provider.refund(paymentId, { idempotencyKey: `refund-${checkout.id}` }),
    `Refund of checkout ${checkout.id} failed (it is retried on the next confirmation or webhook)`,
  );
  if (refund.ok) {
    // Recorded once, and the buyer told once, by the one update that moves it to refunded.
    await prisma().$transaction(async (tx) => {
      const moved = await tx.checkout.updateMany({ where: { id: checkout.id, status: "refunding" }, data: { status: "refunded", refundId: refund.value.id } });
      const email = shippingOf(checkout).email;
      if (moved.count && email) await queueMail(tx, { to: email, kind: "payment-refunded", data: { checkoutId: checkout.id } });
    });
  }
  return (await prisma().checkout.findUnique({ where: { id: checkout.id } }))!;
}

/** Checkouts whose refund has not gone through yet: retried (the server does so at start and every few minutes). */
export async function retryPendingRefunds(): Promise<number> {
  const pending = await prisma().checkout.findMany({ where: { status: "refunding" }, take: 50 });
  let done = 0;
  for (const checkout of pending) if ((await finishRefund(checkout)).status === "refunded") done++;
  return done;
}
