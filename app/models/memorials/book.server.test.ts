import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../../test/databases";
import { useTempDataDir } from "../../../test/data-dir";
import { pdfInfo, pdfPageImages, pdfText } from "../../../test/pdf";
import { SHIPPING } from "../../../test/shop";
import { expectPassages } from "../../../test/text";
import { MEMORIAL_ITEM } from "~/utils/shop";
import { addToCart, getBasket } from "../commerce/cart.server";
import { payTestPayment } from "../commerce/order-completion.server";
import { startCheckout } from "../commerce/order-checkout.server";
import { addMemorialMedia, setMemorialPortrait } from "./media.server";
import { BOOK_LIMITS, BOOK_MESSAGES, bookOfferFor, mayOrderBook, orderBook, previewBook, setShopOffers } from "./book.server";
import { publicMemorialVersion } from "./records.server";

// The printed memorial book and the family's switch on PGlite and PostgreSQL: who
// may order it (owner, co-managers, the owner's friends; not a stranger; nobody once the family turns it
// off, with the line in a basket then refused at checkout); who may turn it off (owner and managers) and
// that doing so moves the page's version; the PDF itself read back (the name, a tribute, the photo's
// colour on a page); the book frozen when it is paid for and readable by its buyer and administrators only.

process.env.PAYMENT_PROVIDER = "test";
process.env.STRIPE_SECRET_KEY = "";
process.env.STRIPE_PUBLISHABLE_KEY = "";

useTempDataDir("book");

/** A solid colour no page of the book otherwise uses, stored as WebP (which pdf-lib cannot embed as it is). */
const MAGENTA = { r: 226, g: 18, b: 150 };
const TEAL = { r: 10, g: 160, b: 150 };
const solid = (c: { r: number; g: number; b: number }) =>
  sharp({ create: { width: 600, height: 400, channels: 3, background: c } })
    .webp({ lossless: true })
    .toBuffer();

/** How many pixels of a page image are within a few steps of `c`. */
async function pixelsOf(png: Buffer, c: { r: number; g: number; b: number }) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (Math.abs(data[i] - c.r) < 12 && Math.abs(data[i + 1] - c.g) < 12 && Math.abs(data[i + 2] - c.b) < 12) count++;
  }
  return count;
}

let n = 0;
describe.each(databaseKinds)("the memorial book on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);
  const person = async (isAdmin = false) => {
    const u = await app.db.prisma.user.create({
      data: { email: `book${Date.now().toString(36)}${n++}@example.com`, firstName: "Bo", lastName: `Ok${n}`, password: "x", isAdmin },
    });
    return { id: u.id, email: u.email, isAdmin, ip: "127.0.0.1" };
  };
  const befriend = (a: string, b: string) =>
    app.db.prisma.friendship.createMany({
      data: [
        { userId: a, friendId: b },
        { userId: b, friendId: a },
      ],
    });
  const memorialOf = (userId: string, extra: Record<string, unknown> = {}) =>
    app.db.prisma.memorial.create({
      data: { userId, title: "Ada Lovelace", firstName: "Ada", lastName: "Lovelace", visibility: "public", isPublished: true, ...extra },
    });

  it.skipIf(skip)("is ordered by the owner, co-managers and the owner's friends, not by others, and not at all once the family turns it off", async () => {
    const owner = await person();
    const editor = await person();
    const friend = await person();
    const stranger = await person();
    const memorial = await memorialOf(owner.id);
    await app.db.prisma.memorialManager.create({ data: { memorialId: memorial.id, userId: editor.id, role: "editor" } });
    await befriend(owner.id, friend.id);

    for (const who of [owner, editor, friend]) expect(await mayOrderBook(who, memorial.id)).toMatchObject({ ok: true });
    expect(await addToCart(stranger, { memorialId: memorial.id })).toEqual({ ok: false, reason: "unavailable", message: BOOK_MESSAGES.notFamily });
    expect(await bookOfferFor(memorial, stranger, "none")).toBeNull();
    expect(await bookOfferFor(memorial, null, "none")).toBeNull();
    expect(await bookOfferFor(memorial, friend, "none")).toEqual({ canPreview: false });
    expect(await bookOfferFor(memorial, editor, "editor")).toEqual({ canPreview: true });

    expect(await addToCart(friend, { memorialId: memorial.id })).toMatchObject({ ok: true, name: "Ada Lovelace Memorial" });
    // The family turns it off: the offer goes, a new order is refused, and the line in the friend's basket stops checkout.
    expect(await setShopOffers(memorial.id, owner, false)).toEqual({ ok: true, on: false });
    const off = await app.db.prisma.memorial.findUniqueOrThrow({ where: { id: memorial.id } });
    expect(await bookOfferFor(off, friend, "none")).toBeNull();
    expect(await bookOfferFor(off, owner, "owner")).toBeNull();
    expect(await addToCart(owner, { memorialId: memorial.id })).toEqual({ ok: false, reason: "unavailable", message: BOOK_MESSAGES.off });
    const basket = await getBasket(friend);
    expect(basket).toMatchObject({ hasProblems: true, lines: [{ kind: "memorial", problem: BOOK_MESSAGES.off, maxQuantity: 0 }] });
    expect(await startCheckout(friend, SHIPPING, { hosted: false, site: "http://localhost" })).toMatchObject({ ok: false });
  });

  it.skipIf(skip)("is switched by the owner and managers only, and the switch moves the public page's version whoever writes it", async () => {
    const owner = await person();
    const manager = await person();
    const editor = await person();
    const admin = await person(true);
    const memorial = await memorialOf(owner.id);
    await app.db.prisma.memorialManager.createMany({
      data: [
        { memorialId: memorial.id, userId: manager.id, role: "manager" },
        { memorialId: memorial.id, userId: editor.id, role: "editor" },
      ],
    });
    for (const who of [editor, admin, await person()]) expect(await setShopOffers(memorial.id, who, false)).toEqual({ ok: false, reason: "not-found" });
    const v0 = (await publicMemorialVersion(memorial.id))!.getTime();
    expect(await setShopOffers(memorial.id, manager, false)).toEqual({ ok: true, on: false });
    const v1 = (await publicMemorialVersion(memorial.id))!.getTime();
    expect(v1).toBeGreaterThan(v0);
    expect(await app.db.prisma.auditLog.count({ where: { targetId: memorial.id, action: "memorial.co-edit" } })).toBe(1);
    // Written in plain SQL (no Prisma @updatedAt): the database moves the version itself.
    await app.db.sql.query(`UPDATE memorials SET "shopOffers" = true WHERE id = $1`, [memorial.id]);
    const v2 = (await publicMemorialVersion(memorial.id))!.getTime();
    expect(v2).toBeGreaterThan(v1);
    // Writing the same value again changes nothing on the page, and moves nothing.
    await app.db.sql.query(`UPDATE memorials SET "shopOffers" = true WHERE id = $1`, [memorial.id]);
    expect((await publicMemorialVersion(memorial.id))!.getTime()).toBe(v2);
  });

  it.skipIf(skip)(
    "prints the name, dates, life story, timeline, photos and approved tributes, frozen at payment, for the buyer and administrators only",
    async () => {
      const owner = await person();
      const friend = await person();
      const stranger = await person();
      const admin = await person(true);
      await befriend(owner.id, friend.id);
      const memorial = await memorialOf(owner.id, {
        dateOfBirth: new Date("1815-12-10"),
        dateOfPassing: new Date("1852-11-27"),
        biography: `She wrote the first program.\n\n${"A long life story that runs on. ".repeat(400)}`,
      });
      expect(await setMemorialPortrait(memorial.id, owner.id, await solid(TEAL))).not.toBeNull();
      await addMemorialMedia(memorial.id, owner.id, await solid(MAGENTA), { caption: "The analytical engine" });
      await app.db.prisma.memorialTimelineEvent.create({
        data: { memorialId: memorial.id, kind: "marriage", year: 1835, month: 7, title: "Married William King" },
      });
      await app.db.prisma.tribute.createMany({
        data: [
          { memorialId: memorial.id, authorName: "Charles", content: "The enchantress of numbers.", isApproved: true },
          { memorialId: memorial.id, authorName: "Spam", content: "Buy cheap watches", isApproved: false },
        ],
      });

      // The family's preview: the owner's, not a friend's.
      expect(await previewBook(memorial.id, friend)).toBeNull();
      const preview = await previewBook(memorial.id, owner);
      expect(preview).not.toBeNull();

      expect(await addToCart(friend, { memorialId: memorial.id })).toMatchObject({ ok: true });
      const started = await startCheckout(friend, SHIPPING, { hosted: false, site: "http://localhost" });
      if (!started.ok || started.next.kind !== "pay-here") throw new Error("checkout did not start");
      const paid = await payTestPayment(friend, started.next.paymentId);
      if (!paid.ok) throw new Error("not paid");
      const line = paid.order.items[0];
      expect(line).toMatchObject({ unitPrice: MEMORIAL_ITEM.price, bookHref: `/orders/${paid.order.id}/book/${line.id}` });

      // Changed after payment: the book stays as it was bought.
      await app.db.prisma.memorial.update({ where: { id: memorial.id }, data: { firstName: "Augusta" } });
      await app.db.prisma.tribute.create({ data: { memorialId: memorial.id, authorName: "Late", content: "Written after the order.", isApproved: true } });

      expect(await orderBook(paid.order.id, line.id, stranger)).toBeNull();
      expect(await orderBook(paid.order.id, line.id, owner)).toBeNull();
      expect(await orderBook(paid.order.id, line.id, admin)).not.toBeNull();
      const book = await orderBook(paid.order.id, line.id, friend);
      if (!book?.ok) throw new Error(`no book: ${book?.ok === false ? book.message : "null"}`);
      const text = (await pdfText(book.pdf)).replace(/\s+/g, " ");
      expectPassages(
        text,
        [
          "Ada Lovelace",
          "December 10, 1815 – November 27, 1852",
          "She wrote the first program.",
          "Married William King",
          "The enchantress of numbers.",
          "— Charles",
          "The analytical engine",
        ],
        ["Augusta", "Buy cheap watches", "Written after the order."],
      );
      const info = await pdfInfo(book.pdf);
      expect(info.pageSize).toMatch(/^595\.2\d* x 841\.8\d* pts \(A4\)/);
      // The long life story runs over pages, and every page after the cover is numbered.
      expect(info.pages).toBeGreaterThanOrEqual(4);
      expect(text).toMatch(/Ada Lovelace · 2\b/);
      expect(text).toMatch(new RegExp(`Ada Lovelace · ${info.pages}\\b`));

      const pages = await pdfPageImages(book.pdf, 40);
      // The portrait on the cover, the photo (a WebP upload, printed as a JPEG) on a page of its own section.
      expect(await pixelsOf(pages[0], TEAL)).toBeGreaterThan(2000);
      const magenta = await Promise.all(pages.map((p) => pixelsOf(p, MAGENTA)));
      expect(Math.max(...magenta)).toBeGreaterThan(2000);
      expect(magenta[0]).toBe(0);
    },
  );

  it.skipIf(skip)(`holds at most ${BOOK_LIMITS.tributes} tributes, the newest, printed oldest first`, async () => {
    const owner = await person();
    const memorial = await memorialOf(owner.id);
    const base = Date.UTC(2020, 0, 1);
    await app.db.prisma.tribute.createMany({
      data: Array.from({ length: BOOK_LIMITS.tributes + 2 }, (_, i) => ({
        memorialId: memorial.id,
        authorName: `Writer ${i}`,
        content: `Tribute number ${i} here.`,
        isApproved: true,
        createdAt: new Date(base + i * 60_000),
      })),
    });
    const book = await previewBook(memorial.id, owner);
    if (!book?.ok) throw new Error("no book");
    const text = (await pdfText(book.pdf)).replace(/\s+/g, " ");
    expect(text).not.toContain("Tribute number 1 here.");
    expect(text.indexOf("Tribute number 2 here.")).toBeGreaterThan(-1);
    expect(text.indexOf("Tribute number 2 here.")).toBeLessThan(text.indexOf(`Tribute number ${BOOK_LIMITS.tributes + 1} here.`));
  });
});
