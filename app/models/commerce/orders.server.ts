import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { countryName } from "~/utils/countries";
import { pageWindow } from "~/utils/paging";
import { orderNumber, orderStatusBadge, ORDERS_PER_PAGE } from "~/utils/shop";
import { ADMIN_PAGE_SIZE } from "~/utils/validation/admin";

// Orders as they are read: the member's list,
// the /api's answers and the admin dashboard's Orders tab. An order is made in order-completion.server.ts
// and its status changed in order-status.server.ts.

/** Items that ran out (while an order was being made, or before a cancelled order was put back). */
export class SoldOutError extends Error {
  constructor(readonly names: string[]) {
    super(`Sold out: ${names.join(", ")}`);
  }
}

export type OrderView = ReturnType<typeof toOrderView>;

// A memorial book's frozen content (order_items.book) is read only to print it (memorials/book.server.ts).
const orderInclude = { items: { orderBy: { createdAt: "asc" }, omit: { book: true } } } satisfies Prisma.OrderInclude;
type OrderRow = Prisma.OrderGetPayload<{ include: typeof orderInclude }>;

export function loadOrder(id: string) {
  return prisma().order.findUniqueOrThrow({ where: { id }, include: orderInclude });
}

export function toOrderView(order: OrderRow) {
  const address = (order.shippingAddress ?? {}) as Partial<Record<"address" | "city" | "state" | "zipCode" | "country", string>>;
  return {
    id: order.id,
    number: orderNumber(order.id),
    createdAt: order.createdAt,
    status: order.status,
    badge: orderStatusBadge(order.status),
    isTest: order.isTest,
    paymentId: order.paymentIntentId,
    subtotal: order.subtotalAmount,
    tax: order.taxAmount,
    total: order.totalAmount,
    items: order.items.map((i) => ({
      id: i.id,
      name: i.name,
      quantity: i.quantity,
      unitPrice: i.price,
      lineTotal: i.price * i.quantity,
      productId: i.productId,
      memorialId: i.memorialId,
      // A memorial line is a printed book: its PDF, for the buyer and administrators.
      bookHref: i.productId === null ? `/orders/${order.id}/book/${i.id}` : null,
    })),
    customerName: order.customerName,
    customerEmail: order.customerEmail,
    carrier: order.carrier,
    trackingNumber: order.trackingNumber,
    shippedAt: order.shippedAt,
    shipping: [address.address, address.city, address.state, address.zipCode, address.country ? countryName(address.country) : undefined].filter(
      Boolean,
    ) as string[],
  };
}

/** My Orders: the member's orders, newest first, a page at a time. */
export async function listOrders(userId: string, page = 1) {
  const total = await prisma().order.count({ where: { userId } });
  const pages = Math.max(1, Math.ceil(total / ORDERS_PER_PAGE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const rows = await prisma().order.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (current - 1) * ORDERS_PER_PAGE,
    take: ORDERS_PER_PAGE,
    include: orderInclude,
  });
  return { orders: rows.map(toOrderView), total, page: current, pages };
}

/** GET /api/orders: the member's orders, newest first (at most 100 from `offset`). */
export async function listOrdersForApi(userId: string, { limit = 50, offset = 0 } = {}) {
  const rows = await prisma().order.findMany({
    where: { userId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: offset,
    take: limit,
    include: orderInclude,
  });
  return rows.map(toApiOrder);
}

/** An order with its items, as the /api answers it. */
export function toApiOrder(order: OrderRow) {
  return {
    id: order.id,
    userId: order.userId,
    totalAmount: order.totalAmount,
    subtotalAmount: order.subtotalAmount,
    taxAmount: order.taxAmount,
    currency: order.currency,
    status: order.status,
    paymentIntentId: order.paymentIntentId,
    isTest: order.isTest,
    shippingAddress: order.shippingAddress,
    customerEmail: order.customerEmail,
    customerName: order.customerName,
    customerPhone: order.customerPhone,
    carrier: order.carrier,
    trackingNumber: order.trackingNumber,
    shippedAt: order.shippedAt,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    items: order.items.map((i) => ({
      id: i.id,
      productId: i.productId,
      memorialId: i.memorialId,
      name: i.name,
      quantity: i.quantity,
      price: i.price,
      createdAt: i.createdAt,
    })),
  };
}

/** One order as the /api answers it. */
export async function apiOrder(orderId: string) {
  return toApiOrder(await loadOrder(orderId));
}

// ───────────────────────────── the admin dashboard's Orders tab ─────────────────────────────

const adminOrderInclude = { ...orderInclude, user: { select: { email: true, firstName: true, lastName: true } } } satisfies Prisma.OrderInclude;

/** Every order with its customer, items, total, test marker and status, newest first. */
export async function listOrdersForAdmin({ search = "", status = null, page = 1 }: { search?: string; status?: string | null; page?: number }) {
  const where: Prisma.OrderWhereInput = {
    ...(status ? { status } : {}),
    ...(search
      ? {
          OR: [
            { customerEmail: { contains: search, mode: "insensitive" } },
            { customerName: { contains: search, mode: "insensitive" } },
            { paymentIntentId: search },
            // The short order number people read out (orderNumber): the id's first characters.
            ...(/^[0-9a-f]{4,8}$/i.test(search) ? [{ id: { startsWith: search.toLowerCase() } }] : []),
          ],
        }
      : {}),
  };
  const total = await prisma().order.count({ where });
  const w = pageWindow(total, page, ADMIN_PAGE_SIZE);
  const rows = await prisma().order.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: w.skip,
    take: w.take,
    include: adminOrderInclude,
  });
  return {
    items: rows.map((o) => ({
      ...toOrderView(o),
      refunded: !!o.refundId,
      refundedAt: o.refundedAt?.toISOString() ?? null,
      account: o.user ? o.user.email : null,
    })),
    total,
    page: w.page,
    pages: w.pages,
  };
}

/** GET /api/admin/orders: every order with its user and items, bounded. */
export async function listOrdersForAdminApi({ limit = 50, offset = 0 } = {}) {
  const rows = await prisma().order.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: offset, take: limit, include: adminOrderInclude });
  return rows.map((o) => ({ ...toApiOrder(o), refundId: o.refundId, refundedAt: o.refundedAt, user: o.user }));
}
