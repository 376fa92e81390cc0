import { getEnv, paymentSettings, type Env, type PaymentSettings } from "./env.server";
import type { PaymentProvider } from "./payments/provider.server";
import { stripeProvider } from "./payments/stripe-provider.server";
import { testProvider } from "./payments/test-provider.server";

// Which payments provider this process uses: Stripe when
// STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set, else the built-in test provider. The interface is
// app/services/payments/provider.server.ts; each provider has its own file beside it.

let cached: { env: Env; provider: PaymentProvider } | undefined;

export function createPaymentProvider(settings: PaymentSettings): PaymentProvider {
  return settings.provider === "stripe" ? stripeProvider(settings) : testProvider;
}

/** The process's payment provider, as configured (checked at start-up by env.server.ts). */
export function getPaymentProvider(): PaymentProvider {
  const env = getEnv();
  if (cached?.env !== env) cached = { env, provider: createPaymentProvider(paymentSettings(env)) };
  return cached.provider;
}
