import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe } from "@stripe/stripe-js";
import { useEffect, useState, type FormEvent } from "react";
import { FormAlert } from "~/components/forms";
import { PAYMENT_FORM_TIMEOUT_MS, SHOP_MESSAGES } from "~/utils/shop";

// Checkout step 2 with Stripe and JavaScript: the embedded Payment
// Element for the PaymentIntent the server made; confirming it sends the buyer to Stripe if the bank asks
// (3-D Secure), then to /order-confirmation?payment_intent=…, where the order is made. Loaded only on this
// step (a lazy import), so no other page carries Stripe's code. If the form has not appeared within
// 10 seconds: "Payment form failed to load. Please refresh and try again."

/** `returnPath`: where Stripe sends the buyer after paying (it adds ?payment_intent=…); the shop's confirmation by default. */
export default function StripePayment({
  publishableKey,
  clientSecret,
  payLabel,
  returnPath = "/order-confirmation",
}: {
  publishableKey: string;
  clientSecret: string;
  payLabel: string;
  returnPath?: string;
}) {
  const [stripe] = useState(() => loadStripe(publishableKey));
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (ready) return;
    const timer = setTimeout(() => setFailed(true), PAYMENT_FORM_TIMEOUT_MS);
    stripe.catch(() => setFailed(true));
    return () => clearTimeout(timer);
  }, [ready, stripe]);
  return (
    <div>
      {!ready && !failed ? (
        <p role="status" className="flex items-center gap-2 text-stone-700">
          <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-heather-700 border-t-transparent" />
          Loading the secure payment form...
        </p>
      ) : null}
      {failed && !ready ? <FormAlert title="Payment form load timeout">{SHOP_MESSAGES.loadTimeout}</FormAlert> : null}
      <Elements stripe={stripe} options={{ clientSecret, appearance: { theme: "stripe", variables: { colorPrimary: "#7c355a" } } }}>
        <PayForm payLabel={payLabel} returnPath={returnPath} onReady={() => setReady(true)} onLoadError={() => setFailed(true)} />
      </Elements>
    </div>
  );
}

function PayForm({ payLabel, returnPath, onReady, onLoadError }: { payLabel: string; returnPath: string; onReady: () => void; onLoadError: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) return;
    setSubmitting(true);
    setError(null);
    try {
      const result = await stripe.confirmPayment({ elements, confirmParams: { return_url: new URL(returnPath, window.location.origin).href } });
      // Only reached when the payment failed at once (a declined card…): otherwise the browser has left.
      setError(result.error?.message ?? SHOP_MESSAGES.paymentUnexpected);
    } catch {
      setError(SHOP_MESSAGES.paymentUnexpected);
    } finally {
      setSubmitting(false);
    }
  }
  return (
    <form onSubmit={submit} className="space-y-4">
      <PaymentElement
        onReady={() => {
          setReady(true);
          onReady();
        }}
        onLoadError={onLoadError}
      />
      {error ? <FormAlert title="Payment Failed">{error}</FormAlert> : null}
      <button type="submit" className="btn-primary w-full sm:w-auto" disabled={!stripe || !ready || submitting}>
        {submitting ? "Processing payment..." : payLabel}
      </button>
    </form>
  );
}
