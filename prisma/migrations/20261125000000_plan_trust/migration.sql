-- Money you can trust (issue 24): a plan payment is honoured only if it still improves what the member
-- has when it completes; otherwise it grants nothing and is refunded (the purchase and its payment read
-- "refunded"). One open purchase per member, plan and way to pay. A refund records why it was made: a
-- second payment for a plan payment already paid, a payment the member's plan had overtaken, or the part
-- of a payment above what the plan cost the member by then.
ALTER TABLE "plan_purchases" DROP CONSTRAINT "plan_purchases_status_check";
ALTER TABLE "plan_purchases" ADD CONSTRAINT "plan_purchases_status_check"
    CHECK ("status" IN ('awaiting_payment', 'active', 'completed', 'cancelled', 'lapsed', 'replaced', 'abandoned', 'refunded'));
ALTER TABLE "plan_payments" DROP CONSTRAINT "plan_payments_status_check";
ALTER TABLE "plan_payments" ADD CONSTRAINT "plan_payments_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed', 'refunded'));

-- Older duplicates of an open purchase are abandoned (a payment for one of them is still judged when it completes).
UPDATE "plan_purchases" AS p SET "status" = 'abandoned'
WHERE p."status" = 'awaiting_payment' AND EXISTS (
    SELECT 1 FROM "plan_purchases" AS q
    WHERE q."status" = 'awaiting_payment' AND q."userId" = p."userId" AND q."planId" = p."planId" AND q."paymentType" = p."paymentType"
      AND (q."createdAt", q."id") > (p."createdAt", p."id"));
CREATE UNIQUE INDEX "plan_purchases_one_open_key" ON "plan_purchases"("userId", "planId", "paymentType") WHERE "status" = 'awaiting_payment';

ALTER TABLE "plan_refunds" ADD COLUMN "reason" VARCHAR(20) NOT NULL DEFAULT 'second-payment';
ALTER TABLE "plan_refunds" ADD CONSTRAINT "plan_refunds_reason_check" CHECK ("reason" IN ('second-payment', 'superseded', 'excess'));
