import { z } from "~/utils/validation/zod";
import { DEFAULT_COUNTRY, isCountryCode } from "../countries";
import { MIN_QUANTITY, SHOP_MESSAGES } from "../shop";
import { text } from "./text";

// The shop's forms and calls: one schema each,
// used by the screens (parsed with Conform, server and browser) and by the /api alike.

/** The shipping form's messages; the lengths and the phone's characters are ours. */
export const SHIPPING_MESSAGES = {
  firstName: "First name is required",
  lastName: "Last name is required",
  email: "Valid email is required",
  phone: "Phone number must be at least 10 digits",
  phoneCharacters: "Please use only digits, spaces and + ( ) - in the phone number",
  address: "Address is required",
  city: "City is required",
  state: "State is required",
  zipCode: "ZIP code must be at least 5 digits",
  country: "Country is required",
  unknownCountry: "Please choose a country from the list",
  tooLong: (max: number) => `Must be at most ${max} characters`,
} as const;

export const SHIPPING_LIMITS = { name: 50, email: 254, phone: 30, address: 200, city: 100, state: 100, zipCode: 12 } as const;

const required = (message: string, max: number) => text({ error: message }).trim().min(1, message).max(max, SHIPPING_MESSAGES.tooLong(max));

// A plain pattern rather than z.email(): the same one the browser's type="email" uses, near enough.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const shippingSchema = z.object({
  firstName: required(SHIPPING_MESSAGES.firstName, SHIPPING_LIMITS.name),
  lastName: required(SHIPPING_MESSAGES.lastName, SHIPPING_LIMITS.name),
  email: text({ error: SHIPPING_MESSAGES.email })
    .trim()
    .toLowerCase()
    .max(SHIPPING_LIMITS.email, SHIPPING_MESSAGES.email)
    .regex(EMAIL, SHIPPING_MESSAGES.email),
  // At least 10 characters, with a message about digits: the digits are what is counted.
  phone: text({ error: SHIPPING_MESSAGES.phone })
    .trim()
    .max(SHIPPING_LIMITS.phone, SHIPPING_MESSAGES.tooLong(SHIPPING_LIMITS.phone))
    .regex(/^[+\d\s().-]*$/, SHIPPING_MESSAGES.phoneCharacters)
    .refine((v) => (v.match(/\d/g) ?? []).length >= 10, SHIPPING_MESSAGES.phone),
  address: required(SHIPPING_MESSAGES.address, SHIPPING_LIMITS.address),
  city: required(SHIPPING_MESSAGES.city, SHIPPING_LIMITS.city),
  state: required(SHIPPING_MESSAGES.state, SHIPPING_LIMITS.state),
  // "At least 5 characters": a UK postcode such as "M1 1AE" has letters and a space, and counts.
  zipCode: text({ error: SHIPPING_MESSAGES.zipCode })
    .trim()
    .toUpperCase()
    .min(5, SHIPPING_MESSAGES.zipCode)
    .max(SHIPPING_LIMITS.zipCode, SHIPPING_MESSAGES.tooLong(SHIPPING_LIMITS.zipCode)),
  country: text({ error: SHIPPING_MESSAGES.country })
    .trim()
    .toUpperCase()
    .min(1, SHIPPING_MESSAGES.country)
    .refine(isCountryCode, SHIPPING_MESSAGES.unknownCountry),
});
export type ShippingDetails = z.output<typeof shippingSchema>;

/** What the shipping form starts with: the member's name and email, and the default country. */
export function shippingDefaults(user: { firstName: string; lastName: string; email: string }): Partial<ShippingDetails> {
  return { firstName: user.firstName, lastName: user.lastName, email: user.email, country: DEFAULT_COUNTRY };
}

// Far above any stock; the real ceiling is the product's stock, checked against the database.
const QUANTITY_MAX = 10_000;
const quantity = z
  .number({ error: SHOP_MESSAGES.quantityMin })
  .int(SHOP_MESSAGES.quantityWhole)
  .min(MIN_QUANTITY, SHOP_MESSAGES.quantityMin)
  .max(QUANTITY_MAX, `Quantity must be at most ${QUANTITY_MAX}`);

const id = (name: string) =>
  text({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(100, `${name} is not valid`);

/**
 * POST /api/cart: a client sends productId, productName, productDescription, productImage,
 * quantity and price. Only the product (or memorial) and the quantity are read: the name, picture and
 * price come from the database, whatever a client says they are.
 */
export const apiAddToCartSchema = z
  .object({
    productId: id("productId").optional(),
    memorialId: id("memorialId").optional(),
    quantity: quantity.default(1),
  })
  .refine((v) => !!v.productId !== !!v.memorialId, { message: "Send either productId or memorialId", path: ["productId"] });

/** PUT /api/cart/{id}: body quantity. */
export const apiUpdateCartSchema = z.object({ quantity });

/** The shop's Add to cart form. */
export const addToCartFormSchema = z.object({ productId: id("Product"), quantity: quantity.default(1) });

/** The basket's forms, told apart by intent. */
export const basketFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("increment"), itemId: id("Item") }),
  z.object({ intent: z.literal("decrement"), itemId: id("Item") }),
  z.object({ intent: z.literal("set"), itemId: id("Item"), quantity }),
  z.object({ intent: z.literal("remove"), itemId: id("Item") }),
  z.object({ intent: z.literal("clear") }),
]);

/**
 * POST /api/create-payment-intent: body amount, shipping and items. The amount and the items are
 * the client's own sums and copy of the basket: both are ignored, and what is charged is the
 * member's basket as the database holds it, priced by the server.
 */
export const apiCreatePaymentSchema = z.object({
  amount: z.unknown().optional(),
  items: z.unknown().optional(),
  shipping: shippingSchema,
});

/** POST /api/orders/create-from-payment: body paymentIntentId (or, ours, a Checkout Session's id). */
export const apiCreateOrderSchema = z
  .object({
    paymentIntentId: id("paymentIntentId").optional(),
    sessionId: id("sessionId").optional(),
  })
  .refine((v) => !!v.paymentIntentId || !!v.sessionId, { message: "paymentIntentId is required", path: ["paymentIntentId"] });

/** A call of our own: paying a test provider's payment through the /api (README "The shop"). */
export const apiTestPaymentSchema = z.object({ paymentIntentId: id("paymentIntentId") });
