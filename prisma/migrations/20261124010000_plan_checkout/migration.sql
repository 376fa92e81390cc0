-- One plan payment paid one way only (issue 17): the Stripe Checkout session opened for a plan payment is
-- remembered, with the Payment Element's payment (and, monthly, the incomplete subscription) it replaced
-- and cancelled, so that a payment reported later for either is recognised. A second successful payment
-- for a plan payment already granted is refunded once: plan_refunds holds one row per such payment.
ALTER TABLE "plan_payments" ADD COLUMN "checkoutSessionId" TEXT;
ALTER TABLE "plan_payments" ADD COLUMN "replacedPaymentId" TEXT;
CREATE UNIQUE INDEX "plan_payments_checkoutSessionId_key" ON "plan_payments"("checkoutSessionId");
CREATE UNIQUE INDEX "plan_payments_replacedPaymentId_key" ON "plan_payments"("replacedPaymentId");
ALTER TABLE "plan_purchases" ADD COLUMN "replacedSubscriptionId" TEXT;
CREATE UNIQUE INDEX "plan_purchases_replacedSubscriptionId_key" ON "plan_purchases"("replacedSubscriptionId");

CREATE TABLE "plan_refunds" (
    "id" TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "planPaymentId" TEXT NOT NULL,
    "paymentId" TEXT NOT NULL,
    "subscriptionId" TEXT,
    "amount" INTEGER NOT NULL,
    "status" VARCHAR(20) NOT NULL DEFAULT 'refunding',
    "refundId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "plan_refunds_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "plan_refunds_status_check" CHECK ("status" IN ('refunding', 'refunded'))
);
ALTER TABLE "plan_refunds" ADD CONSTRAINT "plan_refunds_planPaymentId_fkey" FOREIGN KEY ("planPaymentId") REFERENCES "plan_payments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE UNIQUE INDEX "plan_refunds_paymentId_key" ON "plan_refunds"("paymentId");
CREATE INDEX "plan_refunds_status_idx" ON "plan_refunds"("status");
-- A plan payment's refunds are found by it, and deleting a purchase cascades through it.
CREATE INDEX "plan_refunds_planPaymentId_idx" ON "plan_refunds"("planPaymentId");
