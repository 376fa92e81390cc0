import { formatPence } from "~/utils/money";
import { TAX_LABEL } from "~/utils/shop";
import { ProductImage } from "./product-image";

// The order summary (item thumbnails, quantity, line price,
// subtotal, tax and total), from amounts the server computed: the basket before paying, the checkout's
// own record while paying, the order after.

export type SummaryLine = { key: string; name: string; quantity: number; lineTotal: number; image?: { src: string | null; srcSet?: string } | null };

export function OrderSummary({
  lines,
  subtotal,
  tax,
  total,
  heading = "Order summary",
  headingLevel = 2,
}: {
  lines: SummaryLine[];
  subtotal: number;
  tax: number;
  total: number;
  heading?: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby="order-summary-heading" className="rounded-lg border border-stone-200 bg-white p-4 sm:p-6">
      <Heading id="order-summary-heading" className="text-lg font-semibold text-stone-900">
        {heading}
      </Heading>
      <ul className="mt-4 divide-y divide-stone-200">
        {lines.map((line) => (
          <li key={line.key} className="flex items-center gap-3 py-3">
            {line.image !== undefined ? (
              <ProductImage
                src={line.image?.src}
                srcSet={line.image?.srcSet}
                sizes="48px"
                alt=""
                width={48}
                height={48}
                className="h-12 w-12 shrink-0 rounded-md bg-stone-100"
              />
            ) : null}
            <div className="min-w-0 flex-1">
              <p className="font-medium text-stone-900 wrap-anywhere">{line.name}</p>
              <p className="text-sm text-stone-700">Quantity: {line.quantity}</p>
            </div>
            <p className="shrink-0 font-medium text-stone-900">{formatPence(line.lineTotal)}</p>
          </li>
        ))}
      </ul>
      <dl className="mt-4 space-y-1 border-t border-stone-200 pt-4 text-stone-800">
        <div className="flex justify-between gap-4">
          <dt>Subtotal</dt>
          <dd>{formatPence(subtotal)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt>{TAX_LABEL}</dt>
          <dd>{formatPence(tax)}</dd>
        </div>
        <div className="flex justify-between gap-4 border-t border-stone-200 pt-2 text-lg font-semibold text-stone-900">
          <dt>Total</dt>
          <dd data-testid="order-total">{formatPence(total)}</dd>
        </div>
      </dl>
    </section>
  );
}
