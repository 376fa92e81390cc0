-- Money you can trust, the shop's half (issue 24 §4–§8).
-- One basket, one payment, one order: a checkout remembers which basket it pays for ("basketKey": the
-- member, each basket line's id, quantity and price). A second checkout of an unchanged basket reuses the
-- open one; and at most one checkout of a basket can ever be completed (a partial unique index), so a
-- second payment for a basket already ordered fails its claim and is refunded instead of making an order.
ALTER TABLE "checkouts" ADD COLUMN "basketKey" TEXT;
CREATE UNIQUE INDEX "checkouts_basketKey_completed_key" ON "checkouts"("basketKey") WHERE "status" = 'completed';
CREATE INDEX "checkouts_userId_basketKey_idx" ON "checkouts"("userId", "basketKey");

-- Orders are followed to the door: shipped with a carrier and a tracking number. Cancelling puts the items
-- back in stock once: restockedAt is set by the same conditional update that restocks.
ALTER TABLE "orders" ADD COLUMN "carrier" TEXT;
ALTER TABLE "orders" ADD COLUMN "trackingNumber" TEXT;
ALTER TABLE "orders" ADD COLUMN "shippedAt" TIMESTAMP(3);
ALTER TABLE "orders" ADD COLUMN "restockedAt" TIMESTAMP(3);

-- A second payment for a basket already ordered is refunded: a third reason.
ALTER TABLE "checkouts" DROP CONSTRAINT "checkouts_refundReason_check";
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_refundReason_check" CHECK ("refundReason" IN ('sold-out', 'amount-mismatch', 'duplicate'));
