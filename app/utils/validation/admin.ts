import { z } from "~/utils/validation/zod";
import { parsePounds } from "~/utils/money";
import { ADMIN_CATEGORIES } from "~/utils/shop";
import { text } from "./text";

// The admin dashboard's rules and words, pure so the screens, the /api and the models share them.

/** The nine tabs, each its own address, in the order shown. */
export const ADMIN_TABS = [
  { to: "/admin", label: "Memorials" },
  { to: "/admin/tributes", label: "Tributes" },
  { to: "/admin/users", label: "Users" },
  { to: "/admin/products", label: "Products" },
  { to: "/admin/orders", label: "Orders" },
  { to: "/admin/news", label: "News" },
  { to: "/admin/feedback", label: "Feedback" },
  { to: "/admin/contact", label: "Contact" },
  { to: "/admin/analytics", label: "Analytics" },
] as const;

/** The Analytics tab covers this many days, today included. */
export const ANALYTICS_DAYS = 30;

/** Rows per page on every admin list (never unbounded). */
export const ADMIN_PAGE_SIZE = 20;
export const ADMIN_SEARCH_MAX = 200;

/** An order's statuses an administrator may set ("shipped" only with a carrier and tracking number). */
export const ORDER_STATUSES = ["pending", "processing", "shipped", "completed", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Contact message statuses; an administrator can set any of them freely. */
export const CONTACT_STATUSES = ["new", "read", "replied", "resolved"] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/** The dashboard's failure messages (each adds "Please try again"), success toasts and product form messages. */
export const ADMIN_MESSAGES = {
  approveFailed: "Failed to approve tribute. Please try again.",
  deleteTributeFailed: "Failed to delete tribute. Please try again.",
  deleteUserFailed: "Failed to delete user. Please try again.",
  privilegesFailed: "Failed to update user privileges. Please try again.",
  statusFailed: "Failed to update status. Please try again.",
  createProductFailed: "Failed to create product. Please try again.",
  updateProductFailed: "Failed to update product. Please try again.",
  deleteProductFailed: "Failed to delete product. Please try again.",
  fetchNewsFailed: "Failed to fetch news. Please try again.",
  price: "Please enter a valid price",
  stock: "Please enter a valid stock quantity",
  required: "Please fill in all required fields",
  category: "Please choose one of the categories",
  lastAdmin: "This is the last administrator: make someone else an administrator before removing these rights.",
  ownRights: "To remove your own administrator rights, tick the box to confirm you will lose access to this dashboard.",
  ownAccount: "You cannot delete your own account from the dashboard. Use Account settings instead.",
  userNotFound: "That user no longer exists.",
  productNotFound: "That product no longer exists.",
  orderNotFound: "That order no longer exists.",
  messageNotFound: "That message no longer exists.",
  memorialNotFound: "That memorial no longer exists.",
  refundFailed: "The payment could not be refunded just now, so the order was not cancelled. Please try again.",
  stockChanged: (stock: number) => `Stock changed to ${stock} while you were editing (an order or another edit). Check the figure and save again.`,
  externalImage:
    "imageUrl must be a path to a picture uploaded here (/media/…), or null: pictures from other sites cannot be shown. Upload the picture in the product form instead.",
  carrier: "Please enter the carrier",
  trackingNumber: "Please enter the tracking number",
  shipCancelled: "A cancelled order cannot be shipped.",
  needsTracking: "To mark an order shipped, give its carrier and tracking number.",
  restocked: (number: string, names: string) => `Order ${number} stays cancelled: its items went back into stock and ${names} is no longer in stock to send.`,
  revokeOwnWarning: "Remove your own administrator rights? You will no longer see this dashboard.",
  deleteUserWarning:
    "Deleting this user hides their account and memorials at once; memorials with a successor pass to them instead. The rest can be restored for 30 days, then go for good.",
  deleteMemorialWarning: "Deleting this memorial hides it at once. It can be restored for 30 days, then goes for good with its photos and tributes.",
  paymentsNotStopped: "The member's monthly plan payments could not be stopped just now, so the account was not deleted. Please try again.",
  restoreFailed: "That was not restored: it has been removed for good, or restored already.",
  restoreWithAccount: "This memorial went with its owner's account: restore the account (Users tab) to bring it back.",
} as const;

const required = (max: number) =>
  text({ error: ADMIN_MESSAGES.required }).trim().min(1, ADMIN_MESSAGES.required).max(max, `Please keep this under ${max} characters`);

export const PRODUCT_LIMITS = { nameMax: 200, descriptionMax: 5000, maxPricePence: 100_000_00, maxStock: 1_000_000 } as const;

const category = z.enum(ADMIN_CATEGORIES, { error: ADMIN_MESSAGES.category });

/** The product form as typed (pounds, a whole number of stock), for the screen: pence come out. */
export const productFormSchema = z.object({
  name: required(PRODUCT_LIMITS.nameMax),
  description: required(PRODUCT_LIMITS.descriptionMax),
  category: z.preprocess((v) => (v === "" ? undefined : v), z.enum(ADMIN_CATEGORIES, { error: ADMIN_MESSAGES.required })),
  price: text({ error: ADMIN_MESSAGES.price }).transform((value, ctx) => {
    const pence = parsePounds(value);
    if (pence === null || pence <= 0 || pence > PRODUCT_LIMITS.maxPricePence) {
      ctx.addIssue({ code: "custom", message: ADMIN_MESSAGES.price });
      return z.NEVER;
    }
    return pence;
  }),
  stockQuantity: text({ error: ADMIN_MESSAGES.stock })
    .trim()
    .regex(/^\d{1,7}$/, ADMIN_MESSAGES.stock)
    .transform(Number)
    .pipe(z.int().min(0, ADMIN_MESSAGES.stock).max(PRODUCT_LIMITS.maxStock, ADMIN_MESSAGES.stock)),
  isActive: z
    .preprocess((v) => v === "on" || v === "true", z.boolean())
    .optional()
    .default(false),
  // Edit product: the stock the form was loaded with. Left as it was, the stock is not
  // touched (sales meanwhile stay sold); changed, it is set only if nothing sold meanwhile.
  stockLoaded: z.preprocess(
    (v) => (v === "" || v === undefined ? undefined : v),
    text()
      .regex(/^\d{1,7}$/)
      .transform(Number)
      .optional(),
  ),
});
/** `expectedStock`: the stock the editor saw; absent, only a stockQuantity equal to the current figure is accepted. */
export type ProductInput = {
  name: string;
  description: string;
  category: string;
  price: number;
  stockQuantity: number;
  isActive: boolean;
  imageUrl?: string | null;
  expectedStock?: number;
};

/** POST/PUT /api/admin/products: price in pence, imageUrl a URL of ours or null. */
export const apiProductSchema = z.object({
  name: required(PRODUCT_LIMITS.nameMax),
  description: required(PRODUCT_LIMITS.descriptionMax),
  category,
  price: z.int({ error: ADMIN_MESSAGES.price }).min(1, ADMIN_MESSAGES.price).max(PRODUCT_LIMITS.maxPricePence, ADMIN_MESSAGES.price),
  stockQuantity: z.int({ error: ADMIN_MESSAGES.stock }).min(0, ADMIN_MESSAGES.stock).max(PRODUCT_LIMITS.maxStock, ADMIN_MESSAGES.stock),
  isActive: z.boolean({ error: "isActive must be true or false" }).optional().default(true),
  // Our own pictures only: the CSP shows no other site's images, so one would never appear.
  imageUrl: text({ error: ADMIN_MESSAGES.externalImage })
    .max(500)
    // Uploaded pictures (/media/…) and the demo's own drawings (/demo/…), so a product read can be sent back.
    .regex(/^\/(media|demo)\/[\w./-]+$/, ADMIN_MESSAGES.externalImage)
    .refine((v) => !v.includes(".."), ADMIN_MESSAGES.externalImage)
    .nullable()
    .optional(),
  /** PUT only: the stock the client last read; with it, a sale meanwhile is never undone. */
  expectedStockQuantity: z.int({ error: ADMIN_MESSAGES.stock }).min(0, ADMIN_MESSAGES.stock).max(PRODUCT_LIMITS.maxStock, ADMIN_MESSAGES.stock).optional(),
});

/** Marking an order shipped: the Orders tab's form and the /api. */
export const SHIP_LIMITS = { carrierMax: 100, trackingMax: 100 } as const;
export const shipOrderSchema = z.object({
  carrier: text({ error: ADMIN_MESSAGES.carrier })
    .trim()
    .min(1, ADMIN_MESSAGES.carrier)
    .max(SHIP_LIMITS.carrierMax, `Please keep this under ${SHIP_LIMITS.carrierMax} characters`),
  trackingNumber: text({ error: ADMIN_MESSAGES.trackingNumber })
    .trim()
    .min(1, ADMIN_MESSAGES.trackingNumber)
    .max(SHIP_LIMITS.trackingMax, `Please keep this under ${SHIP_LIMITS.trackingMax} characters`),
});
export type ShipInput = z.infer<typeof shipOrderSchema>;

/** A record's id as the forms send it: our ids are UUIDs, so anything else (a NUL byte…) is refused before any query. */
export const recordIdSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

export const orderStatusSchema = z.enum(ORDER_STATUSES, { error: `status must be ${ORDER_STATUSES.join(", ")}` });
export const contactStatusSchema = z.enum(CONTACT_STATUSES, { error: `status must be ${CONTACT_STATUSES.join(", ")}` });

/** A search box's text: at most ADMIN_SEARCH_MAX characters, control characters dropped. */
export function cleanSearch(value: string | null | undefined): string {
  return (value ?? "")
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, ADMIN_SEARCH_MAX);
}
