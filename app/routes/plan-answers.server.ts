import type { CompletePlanResult } from "~/models/commerce/plan-completion.server";
import type { ToastInput } from "~/request/toast.server";
import { PLANS, SUBSCRIPTION_MESSAGES } from "~/utils/plans";

// What the member is told when a plan payment has been completed: by the return address, the payment
// screen or Checkout's page. One mapping, so every way back says the same (a payment the plan
// had overtaken was refunded; a part above the price was given back; a second payment was refunded).
export function completionToast(result: CompletePlanResult | null, success: { title: string; text: (planName: string) => string }): ToastInput {
  if (!result) return { type: "error", title: "Upgrade Failed", description: SUBSCRIPTION_MESSAGES.paymentNotFound };
  if (result.ok && result.secondPayment) return { type: "info", title: SUBSCRIPTION_MESSAGES.alreadyPaidTitle, description: result.secondPayment.message };
  if (result.ok && result.excessRefund) return { type: "success", title: SUBSCRIPTION_MESSAGES.upgradedTitle, description: result.excessRefund.message };
  if (result.ok) return { type: "success", title: success.title, description: success.text(PLANS[result.planId].name) };
  if (result.reason === "superseded") return { type: "info", title: SUBSCRIPTION_MESSAGES.overtakenTitle, description: result.message };
  const title = result.reason === "unpaid" ? "Payment Failed" : result.reason === "refunded" ? "Payment refunded" : "Upgrade Failed";
  return { type: "error", title, description: result.message };
}
