import { z } from "~/utils/validation/zod";
import { SUBSCRIPTION_MESSAGES } from "../plans";
import { text } from "./text";

// The subscription calls and forms: one schema each, for
// the screen and the /api alike.

const PAID_PLANS = ["forever", "forever_plus"] as const;

export const planIdSchema = z.enum(["free", ...PAID_PLANS], { error: "planId must be free, forever or forever_plus" });
export const paymentTypeSchema = z.enum(["full", "monthly"], { error: SUBSCRIPTION_MESSAGES.choosePaymentType });
export const testCardSchema = z.enum(["ok", "declines_later"], { error: "testCard must be ok or declines_later" });

/** POST /api/create-subscription-payment: planId and, for plans with options, paymentType (full when left out). */
export const createSubscriptionPaymentSchema = z.object({
  planId: planIdSchema,
  paymentType: paymentTypeSchema.optional(),
  testCard: testCardSchema.optional(),
});

/** POST /api/complete-subscription-upgrade: the provider's payment id; planId and paymentType, when sent, must match it. */
export const completeSubscriptionSchema = z.object({
  paymentIntentId: text({ error: "paymentIntentId is required" }).trim().min(1, "paymentIntentId is required").max(255, "paymentIntentId is not valid"),
  planId: planIdSchema.optional(),
  paymentType: paymentTypeSchema.optional(),
});

/**
 * The plans page's "Continue to Payment" form: a paid plan and a way to pay, in full when none is sent (as
 * POST /api/create-subscription-payment). The test card only steers the built-in test provider, so an
 * unknown one is the card that pays.
 */
export const startPlanFormSchema = z.object({
  planId: planIdSchema.exclude(["free"]),
  paymentType: paymentTypeSchema.default("full"),
  testCard: testCardSchema.catch("ok"),
});

/** The test payment screen's form: the saved test card for the later instalments, asked only for monthly plans. */
export const payTestPlanFormSchema = z.object({ testCard: testCardSchema.optional().catch(undefined) });
