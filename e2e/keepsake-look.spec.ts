import { createTestMemorial, loginAs } from "./db";
import { expect, test } from "./fixtures";

// The look on a phone (390 px), JavaScript on and off: a person with no photograph is shown by their
// initials rather than a faceless silhouette; rows of buttons are not cramped (an owner's card keeps its
// actions two by two, none alone on a row; "Login to View" stays on one line).

test.use({ viewport: { width: 390, height: 844 } });

test("someone with no photograph is shown by their initials, in the heading face, on a warm tint", async ({ page, member }) => {
  const memorial = await createTestMemorial(member, { firstName: "Winnie", lastName: "Quayle", createdAt: new Date(Date.now() + 86_400_000) });
  await page.goto("/");
  const portrait = page.getByRole("region", { name: "Recent Memorials" }).getByRole("img", { name: "Portrait of Winnie Quayle" });
  await expect(portrait).toBeVisible();
  const src = decodeURIComponent((await portrait.getAttribute("src"))!);
  expect(src).toMatch(/^data:image\/svg\+xml,/);
  expect(src).toContain(">WQ</text>");
  await page.goto(`/memorials/${memorial.id}`);
  expect(decodeURIComponent((await page.getByRole("img", { name: "Portrait of Winnie Quayle" }).getAttribute("src"))!)).toContain(">WQ</text>");
});

test("an owner's card keeps its actions two by two, none alone on a row", async ({ page, member }) => {
  await createTestMemorial(member, { firstName: "Rowena", lastName: "Pairs" });
  await loginAs(page, member);
  await page.goto("/my-memorials");
  const card = page.getByRole("article").filter({ hasText: "Rowena Pairs" });
  const top = async (action: string) => (await card.locator("a, button", { hasText: new RegExp(`^${action}`) }).boundingBox())!.y;
  expect(await top("Edit")).toBe(await top("View"));
  expect(await top("Download a copy")).toBe(await top("Delete"));
  expect(await top("Delete")).toBeGreaterThan(await top("Edit"));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath("owner-card-390.png") });
});

test("a locked memorial's Login to View stays on one line", async ({ page, member }) => {
  const memorial = await createTestMemorial(member, { visibility: "friends" });
  await page.goto(`/memorials/${memorial.id}`);
  const login = page.getByRole("link", { name: "Login to View" });
  await expect(login).toBeVisible();
  const lineHeight = await login.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
  const box = (await login.boundingBox())!;
  // One line of text and the button's padding (0.5 rem above and below).
  expect(box.height).toBeLessThan(lineHeight * 2);
  await page.screenshot({ path: test.info().outputPath("locked-390.png") });
});

test("on a phone a product's and a life's card puts the picture beside the words, so a screen holds several", async ({ page }) => {
  await page.goto("/products");
  const products = page.getByRole("list", { name: /\d+ products?/ }).getByRole("article");
  expect(await products.count()).toBeGreaterThan(2);
  for (const card of (await products.all()).slice(0, 3)) {
    const box = (await card.boundingBox())!;
    expect(box.height, "a product's card").toBeLessThan(320);
    const picture = (await card.getByRole("img").first().boundingBox())!;
    expect(picture.x + picture.width, "the picture beside the words").toBeLessThan(box.x + box.width / 2);
  }
  await page.goto("/memorials");
  const lives = page.locator("[data-view=grid] article");
  expect(await lives.count()).toBeGreaterThan(2);
  for (const card of (await lives.all()).slice(0, 3)) expect((await card.boundingBox())!.height, "a memorial's card").toBeLessThan(300);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
