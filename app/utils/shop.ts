import { formatPence, TAX_PERCENT } from "./money";

// The shop's rules and words, in one place. Pure: the screens, the /api and the models all read them from here.

/** The eight categories an administrator files a product under. */
export const ADMIN_CATEGORIES = ["Frames", "Candles", "Garden", "Books", "Jewelry", "Cards", "Urns", "Textiles"] as const;
export type AdminCategory = (typeof ADMIN_CATEGORIES)[number];

/**
 * The shop's filter offers digital, physical and service, which do not match the admin product
 * categories. This table maps them (README "The shop"): every one of the eight is something posted to
 * the buyer, except Textiles, which are made to order from the family's own clothing (a making service).
 * Nothing Everlight sells is digital yet, so that group holds no category and is offered only once one
 * does (a filter option that always finds nothing helps nobody).
 */
export const SHOP_GROUPS = {
  physical: { label: "Physical", categories: ["Frames", "Candles", "Garden", "Books", "Jewelry", "Cards", "Urns"] },
  service: { label: "Made to order", categories: ["Textiles"] },
  digital: { label: "Digital", categories: [] },
} as const satisfies Record<string, { label: string; categories: readonly AdminCategory[] }>;
export type ShopGroup = keyof typeof SHOP_GROUPS;
export const SHOP_GROUP_IDS = Object.keys(SHOP_GROUPS) as ShopGroup[];

export function isShopGroup(value: unknown): value is ShopGroup {
  return typeof value === "string" && Object.hasOwn(SHOP_GROUPS, value);
}

/** The group a product's admin category falls in (physical for anything unexpected). */
export function groupOf(category: string): ShopGroup {
  return SHOP_GROUP_IDS.find((g) => (SHOP_GROUPS[g].categories as readonly string[]).includes(category)) ?? "physical";
}

/** Description previews are cut at 50 characters. */
export const DESCRIPTION_PREVIEW_CHARS = 50;

/** The first 50 characters, with an ellipsis when there was more (cut at a space when one is near). */
export function previewDescription(text: string, max = DESCRIPTION_PREVIEW_CHARS): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space >= max - 15 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, "")}…`;
}

/** At or below this many left, the shop says "Only N left". */
export const LOW_STOCK = 5;

export type StockState = { kind: "in" | "low" | "out"; label: string };

export function stockState(stock: number): StockState {
  if (stock <= 0) return { kind: "out", label: "Out of stock" };
  if (stock <= LOW_STOCK) return { kind: "low", label: `Only ${stock} left` };
  return { kind: "in", label: "In stock" };
}

/**
 * A memorial as a basket item: a price
 * of £29.99 and a name, "{name} Memorial". We sell it as a printed keepsake book of the
 * memorial's page, posted to the shipping address (README "The shop"); printed to order, so no stock,
 * but at most this many copies at a time.
 */
export const MEMORIAL_ITEM = {
  price: 2999,
  maxQuantity: 10,
  kind: "Printed keepsake book",
} as const;

export function memorialItemName(memorial: { firstName: string; lastName: string }) {
  return `${`${memorial.firstName} ${memorial.lastName}`.trim()} Memorial`;
}

/** The basket's quantity: never below 1 and never above what is in stock. */
export const MIN_QUANTITY = 1;

/** Orders per page on My Orders. */
export const ORDERS_PER_PAGE = 10;

/** Products per page on /products. */
export const PRODUCTS_PER_PAGE = 24;

/** The shop's messages. A message about stock always contains "stock". */
export const SHOP_MESSAGES = {
  loginToAdd: "Please log in to add items to cart",
  added: "Added to cart",
  addFailed: "Failed to add item to cart",
  stockTitle: "Stock Limitation",
  outOfStock: "This item is out of stock.",
  onlyInStock: (stock: number, inBasket: number) =>
    inBasket >= stock
      ? `Only ${stock} in stock: your basket already holds ${stock === 1 ? "it" : "them all"}.`
      : `Only ${stock} in stock and your basket holds ${inBasket}: you can add ${stock - inBasket} more.`,
  quantityAboveStock: (stock: number) => `Only ${stock} in stock. Please choose ${stock === 1 ? "1" : `${stock} or fewer`}.`,
  quantityMin: `Quantity must be at least ${MIN_QUANTITY}`,
  // 2.5 is not "below 1": say what is wrong with it.
  quantityWhole: "Quantity must be a whole number",
  memorialLimit: `You can order up to ${MEMORIAL_ITEM.maxQuantity} copies at a time.`,
  notFound: "That item is no longer in your basket.",
  productGone: "That product is no longer available.",
  updated: "Basket updated",
  updateFailed: "Failed to update cart item",
  removed: "Item removed",
  removeFailed: "Failed to remove item from cart",
  cleared: "Basket cleared",
  clearFailed: "Failed to clear cart",
  basketEmpty: "Your basket is empty.",
  basketChanged: "Some items in your basket are no longer in stock in the quantity you chose. Please check your basket.",
  paymentCreateFailed: "Failed to create payment intent. Please try again.",
  paymentUnexpected: "An unexpected error occurred during payment processing.",
  orderProcessing: "Payment was successful but there was an issue creating your order. Please contact support.",
  invalidOrder: "No payment information found",
  loadTimeout: "Payment form failed to load. Please refresh and try again.",
  unpaid: "Your payment was not completed, so no order was placed and nothing was charged.",
  processing: "Your payment is still being processed. We will email you as soon as it goes through; there is no need to pay again.",
  soldOut: (names: string, amount: string) =>
    `Sorry: ${names} sold out while you were paying, so no order was placed. Your payment of ${amount} has been refunded in full; the refund may take a few days to appear. The item is no longer in stock.`,
  unavailable: "Payments are not available right now. Please try again in a few minutes.",
  // A second payment for a basket already ordered.
  duplicatePayment: (amount: string) =>
    `This basket had already been ordered, so this second payment of ${amount} has been refunded in full and no second order was placed. Your first order stands; see My Orders.`,
  // What one order may come to (Stripe's largest charge in pounds; it also fits the database).
  orderTooLarge: (total: string) =>
    `Your basket comes to ${total}, more than the ${formatPence(MAX_ORDER_PENCE)} one order can take. Please lower a quantity or split it into smaller orders.`,
} as const;

/** The most one order can come to, tax included: Stripe's largest charge (£999,999.99), well inside a 32-bit column. */
export const MAX_ORDER_PENCE = 99_999_999;

/**
 * My Orders: the known statuses and their badges; any other value is shown as destructive. An order
 * exists only once it is paid, so "pending" (the first status) reads "Paid"; "shipped"
 * comes with a carrier and tracking number.
 */
export const ORDER_STATUS_BADGES: Record<string, { label: string; tone: "success" | "warning" | "info" | "muted" }> = {
  pending: { label: "Paid", tone: "warning" },
  processing: { label: "Processing", tone: "info" },
  shipped: { label: "Shipped", tone: "success" },
  completed: { label: "Completed", tone: "success" },
  cancelled: { label: "Cancelled", tone: "muted" },
};

export function orderStatusBadge(status: string): { label: string; tone: "success" | "warning" | "info" | "muted" | "destructive" } {
  return Object.hasOwn(ORDER_STATUS_BADGES, status)
    ? ORDER_STATUS_BADGES[status]
    : { label: status.charAt(0).toUpperCase() + status.slice(1), tone: "destructive" };
}

/** A short reference people can read out on the phone: the first 8 characters of the order's id. */
export function orderNumber(orderId: string) {
  return orderId.replace(/-/g, "").slice(0, 8).toUpperCase();
}

/** Order confirmation's What's Next list (the email is sent at once; shipping is emailed when it ships). */
export const WHATS_NEXT = [
  "A confirmation email is on its way to you now.",
  "Your order will be processed within 1-2 business days.",
  "When your order ships we will email you the carrier and tracking number, also shown in My Orders.",
  "Physical memorial products are carefully packaged.",
] as const;

/** The same list in the confirmation email itself (which is the confirmation: it does not promise one). */
export const WHATS_NEXT_EMAIL = WHATS_NEXT.slice(1);

/** The payment form that has not loaded within this long says so (SHOP_MESSAGES.loadTimeout). */
export const PAYMENT_FORM_TIMEOUT_MS = 10_000;

/** The tax line of a basket, an order and a Stripe Checkout page. */
export const TAX_LABEL = `Tax (${TAX_PERCENT}%)`;

/** The label that marks every order the built-in test provider made (README "The shop"). */
export const TEST_ORDER_LABEL = "Test order";
export const TEST_PAYMENT_TITLE = "Test payment — no card is charged";
