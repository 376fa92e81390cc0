import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  addTestCartItem,
  createTestCheckout,
  createTestMemorial,
  createTestProduct,
  createTestTribute,
  createTestUser,
  db,
  deleteTestUser,
  loginAs,
  retireTestProducts,
  type TestMemorial,
  type TestProduct,
  type TestUser,
} from "./db";
import { expect, test } from "./fixtures";

// No page is wider than a phone's screen. Every page is loaded at 320 and 390 px,
// JavaScript on and off, with the longest things people type: a name without a break, a link of 200
// characters in a tribute and in a biography, a long word in a title. A page wider than the screen
// scrolls sideways and cuts off its forms.

const WIDTHS = [320, 390] as const;
const LONG_WORD = `Pneumonoultramicroscopicsilicovolcanoconiosis${"x".repeat(40)}`;
const LONG_LINK = `https://example.com/${"a-very-long-path-segment-".repeat(8)}?ref=${"q".repeat(30)}`;

type Seeded = {
  token: string;
  owner: TestUser;
  memorial: TestMemorial;
  product: TestProduct;
  shop: { checkoutId: string; placedPaymentId: string };
  friend: TestUser;
  asker: TestUser;
  articleId: string;
};

/** A member with a long name, and a public memorial full of long words, links and tributes. */
async function seed(): Promise<Seeded> {
  const token = `wd${randomBytes(4).toString("hex")}`;
  const owner = await createTestUser({ firstName: `Maximiliana${LONG_WORD}`.slice(0, 50), lastName: "Featherstonehaugh-Cholmondeley" });
  const memorial = await createTestMemorial(owner, { firstName: `Bartholomew${token}${LONG_WORD}`.slice(0, 90), lastName: `Wolfeschlegelsteinhausen${token}` });
  const biography = [`${token} remembered. ${LONG_WORD} ${LONG_LINK}`, `Another paragraph ${LONG_LINK}${LONG_LINK}`].join("\n\n");
  // The most viewed memorial, so it leads the browse page's Featured row too.
  await db().query(`UPDATE memorials SET title = $2, biography = $3, "viewCount" = 1000000000 WHERE id = $1`, [
    memorial.id,
    `In memory of ${LONG_WORD}`,
    biography,
  ]);
  await createTestTribute(memorial, { authorName: `Cousin${LONG_WORD}`.slice(0, 80), content: `See ${LONG_LINK} and ${LONG_WORD}`, isApproved: true });
  await createTestTribute(memorial, { authorName: "Pending Person", content: `Waiting ${LONG_LINK}` });
  // Recently deleted: a deleted memorial with a long title in the owner's list and the dashboard's.
  const deleted = await createTestMemorial(owner, { firstName: `Deleted${LONG_WORD}`.slice(0, 90), lastName: "Gone" });
  await db().query(`UPDATE memorial_records SET title = $2, "deletedAt" = now() WHERE id = $1`, [deleted.id, `Deleted ${LONG_WORD}`]);
  // The shop: a product with a long name and description, in the basket, in a checkout
  // waiting for payment and in a placed order.
  const product = await createTestProduct({ name: `Keepsake ${LONG_WORD}`, description: `${LONG_WORD} ${LONG_LINK}`, price: 123456, stock: 99 });
  await addTestCartItem(owner, product, 12);
  const open = await createTestCheckout(owner, product, { quantity: 12 });
  const placed = await createTestCheckout(owner, product, { quantity: 3, placed: true });
  // Friends: a friend and a member waiting for an answer, both with long names and addresses,
  // and a news story full of long words.
  const friend = await createTestUser({
    firstName: `Friend${LONG_WORD}`.slice(0, 50),
    lastName: "Long",
    email: `friend-${token}-${LONG_WORD.toLowerCase()}@example.com`,
  });
  const asker = await createTestUser({
    firstName: `Asker${LONG_WORD}`.slice(0, 50),
    lastName: "Long",
    email: `asker-${token}-${LONG_WORD.toLowerCase()}@example.com`,
  });
  await db().query(`INSERT INTO friendships ("userId", "friendId") VALUES ($1, $2), ($2, $1)`, [owner.id, friend.id]);
  await db().query(`INSERT INTO friend_requests ("senderId", "receiverId") VALUES ($1, $2)`, [asker.id, owner.id]);
  // A deleted account in the dashboard's Recently deleted accounts.
  await db().query(`UPDATE users SET "deletedAt" = now() WHERE id = $1`, [asker.id]);
  const { rows } = await db().query(
    `INSERT INTO news_articles (title, description, url, "publishedAt", source, "personName") VALUES ($1, $2, $3, now(), $4, $5) RETURNING id`,
    [`${token} ${LONG_WORD}`, `${LONG_WORD} ${LONG_LINK}`, LONG_LINK + token, `Source${LONG_WORD}`, `Person${LONG_WORD}`],
  );
  return { token, owner, memorial, product, shop: { checkoutId: open.checkoutId, placedPaymentId: placed.paymentId }, friend, asker, articleId: rows[0].id };
}

/**
 * Loads each page at each width and lists those wider than the screen, and the ordinary words (up to 20
 * letters, no hyphen) broken in two: long text must wrap, but not by squeezing buttons and labels
 * until their words break.
 */
async function tooWide(page: Page, paths: string[]) {
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    for (const path of paths) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBeLessThan(500);
      const { scroll, inner, broken } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        inner: window.innerWidth,
        broken: brokenWords(),
      }));
      if (scroll > inner) problems.push(`${path} at ${width} px is ${scroll} px wide`);
      if (broken.length) problems.push(`${path} at ${width} px breaks ${broken.join(", ")}`);
    }
  }
  return problems;
}

declare function brokenWords(): string[];

/** Runs in the page (added by addInitScript): the short words whose letters lie on more than one line. */
function defineBrokenWords() {
  (window as unknown as { brokenWords: () => string[] }).brokenWords = () => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // Hidden from everyone (the tribute form's honeypot) or visually hidden: not laid out for reading.
      if (node.parentElement?.closest("[aria-hidden='true'], .sr-only")) continue;
      // Inside a closed <details> (the admin dashboard's confirmations): not shown, so laid out at no width.
      if (node.parentElement?.closest("details:not([open]) > :not(summary)")) continue;
      for (const word of (node.textContent ?? "").matchAll(/[^\s-]+/g)) {
        if (word[0].length > 20) continue;
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.bottom)));
        if (lines.size > 1) found.push(word[0]);
      }
    }
    return found;
  };
}

let seeded: Seeded;
test.beforeAll(async () => {
  seeded = await seed();
});
test.afterAll(async () => {
  await deleteTestUser(seeded.owner);
  await retireTestProducts([seeded.product]);
  await deleteTestUser(seeded.friend);
  await deleteTestUser(seeded.asker);
  await db().query(`DELETE FROM news_articles WHERE id = $1`, [seeded.articleId]);
});

// A script of the test's own: it also runs in the no-js project (evaluate works there; page scripts do not).
test.beforeEach(async ({ page }) => {
  await page.addInitScript(defineBrokenWords);
});

test("no page a visitor sees is wider than a phone, whatever the names, links and tributes", async ({ page }) => {
  test.setTimeout(120_000);
  const { token, memorial } = seeded;
  const paths = [
    "/",
    "/memorials",
    `/memorials?search=${token}`,
    `/memorials?search=${token}&view=masonry`,
    `/memorials?search=${token}&view=list`,
    `/memorials/${memorial.id}`,
    "/login",
    "/register",
    "/help",
    "/terms",
    "/privacy",
    "/endowment",
    "/forgot-password",
    "/reset-password?token=not-a-real-token",
    "/unsubscribe?user=x&topic=tributes&sig=x",
    "/products",
    "/products?category=service",
    "/news",
    "/contact",
    "/no-such-page",
  ];
  expect(await tooWide(page, paths)).toEqual([]);
});

test("no page a member sees is wider than a phone, whatever the names, links and tributes", async ({ page }) => {
  // Some 30 pages at two widths: on CI's busy two cores this takes a minute and a half.
  test.setTimeout(240_000);
  const { owner, memorial, friend } = seeded;
  await loginAs(page, owner);
  const paths = [
    "/",
    "/my-memorials",
    "/memorials/create",
    `/memorials/${memorial.id}`,
    `/memorials/${memorial.id}/edit`,
    `/memorials/${memorial.id}/delete`,
    `/memorials/${memorial.id}/events`,
    `/memorials/${memorial.id}/qr`,
    "/account",
    "/account/security",
    "/account/privacy",
    "/account/notifications",
    "/account/following",
    "/account/manage",
    "/products",
    "/basket",
    "/checkout",
    `/checkout?payment=${seeded.shop.checkoutId}`,
    `/order-confirmation?payment_intent=${seeded.shop.placedPaymentId}`,
    "/order-confirmation",
    "/orders",
    "/subscription",
    "/subscription?plan=forever#payment-choice",
    "/subscription?plan=forever_plus#payment-choice",
    "/memorials",
    "/friends",
    "/friends/requests",
    "/friends/find",
    `/friends/find?email=${encodeURIComponent(friend.email)}`,
    "/friends/find?email=not-an-address",
    "/news",
    "/contact",
    "/no-such-page",
  ];
  expect(await tooWide(page, paths)).toEqual([]);
});

test("the offer to restore a deleted account at sign-in is no wider than a phone", async ({ page }) => {
  const gone = await createTestUser({ firstName: `Gone${LONG_WORD}`.slice(0, 50), lastName: "Long" });
  await db().query(`UPDATE users SET "deletedAt" = now() WHERE id = $1`, [gone.id]);
  try {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto("/login");
      await page.getByLabel("Email").fill(gone.email);
      await page.getByLabel("Password", { exact: true }).fill(gone.password);
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page.getByRole("button", { name: "Restore my account" })).toBeInViewport();
      const { scroll, inner, broken } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        inner: window.innerWidth,
        broken: brokenWords(),
      }));
      expect(scroll, `at ${width} px`).toBeLessThanOrEqual(inner);
      expect(broken).toEqual([]);
      if (width === 390) await page.screenshot({ path: test.info().outputPath("restore-offer-390.png") });
    }
  } finally {
    await deleteTestUser(gone);
  }
});

test("the vault is no wider than a phone, with a long file name in it and the password prompt open", async ({ page }) => {
  const { owner } = seeded;
  await db().query(`UPDATE users SET "subscriptionPlan" = 'forever_plus' WHERE id = $1`, [owner.id]);
  // The listing reads only the row, so a row without stored bytes is enough to lay it out.
  await db().query(
    `INSERT INTO vault_files ("userId", "fileName", "originalFileName", "fileSize", "fileType", category, "encryptionKey")
     VALUES ($1, $2, $3, 123456, 'application/pdf', 'document', 'unused')`,
    [owner.id, `${LONG_WORD}-last-will-and-testament.pdf`, `${LONG_WORD}-last-will-and-testament.pdf`],
  );
  await loginAs(page, owner);
  expect(await tooWide(page, ["/vault", "/vault?protect"])).toEqual([]);
});

test("the admin dashboard's tabs are no wider than a phone, with the long names, products and orders in them", async ({ page }) => {
  test.setTimeout(180_000);
  const { token, owner, memorial, product } = seeded;
  const admin = await createTestUser({ isAdmin: true, firstName: `Admin${LONG_WORD}`.slice(0, 50), lastName: "Long" });
  // Something in every list: a pending tribute (seeded), a contact message, an audit entry, a feedback answer.
  await db().query(`INSERT INTO contact_messages (name, email, subject, message) VALUES ($1, $2, $3, $4)`, [
    `Asker ${LONG_WORD}`,
    `asker-${token}@example.com`,
    `Subject ${LONG_WORD}`,
    `${LONG_LINK} ${LONG_WORD}`,
  ]);
  await db().query(
    `INSERT INTO audit_log ("actorId", "actorEmail", action, "targetType", "targetId", summary, ip) VALUES ($1, $2, 'product.update', 'product', $3, $4, '10.0.0.1')`,
    [admin.id, `${LONG_WORD}@example.com`, product.id, `${LONG_WORD} ${LONG_LINK}`],
  );
  await db().query(`INSERT INTO feedback ("userId", type, content, rating) VALUES ($1, 'ux_feedback', $2, 4)`, [
    owner.id,
    JSON.stringify({ ease_of_use: 4, feature_satisfaction: ["Overall design"], improvement_suggestions: `${LONG_WORD} ${LONG_LINK}` }),
  ]);
  try {
    await loginAs(page, admin);
    const paths = [
      "/admin",
      `/admin?q=${token}`,
      "/admin/tributes",
      "/admin/users",
      `/admin/users?q=${encodeURIComponent(owner.email)}`,
      "/admin/products",
      "/admin/products/new",
      `/admin/products/${product.id}`,
      "/admin/orders",
      "/admin/orders?status=pending",
      "/admin/news",
      "/admin/feedback",
      "/admin/contact",
      "/admin/analytics",
      "/admin/audit",
      `/memorials/${memorial.id}`,
    ];
    expect(await tooWide(page, paths)).toEqual([]);
  } finally {
    await deleteTestUser(admin);
  }
});
