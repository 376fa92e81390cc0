import { parseForm } from "~/request/form.server";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/basket";
import { FormAlert } from "~/components/forms";
import { ProductImage } from "~/components/shop/product-image";
import { clearCart, getBasket, removeCartItem, setCartQuantity, stepCartQuantity, type BasketLine } from "~/models/commerce/cart.server";
import { requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { formatPence } from "~/utils/money";
import { SHOP_MESSAGES, TAX_LABEL } from "~/utils/shop";
import { basketFormSchema } from "~/utils/validation/shop";
import type { KeptPageHandle } from "~/utils/kept-pages";

// The basket: product and memorial items with −
// and + and a quantity field (never below 1, never above the stock: + is disabled there), remove, clear,
// and the subtotal, tax and total, all computed on the server. Every control is a form, so it works
// without JavaScript; a refused quantity comes back next to its field with what was typed.

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { basket: await getBasket(user) };
}

type QuantityError = { itemId: string; quantity: string; message: string };

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const formData = await request.formData();
  const submission = parseForm(formData, { schema: basketFormSchema });
  if (submission.status !== "success") {
    const itemId = String(formData.get("itemId") ?? "");
    if (formData.get("intent") === "set" && itemId) {
      const message = submission.error?.quantity?.[0] ?? SHOP_MESSAGES.quantityMin;
      return data(
        { quantityError: { itemId, quantity: String(formData.get("quantity") ?? "").slice(0, 20), message } satisfies QuantityError },
        { status: 400 },
      );
    }
    return redirectWithToast("/basket", { type: "error", title: SHOP_MESSAGES.updateFailed });
  }
  const input = submission.value;
  switch (input.intent) {
    case "clear": {
      await clearCart(user);
      return redirectWithToast("/basket", { type: "success", title: SHOP_MESSAGES.cleared, description: "Your basket is empty." });
    }
    case "remove": {
      const result = await removeCartItem(user, input.itemId);
      const toast = result.ok
        ? { type: "success" as const, title: SHOP_MESSAGES.removed, description: "The item was removed from your basket." }
        : { type: "error" as const, title: SHOP_MESSAGES.removeFailed, description: result.message };
      return redirectWithToast("/basket", toast);
    }
    case "set": {
      const result = await setCartQuantity(user, input.itemId, input.quantity);
      if (!result.ok) {
        if (result.reason === "not-found")
          return redirectWithToast("/basket", { type: "error", title: SHOP_MESSAGES.updateFailed, description: result.message });
        return data(
          { quantityError: { itemId: input.itemId, quantity: String(input.quantity), message: result.message } satisfies QuantityError },
          { status: 400 },
        );
      }
      return redirectWithToast(`/basket#item-${input.itemId}`, { type: "success", title: SHOP_MESSAGES.updated, description: `Quantity: ${result.quantity}.` });
    }
    case "increment":
    case "decrement": {
      const result = await stepCartQuantity(user, input.itemId, input.intent === "increment" ? 1 : -1);
      const toast = result.ok
        ? { type: "success" as const, title: SHOP_MESSAGES.updated, description: `Quantity: ${result.quantity}.` }
        : { type: "error" as const, title: /stock/i.test(result.message) ? SHOP_MESSAGES.stockTitle : SHOP_MESSAGES.updateFailed, description: result.message };
      return redirectWithToast(`/basket#item-${input.itemId}`, toast);
    }
  }
}

export default function BasketPage({ loaderData, actionData }: Route.ComponentProps) {
  const { basket } = loaderData;
  const quantityError = actionData && "quantityError" in actionData ? actionData.quantityError : null;
  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">Your Basket</h1>
      {basket.lines.length === 0 ? (
        <div className="mt-6 rounded-lg border border-stone-200 bg-white p-6">
          <p className="text-stone-800">{SHOP_MESSAGES.basketEmpty}</p>
          <Link to="/products" className="btn-primary mt-4">
            Browse products
          </Link>
        </div>
      ) : (
        <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_20rem]">
          <section aria-labelledby="basket-items-heading">
            <h2 id="basket-items-heading" className="sr-only">
              Items
            </h2>
            <ul className="divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white">
              {basket.lines.map((line) => (
                <BasketItem key={line.id} line={line} error={quantityError?.itemId === line.id ? quantityError : null} />
              ))}
            </ul>
            <details className="mt-4">
              <summary className="btn-ghost cursor-pointer list-none text-red-800 [&::-webkit-details-marker]:hidden">Clear basket</summary>
              <Form method="post" className="mt-2 rounded-md border border-red-200 bg-red-50 p-3">
                <p className="text-sm text-red-900">Remove every item from your basket?</p>
                <button type="submit" name="intent" value="clear" className="btn mt-2 bg-red-700 text-white hover:bg-red-800">
                  Yes, clear my basket
                </button>
              </Form>
            </details>
          </section>
          <aside aria-labelledby="basket-total-heading" className="h-fit rounded-lg border border-stone-200 bg-white p-4 sm:p-6">
            <h2 id="basket-total-heading" className="text-lg font-semibold text-stone-900">
              Order total
            </h2>
            <dl className="mt-4 space-y-1 text-stone-800">
              <div className="flex justify-between gap-4">
                <dt>
                  Subtotal ({basket.count} item{basket.count === 1 ? "" : "s"})
                </dt>
                <dd data-testid="basket-subtotal">{formatPence(basket.subtotal)}</dd>
              </div>
              <div className="flex justify-between gap-4">
                <dt>{TAX_LABEL}</dt>
                <dd data-testid="basket-tax">{formatPence(basket.tax)}</dd>
              </div>
              <div className="flex justify-between gap-4 border-t border-stone-200 pt-2 text-lg font-semibold text-stone-900">
                <dt>Total</dt>
                <dd data-testid="basket-total">{formatPence(basket.total)}</dd>
              </div>
            </dl>
            {basket.hasProblems ? (
              <div className="mt-4">
                <FormAlert title="Some items need your attention">Change or remove the items marked above to check out.</FormAlert>
              </div>
            ) : (
              <Link to="/checkout" className="btn-primary mt-6 w-full">
                Proceed to checkout
              </Link>
            )}
            <Link to="/products" className="btn-secondary mt-3 w-full">
              Continue shopping
            </Link>
          </aside>
        </div>
      )}
    </div>
  );
}

function BasketItem({ line, error }: { line: BasketLine; error: QuantityError | null }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("itemId") === line.id;
  const fieldId = `quantity-${line.id}`;
  const errorId = `${fieldId}-error`;
  const problemId = `item-${line.id}-problem`;
  const atMost = line.quantity >= line.maxQuantity;
  return (
    <li id={`item-${line.id}`} className="p-4" aria-labelledby={`item-${line.id}-name`}>
      <div className="flex gap-4">
        <ProductImage
          src={line.image.src}
          srcSet={line.image.srcSet}
          sizes="96px"
          alt=""
          width={96}
          height={96}
          className="h-20 w-20 shrink-0 rounded-md bg-stone-100 sm:h-24 sm:w-24"
        />
        <div className="min-w-0 flex-1">
          <h3 id={`item-${line.id}-name`} className="font-semibold text-stone-900 wrap-anywhere">
            {line.name}
          </h3>
          <p className="text-sm text-stone-700">{line.detail}</p>
          <p className="mt-1 text-sm text-stone-800">
            {formatPence(line.unitPrice)} each · <span className="font-semibold">{formatPence(line.lineTotal)}</span>
          </p>
          {line.problem ? (
            <p id={problemId} className="mt-1 text-sm font-medium text-red-800">
              {line.problem}
            </p>
          ) : line.kind === "product" && line.maxQuantity <= 5 ? (
            <p className="mt-1 text-sm text-amber-800">Only {line.maxQuantity} in stock</p>
          ) : null}
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <StepButton line={line} step="decrement" disabled={line.quantity <= 1 || busy} />
        <Form method="post" preventScrollReset noValidate className="flex items-end gap-2">
          <input type="hidden" name="intent" value="set" />
          <input type="hidden" name="itemId" value={line.id} />
          <div>
            <label htmlFor={fieldId} className="block text-sm font-medium text-stone-800">
              Quantity
            </label>
            <input
              // A new value from the server (after − or +) replaces what the field shows.
              key={`${line.quantity}-${error?.quantity ?? ""}`}
              id={fieldId}
              name="quantity"
              type="number"
              inputMode="numeric"
              min={1}
              max={line.maxQuantity || undefined}
              defaultValue={error ? error.quantity : line.quantity}
              aria-invalid={error ? true : undefined}
              aria-describedby={[error ? errorId : null, line.problem ? problemId : null].filter(Boolean).join(" ") || undefined}
              className={`mt-1 block h-10 w-20 rounded-md border px-2 text-stone-900 ${error ? "border-red-600" : "border-stone-400"}`}
            />
          </div>
          <button type="submit" className="btn-secondary h-10" disabled={busy}>
            Update
          </button>
        </Form>
        <StepButton line={line} step="increment" disabled={atMost || busy} />
        <Form method="post" className="ml-auto">
          <input type="hidden" name="itemId" value={line.id} />
          <button type="submit" name="intent" value="remove" className="btn-ghost h-10 text-red-800" disabled={busy}>
            Remove<span className="sr-only"> {line.name}</span>
          </button>
        </Form>
      </div>
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700" role="alert">
          {error.message}
        </p>
      ) : null}
    </li>
  );
}

/** − or +: one less or one more of a line, a form of its own so that it works without JavaScript. */
function StepButton({ line, step, disabled }: { line: BasketLine; step: "decrement" | "increment"; disabled: boolean }) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="itemId" value={line.id} />
      <button
        type="submit"
        name="intent"
        value={step}
        className="btn-secondary h-10 w-10 px-0 text-lg"
        disabled={disabled}
        aria-label={`${step === "decrement" ? "Decrease" : "Increase"} quantity of ${line.name}`}
      >
        {step === "decrement" ? "−" : "+"}
      </button>
    </Form>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Your Basket · Everlight" }];
