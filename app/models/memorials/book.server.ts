import type { Prisma } from "~/generated/prisma/client";
import { prisma } from "~/services/db.server";
import { renderBook, type RenderedBook } from "~/services/book-render.server";
import type { BookContent } from "~/services/memorial-book-pdf.server";
import { keyFromUrl } from "~/services/storage.server";
import { formatTimelineDate } from "~/utils/timeline";
import type { Actor } from "../audit.server";
import { canChangeVisibility } from "./access-rules";
import type { Viewer } from "./access-rules";
import { areFriends, auditCoEdit, isRecordId, memorialRole, roleOnMemorial, byAddressWhere } from "./access.server";
import { TIMELINE_ORDER } from "./timeline.server";
import { imageSources } from "./media.server";

// The printed memorial book and the family's say over what is sold beside their memorial
// (docs/decisions/029-memorial-book.md). The rules live here: who may order the book (the owner,
// co-managers and the owner's friends, while the family offers it), what goes in it (bounded), when it is
// frozen (in the order's transaction: the book is the memorial as it was when it was paid for), and who
// may read it (the buyer and administrators from the order; the owner and co-managers as a preview).
// The layout is app/services/memorial-book-pdf.server.ts.

/** What one book holds at most: a biography runs over as many pages as it needs (it is bounded at 20,000 characters). */
export const BOOK_LIMITS = { photos: 24, tributes: 60, timeline: 200 } as const;

export const BOOK_MESSAGES = {
  off: "The family has chosen not to offer a printed book of this memorial.",
  notFamily: "The printed book of a memorial can be ordered by its family and the owner's friends.",
  switchedOn: "The printed book is offered on this memorial again.",
  switchedOff: "Nothing is offered for sale on this memorial now.",
} as const;

type Tx = Prisma.TransactionClient;

export type BookOrderRule =
  { ok: true; memorial: { id: string; firstName: string; lastName: string } } | { ok: false; reason: "not-found" | "off" | "not-family"; message: string };

/**
 * May this member order the book of this memorial? They must see it, be its owner, a co-manager or a
 * friend of its owner, and the family must not have turned the offer off. Not found and not theirs to see
 * answer the same (it never confirms a private memorial exists).
 */
export async function mayOrderBook(user: NonNullable<Viewer>, memorialId: string): Promise<BookOrderRule> {
  const memorial = isRecordId(memorialId)
    ? await prisma().memorial.findFirst({
        where: { id: memorialId, ...byAddressWhere(user) },
        select: {
          id: true,
          userId: true,
          firstName: true,
          lastName: true,
          shopOffers: true,
          managers: { where: { userId: user.id }, select: { userId: true, role: true } },
        },
      })
    : null;
  if (!memorial) return { ok: false, reason: "not-found", message: "Memorial not found" };
  if (!memorial.shopOffers) return { ok: false, reason: "off", message: BOOK_MESSAGES.off };
  const family = roleOnMemorial(memorial, user) !== "none" || (await areFriends(memorial.userId, user.id));
  if (!family) return { ok: false, reason: "not-family", message: BOOK_MESSAGES.notFamily };
  return { ok: true, memorial: { id: memorial.id, firstName: memorial.firstName, lastName: memorial.lastName } };
}

/** What the memorial page offers this viewer: the book (order it; preview it for the owner and co-managers), or nothing. */
export async function bookOfferFor(
  memorial: { id: string; userId: string; shopOffers: boolean },
  viewer: Viewer,
  role: string,
): Promise<{ canPreview: boolean } | null> {
  if (!viewer || !memorial.shopOffers) return null;
  const editor = role !== "none";
  if (!editor && !(await areFriends(memorial.userId, viewer.id))) return null;
  return { canPreview: editor };
}

/** The book's content from the memorial as it is now, read in `db` (the order's transaction when it is frozen). */
export async function bookContent(memorialId: string, db: Tx = prisma()): Promise<BookContent | null> {
  const memorial = await db.memorial.findUnique({
    where: { id: memorialId },
    select: {
      firstName: true,
      lastName: true,
      title: true,
      dateOfBirth: true,
      dateOfPassing: true,
      biography: true,
      profileImageUrl: true,
      media: {
        where: { mediaType: { startsWith: "image/" } },
        orderBy: [{ order: "asc" }, { createdAt: "asc" }],
        take: BOOK_LIMITS.photos,
        select: { mediaUrl: true, caption: true },
      },
      timeline: { orderBy: TIMELINE_ORDER, take: BOOK_LIMITS.timeline, select: { year: true, month: true, day: true, title: true, description: true } },
      // The newest tributes when there are more than a book holds, printed oldest first.
      tributes: {
        where: { isApproved: true },
        orderBy: { createdAt: "desc" },
        take: BOOK_LIMITS.tributes,
        select: { authorName: true, content: true, createdAt: true },
      },
    },
  });
  if (!memorial) return null;
  return {
    version: 1,
    name: `${memorial.firstName} ${memorial.lastName}`.trim(),
    title: memorial.title,
    dateOfBirth: memorial.dateOfBirth?.toISOString().slice(0, 10) ?? null,
    dateOfPassing: memorial.dateOfPassing?.toISOString().slice(0, 10) ?? null,
    biography: memorial.biography,
    portraitKey: printKey(memorial.profileImageUrl),
    photos: memorial.media.flatMap((m) => {
      const key = printKey(m.mediaUrl);
      return key ? [{ key, caption: m.caption }] : [];
    }),
    timeline: memorial.timeline.map((e) => ({ date: formatTimelineDate(e), title: e.title, description: e.description })),
    tributes: memorial.tributes.reverse().map((t) => ({ authorName: t.authorName, content: t.content, date: t.createdAt.toISOString() })),
  };
}

/**
 * The stored copy a photo is printed from: its 1,600 px copy where there is one (over 400 dpi across the
 * 100 mm a photo fills at most), not the original of up to 100 megapixels, which would cost far more to
 * decode for no visible gain. Null for a picture that is not ours (the demo data's).
 */
function printKey(url: string | null): string | null {
  return url ? keyFromUrl(imageSources(url).full) : null;
}

/** A book as it is printed (laid out off the request thread, bounded: see book-render.server.ts), with its name. */
export type PrintedBook = RenderedBook & { name: string };

/** The family's preview of the book as it would print now: the owner and co-managers only (null: a 404). */
export async function previewBook(memorialId: string, viewer: Viewer): Promise<PrintedBook | null> {
  if ((await memorialRole(memorialId, viewer)) === "none") return null;
  const content = await bookContent(memorialId);
  return content ? { ...(await renderBook(content)), name: content.name } : null;
}

/**
 * The book of one order line, as it was frozen when it was paid for: its buyer's, or any administrator's
 * (who sends it to the printer). Null for anyone else, a product line, or a book with nothing to print.
 */
export async function orderBook(orderId: string, itemId: string, viewer: Viewer): Promise<PrintedBook | null> {
  if (!viewer || !isRecordId(orderId) || !isRecordId(itemId)) return null;
  const item = await prisma().orderItem.findFirst({
    where: { id: itemId, orderId, ...(viewer.isAdmin ? {} : { order: { userId: viewer.id } }) },
    select: { book: true, memorialId: true },
  });
  if (!item) return null;
  // An order made before books were frozen prints the memorial as it is now, while it exists.
  const content = (item.book as BookContent | null) ?? (item.memorialId ? await bookContent(item.memorialId) : null);
  return content ? { ...(await renderBook(content)), name: content.name } : null;
}

/** A file name for the book: letters and digits of the name, then "memorial-book.pdf". */
export function bookFileName(name: string) {
  const slug = name
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .toLowerCase()
    .slice(0, 60);
  return `${slug ? `${slug}-` : ""}memorial-book.pdf`;
}

export type ShopOffersResult = { ok: true; on: boolean } | { ok: false; reason: "not-found" };

/**
 * The family's switch: the owner or a manager (who decide who may see the memorial)
 * turns the book offer, and any product beside the memorial, on or off. Off, the page offers nothing for
 * sale and ordering the book is refused; the change moves the page's version (a trigger), so the anonymous
 * page cache shows it at once. A manager's change is in the audit log.
 */
export async function setShopOffers(memorialId: string, actor: Actor, on: boolean): Promise<ShopOffersResult> {
  const role = await memorialRole(memorialId, actor);
  if (!canChangeVisibility(role)) return { ok: false, reason: "not-found" };
  return prisma().$transaction(async (tx) => {
    const updated = await tx.memorial.updateMany({ where: { id: memorialId }, data: { shopOffers: on } });
    if (!updated.count) return { ok: false as const, reason: "not-found" as const };
    await auditCoEdit(tx, role, actor, memorialId, on ? "offered the printed book again" : "turned off the printed book and product suggestions");
    return { ok: true as const, on };
  });
}

/** The book of each memorial line, frozen in the order's transaction (null for a product line). */
export async function freezeBooks(tx: Tx, items: { memorialId: string | null }[]): Promise<(BookContent | null)[]> {
  const books: (BookContent | null)[] = [];
  for (const item of items) books.push(item.memorialId ? await bookContent(item.memorialId, tx) : null);
  return books;
}
