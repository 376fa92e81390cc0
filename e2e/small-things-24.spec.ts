import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { createTestMemorial, createTestProduct, createTestTribute, createTestUser, db, deleteTestUser, loginAs, retireTestProducts, type TestUser } from "./db";
import { expect, expectAccessible, test } from "./fixtures";

// Small things, on a 390 px phone with JavaScript on and off: the admin's confirmations keep a
// very long name inside the screen and speak to an administrator removing their own rights; a shop card's
// More opens onto the whole description once and closes with Less; the landing page's cards count real
// tributes and views; the vault's file picker is a button. Each changed screen is photographed (test-results).

test.use({ viewport: { width: 390, height: 844 } });

/** One unbroken word, as long as a name can be: nothing to wrap it at but the letters themselves. */
const longWord = (prefix: string) => `${prefix}${"x".repeat(64)}${randomBytes(4).toString("hex")}`;

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
}

/** Visible, and all of it within the 390 px width (scrolled to, for the photograph). */
async function expectWithinScreen(locator: ReturnType<Page["getByText"]>) {
  await expect(locator).toBeVisible();
  await locator.scrollIntoViewIfNeeded();
  const box = (await locator.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
}

async function photograph(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
}

test.describe("the admin's confirmations", () => {
  let admin: TestUser;
  test.beforeEach(async ({ page }) => {
    admin = await createTestUser({ isAdmin: true, firstName: "Ada", lastName: "Admin" });
    await loginAs(page, admin);
  });
  test.afterEach(async () => {
    await deleteTestUser(admin);
  });

  /** Opens the confirmation behind `summary` in `scope` and shows its warning. */
  async function open(scope: ReturnType<Page["getByRole"]>, summary: string, button: string) {
    const confirm = scope.getByRole("button", { name: button });
    // With JavaScript a revalidation can land just after the click and re-render the list: open it again then.
    await expect(async () => {
      if (!(await confirm.isVisible())) await scope.getByText(summary, { exact: true }).click();
      await expect(confirm).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 10_000 });
  }

  test("deleting a user, a product or a memorial with a very long name keeps the warning on a 390 px screen", async ({ page }) => {
    test.slow(); // three admin pages, each checked for accessibility
    const doomed = await createTestUser({ firstName: longWord("Bartholomew"), lastName: longWord("Featherstonehaugh") });
    const keepsake = await createTestProduct({ name: longWord("Keepsake"), category: "Textiles" });
    const memorial = await createTestMemorial(doomed, { firstName: longWord("Maximiliana"), lastName: "Long" });
    try {
      await page.goto(`/admin/users?q=${doomed.email}`);
      const user = page.getByRole("listitem", { name: new RegExp(doomed.email) });
      await open(user, "Delete…", "Yes, delete this user");
      await expectWithinScreen(user.getByText(/Deleting this user hides their account and memorials at once/));
      await expectNoSidewaysScroll(page);
      await photograph(page, "admin-delete-user");
      await expectAccessible(page);

      await page.goto(`/admin/products?q=${keepsake.name}`);
      const product = page.getByRole("listitem").filter({ hasText: keepsake.name });
      await open(product, "Delete…", "Yes, delete this product");
      await expectWithinScreen(product.getByText(/It leaves the shop and every basket/));
      await expectNoSidewaysScroll(page);
      await photograph(page, "admin-delete-product");

      await page.goto(`/admin?q=${memorial.firstName}`);
      const row = page.getByRole("listitem").filter({ hasText: memorial.firstName });
      await open(row, "Delete…", "Yes, delete this memorial");
      await expectWithinScreen(row.getByText(/Deleting this memorial hides it at once/));
      await expectNoSidewaysScroll(page);
      await photograph(page, "admin-delete-memorial");
    } finally {
      await retireTestProducts([keepsake]);
      await deleteTestUser(doomed);
    }
  });

  test("removing one's own rights speaks to the administrator; another's speaks of them", async ({ page }) => {
    const other = await createTestUser({ isAdmin: true, firstName: "Olive", lastName: "Other" });
    try {
      await page.goto(`/admin/users?q=${admin.email}`);
      const own = page.getByRole("listitem", { name: new RegExp(admin.email) });
      await open(own, "Remove admin rights…", "Yes, remove admin rights");
      await expect(own).toContainText("Remove your own administrator rights? You will no longer see this dashboard.");
      await expect(own).not.toContainText("They will no longer see this dashboard");
      await photograph(page, "admin-own-rights");
      await expectAccessible(page);

      await page.goto(`/admin/users?q=${other.email}`);
      const theirs = page.getByRole("listitem", { name: new RegExp(other.email) });
      await open(theirs, "Remove admin rights…", "Yes, remove admin rights");
      await expect(theirs).toContainText("Remove Olive Other's administrator rights? They will no longer see this dashboard.");
    } finally {
      await deleteTestUser(other);
    }
  });
});

test("a shop card's More shows the whole description once, and Less folds it back", async ({ page }) => {
  const ending = `finished by hand in our Yorkshire workshop ${randomBytes(3).toString("hex")}`;
  const description = `A soft quilted throw in undyed wool, stitched with a name and two dates, ${ending}.`;
  const quilt = await createTestProduct({ name: `Quilt ${randomBytes(4).toString("hex")}`, category: "Textiles", description });
  try {
    await page.goto("/products?category=service");
    const card = page.getByRole("article", { name: quilt.name });
    await expect(card.getByText("A soft quilted throw in undyed wool, stitched…")).toBeVisible();
    await expect(card.getByText(ending)).toBeHidden();
    await expect(card.locator("summary")).toHaveAccessibleName(`More about ${quilt.name}`);
    await expect(card.getByText("More", { exact: true })).toBeVisible();
    await expectAccessible(page);

    await card.locator("summary").click();
    // The whole description, once: the preview has gone, and the summary now says Less.
    await expect(card.getByText(description, { exact: true })).toBeVisible();
    await expect(card.getByText("A soft quilted throw in undyed wool, stitched…")).toBeHidden();
    expect(await card.innerText()).not.toMatch(/A soft quilted throw[\s\S]*A soft quilted throw/);
    await expect(card.getByText("Less", { exact: true })).toBeVisible();
    await expect(card.getByText("More", { exact: true })).toBeHidden();
    await expect(card.locator("summary")).toHaveAccessibleName(`Less about ${quilt.name}`);
    await expect(card.locator("details")).toHaveAttribute("open", "");
    // Less comes after the text it folds.
    const [text, less] = await Promise.all([card.getByText(description, { exact: true }).boundingBox(), card.locator("summary").boundingBox()]);
    expect(less!.y).toBeGreaterThan(text!.y);
    await expectNoSidewaysScroll(page);
    await card.locator("summary").scrollIntoViewIfNeeded();
    await photograph(page, "shop-more-open");
    await expectAccessible(page);

    // By keyboard too: the summary is focusable and Enter folds it.
    await card.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(card.getByText(ending)).toBeHidden();
    await expect(card.locator("summary")).toHaveAccessibleName(`More about ${quilt.name}`);
    await expect(card.getByText("A soft quilted throw in undyed wool, stitched…")).toBeVisible();
  } finally {
    await retireTestProducts([quilt]);
  }
});

test("the landing page's cards count the approved tributes and the views", async ({ page, member }) => {
  // Dated a minute ahead, so it is the newest public memorial while this test looks, whatever else runs.
  const memorial = await createTestMemorial(member, { createdAt: new Date(Date.now() + 60_000) });
  await createTestTribute(memorial, { isApproved: true });
  await createTestTribute(memorial, { isApproved: true });
  await createTestTribute(memorial, { isApproved: false });
  await db().query(`UPDATE memorials SET "viewCount" = 7 WHERE id = $1`, [memorial.id]);
  await page.goto("/");
  const recent = page.getByRole("region", { name: "Recent Memorials" });
  const card = recent.getByRole("article").filter({ hasText: memorial.firstName });
  await expect(card).toContainText("2 tributes");
  await expect(card).toContainText("7 views");
  await expect(card).not.toContainText("0 tributes");
  await card.scrollIntoViewIfNeeded();
  await photograph(page, "landing-cards");
  await expectAccessible(page);
});

test("the vault's file picker is a button, reached and shown by keyboard", async ({ page, member }) => {
  await db().query(`UPDATE users SET "subscriptionPlan" = 'forever_plus' WHERE id = $1`, [member.id]);
  await loginAs(page, member);
  await page.goto("/vault");
  const picker = page.getByLabel("File", { exact: true });
  const button = await picker.evaluate((input) => {
    const style = getComputedStyle(input, "::file-selector-button");
    return {
      border: `${style.borderTopStyle} ${style.borderTopWidth}`,
      radius: style.borderTopLeftRadius,
      weight: style.fontWeight,
      background: style.backgroundColor,
      padding: style.paddingLeft,
    };
  });
  expect(button).toEqual({ border: "solid 1px", radius: "6px", weight: "600", background: "rgb(255, 255, 255)", padding: "16px" });
  // From the form's heading, Tab reaches the picker first, with a visible focus ring.
  await page.getByRole("heading", { name: "Add a file" }).click();
  await page.keyboard.press("Tab");
  await expect(picker).toBeFocused();
  const ring = await picker.evaluate((input) => {
    const style = getComputedStyle(input);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  expect(ring.style).not.toBe("none");
  expect(ring.width).toBeGreaterThanOrEqual(2);
  await picker.scrollIntoViewIfNeeded();
  await photograph(page, "vault-picker-focused");
  await expectAccessible(page);
});
