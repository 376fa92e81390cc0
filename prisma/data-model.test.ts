import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../test/databases";
import type { Database } from "../app/services/db.server";

// Every model can be created, read and deleted, and the constraints and cascades the specs imply hold,
// on embedded PGlite and on real PostgreSQL alike.

let counter = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

describe.each(databaseKinds)("data model on $name", ({ skip, open }) => {
  let db: Database;
  beforeAll(async () => {
    if (!skip) db = await open();
  });
  afterAll(async () => db?.close());

  const makeUser = (overrides: Partial<{ isAdmin: boolean }> = {}) =>
    db.prisma.user.create({
      data: { email: `${unique("user")}@example.com`, firstName: "Test", lastName: "User", password: "x", ...overrides },
    });
  const makeMemorial = (userId: string) => db.prisma.memorial.create({ data: { userId, title: "In memory", firstName: "Mary", lastName: "Jones" } });

  it.skipIf(skip)("creates, reads and deletes every model", async () => {
    const user = await makeUser();
    const friend = await makeUser();
    const memorial = await makeMemorial(user.id);
    const product = await db.prisma.product.create({
      data: { name: "Candle", description: "Soy", price: 1299, category: "Candles", stockQuantity: 3 },
    });
    const order = await db.prisma.order.create({
      data: { userId: user.id, totalAmount: 1403, paymentIntentId: unique("pi"), items: { create: [{ productId: product.id, quantity: 1, price: 1299 }] } },
    });
    const created = {
      session: await db.prisma.session.create({
        data: { sid: unique("sid"), sess: { userId: user.id }, expire: new Date(Date.now() + 60_000), userId: user.id },
      }),
      media: await db.prisma.memorialMedia.create({ data: { memorialId: memorial.id, mediaUrl: "/media/x.webp", mediaType: "image/webp" } }),
      tribute: await db.prisma.tribute.create({ data: { memorialId: memorial.id, authorName: "Ann", content: "Kind soul" } }),
      share: await db.prisma.memorialShare.create({
        data: { memorialId: memorial.id, sharedByUserId: user.id, shareType: "facebook", shareData: { url: "x" } },
      }),
      feedback: await db.prisma.feedback.create({ data: { userId: user.id, type: "ux_feedback", content: "{}", rating: 5 } }),
      popup: await db.prisma.popupState.create({ data: { userId: user.id, popupType: "ux_feedback" } }),
      cartItem: await db.prisma.cartItem.create({ data: { userId: user.id, productId: product.id, price: 1299 } }),
      news: await db.prisma.newsArticle.create({ data: { title: "News", url: `https://everlight.uk/${unique("n")}` } }),
      request: await db.prisma.friendRequest.create({ data: { senderId: user.id, receiverId: friend.id } }),
      friendship: await db.prisma.friendship.create({ data: { userId: user.id, friendId: friend.id } }),
      vaultFile: await db.prisma.vaultFile.create({
        data: {
          userId: user.id,
          fileName: "a.pdf",
          originalFileName: "a.pdf",
          fileSize: 3,
          fileType: "application/pdf",
          category: "document",
          encryptedData: new Uint8Array([1, 2, 3]),
          encryptionKey: "wrapped",
        },
      }),
      vaultPassword: await db.prisma.vaultPassword.create({ data: { userId: user.id, passwordHash: "h" } }),
      contact: await db.prisma.contactMessage.create({ data: { name: "A", email: "a@example.com", subject: "Hi", message: "Hello there!" } }),
    };

    // Defaults the specs give.
    expect(user).toMatchObject({ isAdmin: false, subscriptionPlan: "free" });
    expect(memorial).toMatchObject({ visibility: "public", isPublished: false, viewCount: 0 });
    expect(created.tribute.isApproved).toBe(false);
    expect(created.media.order).toBe(0);
    expect(created.popup).toMatchObject({ skipCount: 0, completed: false });
    expect(created.cartItem.quantity).toBe(1);
    expect(order.status).toBe("pending");
    expect(created.request.status).toBe("pending");
    expect(created.contact).toMatchObject({ status: "new", type: "general" });
    expect(created.vaultFile.keyVersion).toBe(1);
    expect(product.isActive).toBe(true);
    // Ids are random UUIDs, not sequences.
    expect(memorial.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    // Read back.
    const full = await db.prisma.memorial.findUniqueOrThrow({
      where: { id: memorial.id },
      include: { media: true, tributes: true, shares: true },
    });
    expect(full.media).toHaveLength(1);
    expect(full.tributes[0].content).toBe("Kind soul");
    expect(Buffer.from((await db.prisma.vaultFile.findUniqueOrThrow({ where: { id: created.vaultFile.id } })).encryptedData!)).toEqual(Buffer.from([1, 2, 3]));
    expect((await db.prisma.order.findUniqueOrThrow({ where: { id: order.id }, include: { items: true } })).items).toHaveLength(1);

    // Delete each.
    await db.prisma.contactMessage.delete({ where: { id: created.contact.id } });
    await db.prisma.newsArticle.delete({ where: { id: created.news.id } });
    await db.prisma.friendRequest.delete({ where: { id: created.request.id } });
    await db.prisma.friendship.delete({ where: { id: created.friendship.id } });
    await db.prisma.vaultFile.delete({ where: { id: created.vaultFile.id } });
    await db.prisma.vaultPassword.delete({ where: { id: created.vaultPassword.id } });
    await db.prisma.cartItem.delete({ where: { id: created.cartItem.id } });
    await db.prisma.order.delete({ where: { id: order.id } });
    expect(await db.prisma.orderItem.count({ where: { orderId: order.id } })).toBe(0);
    await db.prisma.product.delete({ where: { id: product.id } });
    await db.prisma.feedback.delete({ where: { id: created.feedback.id } });
    await db.prisma.popupState.delete({ where: { id: created.popup.id } });
    await db.prisma.session.delete({ where: { sid: created.session.sid } });
    await db.prisma.memorial.delete({ where: { id: memorial.id } });
    await db.prisma.user.delete({ where: { id: user.id } });
    await db.prisma.user.delete({ where: { id: friend.id } });
    expect(await db.prisma.user.count({ where: { id: { in: [user.id, friend.id] } } })).toBe(0);
  });

  it.skipIf(skip)("deletes a memorial's media, tributes and shares with it", async () => {
    const user = await makeUser();
    const memorial = await makeMemorial(user.id);
    await db.prisma.memorialMedia.create({ data: { memorialId: memorial.id, mediaUrl: "m", mediaType: "image/png" } });
    await db.prisma.tribute.create({ data: { memorialId: memorial.id, authorName: "A", content: "c" } });
    await db.prisma.memorialShare.create({ data: { memorialId: memorial.id, shareType: "twitter" } });
    await db.prisma.memorial.delete({ where: { id: memorial.id } });
    const where = { memorialId: memorial.id };
    expect(await db.prisma.memorialMedia.count({ where })).toBe(0);
    expect(await db.prisma.tribute.count({ where })).toBe(0);
    expect(await db.prisma.memorialShare.count({ where })).toBe(0);
  });

  it.skipIf(skip)("deleting a user removes their sessions, popup state and memorials, and keeps their contact messages, feedback and orders", async () => {
    const user = await makeUser();
    const memorial = await makeMemorial(user.id);
    await db.prisma.session.create({ data: { sid: unique("sid"), sess: {}, expire: new Date(), userId: user.id } });
    await db.prisma.popupState.create({ data: { userId: user.id, popupType: "ux_feedback" } });
    const contact = await db.prisma.contactMessage.create({
      data: { name: "A", email: "a@example.com", subject: "s", message: "message text", userId: user.id },
    });
    const feedback = await db.prisma.feedback.create({ data: { userId: user.id, type: "ux_feedback", content: "{}" } });
    const order = await db.prisma.order.create({ data: { userId: user.id, totalAmount: 100 } });

    await db.prisma.user.delete({ where: { id: user.id } });

    expect(await db.prisma.session.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.prisma.popupState.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.prisma.memorial.count({ where: { id: memorial.id } })).toBe(0);
    expect(await db.prisma.contactMessage.findUniqueOrThrow({ where: { id: contact.id } })).toMatchObject({ userId: null, subject: "s" });
    expect(await db.prisma.feedback.findUniqueOrThrow({ where: { id: feedback.id } })).toMatchObject({ userId: null });
    expect(await db.prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ userId: null });
  });

  it.skipIf(skip)("enforces the unique constraints the specs imply", async () => {
    const a = await makeUser();
    const b = await makeUser();
    await expect(db.prisma.user.create({ data: { email: a.email, firstName: "X", lastName: "Y", password: "x" } })).rejects.toThrow();

    // One pending or accepted request per sender–receiver pair; a rejected one may be sent again.
    const first = await db.prisma.friendRequest.create({ data: { senderId: a.id, receiverId: b.id } });
    await expect(db.prisma.friendRequest.create({ data: { senderId: a.id, receiverId: b.id } })).rejects.toThrow();
    await db.prisma.friendRequest.update({ where: { id: first.id }, data: { status: "rejected" } });
    await expect(db.prisma.friendRequest.create({ data: { senderId: a.id, receiverId: b.id } })).resolves.toMatchObject({ status: "pending" });

    await db.prisma.friendship.create({ data: { userId: a.id, friendId: b.id } });
    await expect(db.prisma.friendship.create({ data: { userId: a.id, friendId: b.id } })).rejects.toThrow();

    await db.prisma.vaultPassword.create({ data: { userId: a.id, passwordHash: "h" } });
    await expect(db.prisma.vaultPassword.create({ data: { userId: a.id, passwordHash: "h2" } })).rejects.toThrow();

    const paymentIntentId = unique("pi");
    await db.prisma.order.create({ data: { userId: a.id, totalAmount: 100, paymentIntentId } });
    await expect(db.prisma.order.create({ data: { userId: a.id, totalAmount: 100, paymentIntentId } })).rejects.toThrow();

    await db.prisma.popupState.create({ data: { userId: a.id, popupType: "ux_feedback" } });
    await expect(db.prisma.popupState.create({ data: { userId: a.id, popupType: "ux_feedback" } })).rejects.toThrow();
  });

  it.skipIf(skip)("refuses values outside the specs' sets", async () => {
    const user = await makeUser();
    await expect(db.prisma.memorial.create({ data: { userId: user.id, title: "t", firstName: "a", lastName: "b", visibility: "everyone" } })).rejects.toThrow();
    await expect(db.prisma.cartItem.create({ data: { userId: user.id, price: 100 } })).rejects.toThrow();
    await expect(db.prisma.feedback.create({ data: { type: "ux_feedback", content: "{}", rating: 6 } })).rejects.toThrow();
  });

  it.skipIf(skip)("has an index for the lookups the screens make", async () => {
    const indexes = await db.sql.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`);
    const names = indexes.map((i) => i.indexname);
    expect(names).toEqual(
      expect.arrayContaining([
        "memorials_userId_createdAt_idx",
        "memorials_visibility_isPublished_createdAt_idx",
        "memorials_viewCount_idx",
        "tributes_memorialId_isApproved_createdAt_idx",
      ]),
    );
    // Every foreign key column leads some index.
    const unindexed = await db.sql.query<{ tbl: string; col: string }>(`
      SELECT c.conrelid::regclass::text AS tbl, a.attname AS col
      FROM pg_constraint c
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'f' AND NOT EXISTS (
        SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid AND i.indkey[0] = c.conkey[1]
      )`);
    expect(unindexed).toEqual([]);
  });
});
