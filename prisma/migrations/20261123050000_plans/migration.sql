-- Permanence plans paid for real (issue 17 §1–6). A purchase is one member's choice of a plan and a way
-- to pay (full or monthly); its payments are the instalments, one row each (a full payment is one). A
-- payment's provider id is unique, so no payment grants two plans; purchases and payments outlive an
-- account (set to null), as orders do: they are accounting records, and the endowment fund is summed from
-- them.
CREATE TABLE "plan_purchases" (
    "id" TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "userId" TEXT,
    "planId" VARCHAR(50) NOT NULL,
    "paymentType" VARCHAR(20) NOT NULL,
    "provider" VARCHAR(20) NOT NULL,
    "status" VARCHAR(20) NOT NULL DEFAULT 'awaiting_payment',
    "instalmentCount" INTEGER NOT NULL,
    "instalmentsPaid" INTEGER NOT NULL DEFAULT 0,
    "nextDueAt" TIMESTAMP(3),
    "retryAt" TIMESTAMP(3),
    "testCard" VARCHAR(20),
    "stripeSubscriptionId" TEXT,
    "cancelledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "plan_purchases_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "plan_purchases_plan_check" CHECK ("planId" IN ('forever', 'forever_plus')),
    CONSTRAINT "plan_purchases_type_check" CHECK ("paymentType" IN ('full', 'monthly')),
    CONSTRAINT "plan_purchases_status_check" CHECK ("status" IN ('awaiting_payment', 'active', 'completed', 'cancelled', 'lapsed', 'replaced', 'abandoned')),
    CONSTRAINT "plan_purchases_paid_check" CHECK ("instalmentsPaid" BETWEEN 0 AND "instalmentCount")
);
ALTER TABLE "plan_purchases" ADD CONSTRAINT "plan_purchases_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "plan_purchases_userId_createdAt_idx" ON "plan_purchases"("userId", "createdAt");
-- The instalment worker's question: which monthly purchases are due now.
CREATE INDEX "plan_purchases_status_nextDueAt_idx" ON "plan_purchases"("status", "nextDueAt");
CREATE UNIQUE INDEX "plan_purchases_stripeSubscriptionId_key" ON "plan_purchases"("stripeSubscriptionId");

CREATE TABLE "plan_payments" (
    "id" TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "purchaseId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" VARCHAR(3) NOT NULL DEFAULT 'gbp',
    "paymentId" TEXT,
    "status" VARCHAR(20) NOT NULL DEFAULT 'pending',
    "dueAt" TIMESTAMP(3) NOT NULL,
    "paidAt" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "plan_payments_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "plan_payments_amount_check" CHECK ("amount" > 0),
    CONSTRAINT "plan_payments_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed'))
);
ALTER TABLE "plan_payments" ADD CONSTRAINT "plan_payments_purchaseId_fkey" FOREIGN KEY ("purchaseId") REFERENCES "plan_purchases"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE UNIQUE INDEX "plan_payments_purchaseId_number_key" ON "plan_payments"("purchaseId", "number");
CREATE UNIQUE INDEX "plan_payments_paymentId_key" ON "plan_payments"("paymentId");
-- The endowment fund's figure: the sum of succeeded payments.
CREATE INDEX "plan_payments_status_idx" ON "plan_payments"("status");
