-- The shop (issue 16): payments and orders created exactly once.
--
-- A checkout is what a buyer is about to pay for, written before the payment provider is asked for
-- anything: the basket as it was (names and prices at that moment), the shipping details and the amount
-- computed on the server. The order is made from it once the provider says the payment succeeded,
-- whichever of the confirmation page and the webhook gets there first: a checkout moves from open to
-- completed once (a conditional update), each payment id belongs to one checkout and one order (unique),
-- and a checkout whose items sold out meanwhile is refunded, never left charged without an order.

-- CreateTable
CREATE TABLE "checkouts" (
    "id" TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    -- Kept (set to null) when the member is deleted: a payment may still need its refund.
    "userId" TEXT,
    "provider" TEXT NOT NULL,
    -- The provider's payment id (a PaymentIntent's pi_…, or the test provider's); set when the payment is
    -- created, or for a Stripe Checkout Session when it is paid.
    "paymentId" TEXT,
    -- A Stripe Checkout Session (the path without JavaScript).
    "sessionId" TEXT,
    "currency" TEXT NOT NULL DEFAULT 'gbp',
    "subtotalAmount" INTEGER NOT NULL,
    "taxAmount" INTEGER NOT NULL,
    "totalAmount" INTEGER NOT NULL,
    -- [{ productId | memorialId, name, imageUrl, quantity, unitPrice }]: what is being paid for.
    "items" JSONB NOT NULL,
    -- The shipping form as sent (commerce-and-accounts.md §3 "Shipping data").
    "shipping" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "orderId" TEXT,
    "refundId" TEXT,
    -- Why the payment was refunded instead of becoming an order, and which items had sold out.
    "refundReason" TEXT,
    "soldOutItems" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "checkouts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "checkouts_provider_check" CHECK ("provider" IN ('stripe', 'test')),
    CONSTRAINT "checkouts_status_check" CHECK ("status" IN ('open', 'completed', 'refunding', 'refunded')),
    CONSTRAINT "checkouts_refundReason_check" CHECK ("refundReason" IN ('sold-out', 'amount-mismatch')),
    CONSTRAINT "checkouts_amounts_check" CHECK ("subtotalAmount" > 0 AND "taxAmount" >= 0 AND "totalAmount" = "subtotalAmount" + "taxAmount")
);

CREATE UNIQUE INDEX "checkouts_paymentId_key" ON "checkouts"("paymentId");
CREATE UNIQUE INDEX "checkouts_sessionId_key" ON "checkouts"("sessionId");
CREATE UNIQUE INDEX "checkouts_orderId_key" ON "checkouts"("orderId");
CREATE INDEX "checkouts_userId_createdAt_idx" ON "checkouts"("userId", "createdAt");
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "orders"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Orders: which provider took the payment, whether it was a test (no money moved), and the amounts as
-- charged, so that every screen and email shows what was paid rather than recomputing it.
ALTER TABLE "orders" ADD COLUMN "paymentProvider" TEXT;
ALTER TABLE "orders" ADD COLUMN "isTest" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "orders" ADD COLUMN "currency" TEXT NOT NULL DEFAULT 'gbp';
ALTER TABLE "orders" ADD COLUMN "subtotalAmount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "orders" ADD COLUMN "taxAmount" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "orders" ADD CONSTRAINT "orders_totalAmount_check" CHECK ("totalAmount" >= 0);
-- My Orders: the member's newest first (orders_userId_createdAt_idx serves it).

-- Order items keep the name they were bought under: a product may be renamed or deleted later.
ALTER TABLE "order_items" ADD COLUMN "name" TEXT NOT NULL DEFAULT '';
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_quantity_check" CHECK ("quantity" >= 1);
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_price_check" CHECK ("price" >= 0);

-- The built-in test provider's payments (app/services/payments.server.ts): no card, no money; they live
-- here so that every app instance sees the same ones, as Stripe's live at Stripe.
CREATE TABLE "test_payments" (
    "id" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'requires_payment_method',
    "amountRefunded" INTEGER NOT NULL DEFAULT 0,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "test_payments_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "test_payments_status_check" CHECK ("status" IN ('requires_payment_method', 'succeeded', 'canceled')),
    CONSTRAINT "test_payments_amount_check" CHECK ("amount" > 0 AND "amountRefunded" >= 0 AND "amountRefunded" <= "amount")
);
CREATE UNIQUE INDEX "test_payments_idempotencyKey_key" ON "test_payments"("idempotencyKey");

-- Stripe webhook events already handled: a redelivered event is acknowledged and not handled again.
CREATE TABLE "stripe_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "stripe_events_pkey" PRIMARY KEY ("id")
);

-- Stock never goes below zero (products_stockQuantity_check, from the first migration) and a basket
-- line is one product or one memorial (cart_items_one_target_check); one line per product per member:
CREATE UNIQUE INDEX "cart_items_userId_productId_key" ON "cart_items"("userId", "productId") WHERE "productId" IS NOT NULL;
CREATE UNIQUE INDEX "cart_items_userId_memorialId_key" ON "cart_items"("userId", "memorialId") WHERE "memorialId" IS NOT NULL;
