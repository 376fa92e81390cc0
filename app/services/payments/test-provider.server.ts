import { randomBytes } from "node:crypto";
import { Prisma } from "~/generated/prisma/client";
import { prisma } from "../db.server";
import { executeSql, sqlCommand } from "../sql-statements.server";
import { PaymentProviderError, WebhookRejectedError, type PaymentProvider, type ProviderPayment } from "./provider.server";

// The built-in test provider, used when Stripe is not configured, so that `npm start` has a
// working shop: its payments live in the `test_payments` table, are paid by pressing a clearly labelled
// button, and move no money.

type TestRow = { id: string; amount: number; currency: string; status: string; metadata?: unknown };

function fromTestRow(row: TestRow): ProviderPayment {
  return {
    id: row.id,
    status: row.status === "succeeded" ? "succeeded" : row.status === "canceled" ? "canceled" : "unpaid",
    amount: row.amount,
    currency: row.currency,
    live: false,
    // Nothing secret: paying a test payment needs the buyer's own session (app/models/commerce/order-completion.server.ts).
    clientSecret: `${row.id}_secret_test`,
    failureMessage: null,
    metadata: row.metadata && typeof row.metadata === "object" ? (row.metadata as Record<string, string>) : {},
  };
}

/** A test payment's id: recognisably not Stripe's. */
export const TEST_PAYMENT_PREFIX = "testpay_";

// One refund per payment (in full, or the part asked), in one statement, so a repeated refund changes nothing.
const refundTestPayment = sqlCommand({
  name: "testPayments.refund",
  sql: (paymentId: string, amount: number | null) =>
    Prisma.sql`UPDATE "test_payments" SET "amountRefunded" = LEAST("amount", COALESCE(${amount}::int, "amount")), "updatedAt" = now() WHERE "id" = ${paymentId} AND "status" = 'succeeded'`,
  examples: [["testpay_1", 500]],
});

export const testProvider: PaymentProvider = {
  name: "test",
  isTest: true,
  publishableKey: null,

  async createPayment(input) {
    // Made once per idempotency key even when two requests race (INSERT … ON CONFLICT DO NOTHING, then
    // read): an upsert here let the second of two concurrent creates fail on the unique key.
    await prisma().testPayment.createMany({
      data: [
        {
          id: `${TEST_PAYMENT_PREFIX}${randomBytes(12).toString("hex")}`,
          idempotencyKey: input.idempotencyKey,
          amount: input.amount,
          currency: input.currency,
          metadata: input.metadata,
        },
      ],
      skipDuplicates: true,
    });
    const row = await prisma().testPayment.findUniqueOrThrow({ where: { idempotencyKey: input.idempotencyKey } });
    return fromTestRow(row);
  },

  async getPayment(id) {
    if (!id.startsWith(TEST_PAYMENT_PREFIX)) return null;
    const row = await prisma().testPayment.findUnique({ where: { id } });
    return row ? fromTestRow(row) : null;
  },

  async createHostedCheckout() {
    // The test provider's own step works without JavaScript; nothing hosted elsewhere is needed.
    throw new PaymentProviderError("The test provider has no hosted payment page");
  },

  async getHostedCheckout() {
    return null;
  },

  async refund(paymentId, { amount }) {
    const refunded = await executeSql(prisma(), refundTestPayment(paymentId, amount ?? null));
    if (!refunded) throw new PaymentProviderError("No such succeeded test payment to refund");
    return { id: `testrefund_${paymentId.slice(TEST_PAYMENT_PREFIX.length)}` };
  },

  verifyWebhook() {
    throw new WebhookRejectedError("Stripe webhooks are not configured (the built-in test provider takes payments)");
  },

  async payTestPayment(id) {
    if (!id.startsWith(TEST_PAYMENT_PREFIX)) return null;
    await prisma().testPayment.updateMany({ where: { id, status: "requires_payment_method" }, data: { status: "succeeded" } });
    const row = await prisma().testPayment.findUnique({ where: { id } });
    return row ? fromTestRow(row) : null;
  },
};
