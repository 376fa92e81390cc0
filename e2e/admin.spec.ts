import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  createTestCheckout,
  createTestMemorial,
  createTestProduct,
  createTestTribute,
  createTestUser,
  db,
  deleteTestUser,
  loginAs,
  retireTestProducts,
  stockOf,
  type TestUser,
} from "./db";
import { anotherPersonsPage, expect, expectAccessible, test, toast } from "./fixtures";
import { nextMailTo } from "./mail";

// The admin dashboard, with JavaScript on and off: every
// confirmation is a <details> that opens onto the real button, so it works either way. Each journey ends
// by finding its actions in the audit log.

let admin: TestUser;
test.beforeEach(async ({ page }) => {
  admin = await createTestUser({ isAdmin: true, firstName: "Ada", lastName: "Admin" });
  await loginAs(page, admin);
});
test.afterEach(async () => {
  await deleteTestUser(admin);
});

/** Opens a confirmation and presses its real button. */
async function confirm(page: Page, scope: ReturnType<Page["getByRole"]>, summary: string, button: string) {
  const open = scope.getByRole("button", { name: button });
  // With JavaScript a revalidation can land just after the click and re-render the list: open it again then.
  await expect(async () => {
    if (!(await open.isVisible())) await scope.getByText(summary, { exact: true }).click();
    await expect(open).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await open.click();
}

async function expectAudited(page: Page, search: string, labels: string[]) {
  await page.goto(`/admin/audit?q=${encodeURIComponent(search)}`);
  const entries = page.getByTestId("audit-entry");
  for (const label of labels) await expect(entries.filter({ hasText: label }).first()).toContainText(admin.email);
}

test("a member is refused with Access Denied, an administrator finds the dashboard in the menu and every tab", async ({ page, browser, member }) => {
  test.setTimeout(240_000);
  await page.goto("/");
  // The avatar menu's Admin entry, for administrators only.
  await expect(page.locator('a[href="/admin"]').first()).toBeAttached();
  for (const [tab, heading] of [
    ["Memorials", "Memorials"],
    ["Tributes", "Pending tributes"],
    ["Users", "Users"],
    ["Products", "Products"],
    ["Orders", "Orders"],
    ["News", "News"],
    ["Feedback", "Feedback"],
    ["Contact", "Contact messages"],
    ["Analytics", "Analytics"],
    ["Audit log", "Audit log"],
  ] as const) {
    if (!page.url().includes("/admin")) await page.goto("/admin");
    await page.getByRole("navigation", { name: "Admin dashboard" }).getByRole("link", { name: tab, exact: true }).click();
    await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
    await expectAccessible(page);
  }

  const context = await browser.newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled !== false, baseURL: process.env.E2E_BASE_URL });
  const other = await context.newPage();
  await loginAs(other, member);
  const res = await other.goto("/admin/users");
  expect(res?.status()).toBe(403);
  await expect(other.getByText("You don't have permission to access the admin dashboard.")).toBeVisible();
  await context.close();
});

test("create a product (field errors kept with the input) and see it in the shop", async ({ page }) => {
  const name = `Admin quilt ${randomBytes(3).toString("hex")}`;
  await page.goto("/admin/products/new");
  await expectAccessible(page);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Price (£)").fill("twelve");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByText("Please enter a valid price")).toBeVisible();
  await expect(page.getByText("Please fill in all required fields").first()).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue(name);
  await expect(page.getByLabel("Price (£)")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);

  await page.getByLabel("Description").fill("A quilt sewn from a loved one's shirts.");
  await page.getByLabel("Category").selectOption("Textiles");
  await page.getByLabel("Price (£)").fill("48.50");
  await page.getByLabel("Stock quantity").fill("3");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(toast(page)).toContainText("Product created");
  const { rows } = await db().query(`SELECT id, price FROM products WHERE name = $1`, [name]);
  expect(rows[0].price).toBe(4850);
  try {
    await page.goto("/products?category=service");
    await expect(page.getByRole("article", { name })).toContainText("£48.50");
    await expectAudited(page, name, ["Created a product"]);
  } finally {
    await retireTestProducts(rows);
  }
});

test("edit a product while it sells: the sale is kept; a changed stock figure is refused with the current one", async ({ page }) => {
  const product = await createTestProduct({ category: "Urns", price: 12000, stock: 16 });
  try {
    await page.goto(`/admin/products/${product.id}`);
    await expect(page.getByLabel("Stock quantity")).toHaveValue("16");
    // The Active box is not required: a product can be saved inactive.
    await expect(page.getByLabel("Active (shown in the shop)")).not.toHaveAttribute("required", /.*/);
    // Three sold while the form is open.
    await db().query(`UPDATE products SET "stockQuantity" = "stockQuantity" - 3 WHERE id = $1`, [product.id]);
    await page.getByLabel("Price (£)").fill("125.00");
    await page.getByRole("button", { name: "Save product" }).click();
    await expect(toast(page)).toContainText("Product updated");
    const { rows } = await db().query(`SELECT price, "stockQuantity" FROM products WHERE id = $1`, [product.id]);
    expect(rows[0]).toEqual({ price: 12500, stockQuantity: 13 });

    // The stock itself changed, and one more sold meanwhile: nothing saved, the current figure beside the field.
    await page.goto(`/admin/products/${product.id}`);
    await expect(page.getByLabel("Stock quantity")).toHaveValue("13");
    await db().query(`UPDATE products SET "stockQuantity" = "stockQuantity" - 1 WHERE id = $1`, [product.id]);
    await page.getByLabel("Stock quantity").fill("20");
    await page.getByRole("button", { name: "Save product" }).click();
    await expect(page.getByLabel("Stock quantity")).toHaveAccessibleDescription(/Stock changed to 12 while you were editing/);
    await expect(page.getByLabel("Stock quantity")).toHaveValue("20");
    expect(await stockOf(product)).toBe(12);
    await expectAccessible(page);
    // Saved again, knowingly: now it is set.
    await page.getByRole("button", { name: "Save product" }).click();
    await expect(toast(page)).toContainText("Product updated");
    expect(await stockOf(product)).toBe(20);
  } finally {
    await retireTestProducts([product]);
  }
});

test("change an order's status, then cancel it: refunded once, the customer emailed, both in the audit log", async ({ page, member }) => {
  const product = await createTestProduct({ category: "Textiles", price: 2000 });
  const { orderId, paymentId } = await createTestCheckout(member, product, { placed: true });
  const customer = `buyer-${randomBytes(4).toString("hex")}@example.com`;
  await db().query(`UPDATE orders SET "customerEmail" = $2 WHERE id = $1`, [orderId, customer]);
  try {
    await page.goto(`/admin/orders?q=${paymentId}`);
    const order = page.getByRole("listitem").filter({ hasText: customer });
    await expect(order).toContainText("Paid");
    await expect(order).toContainText("Test order");
    await expectAccessible(page);
    await order.getByLabel("Status").selectOption("processing");
    await order.getByRole("button", { name: /Update status/ }).click();
    await expect(toast(page)).toContainText("Status updated");
    await expect(order).toContainText("Processing");

    const stockBefore = await stockOf(product);
    await confirm(page, order, "Cancel and refund…", "Yes, cancel and refund");
    await expect(toast(page)).toContainText("refunded");
    // The item is back in stock.
    expect(await stockOf(product)).toBe(stockBefore + 1);
    await expect(order).toContainText("Refunded");
    await expect(order).toContainText("Cancelled");
    const { rows } = await db().query(`SELECT "amountRefunded" FROM test_payments WHERE id = $1`, [paymentId]);
    expect(rows[0].amountRefunded).toBe(2160);
    const mail = await nextMailTo(customer, 0, 30_000);
    expect(mail.subject).toContain("cancelled and refunded");
    expect(mail.text).toContain("£21.60");
    expect(mail.text).toContain(product.name);
    expect(mail.text).toContain(paymentId);
    expect(mail.text).toMatch(/https?:\/\/[^\s]+\/orders/);
    await page.goto(`/admin/audit?q=${orderId}`);
    await expect(page.getByTestId("audit-entry").filter({ hasText: "Refunded an order" })).toHaveCount(1);
    await expect(page.getByTestId("audit-entry").filter({ hasText: "Changed an order's status" })).toHaveCount(1);
  } finally {
    await retireTestProducts([product]);
  }
});

test("ship an order with its carrier and tracking number: the buyer sees them in My Orders and is emailed the amount", async ({ page, browser, member }) => {
  const product = await createTestProduct({ category: "Frames", price: 3000 });
  const { orderId, paymentId } = await createTestCheckout(member, product, { placed: true });
  const customer = `ship-${randomBytes(4).toString("hex")}@example.com`;
  await db().query(`UPDATE orders SET "customerEmail" = $2 WHERE id = $1`, [orderId, customer]);
  const context = await browser.newContext({ javaScriptEnabled: test.info().project.use.javaScriptEnabled !== false, baseURL: process.env.E2E_BASE_URL });
  try {
    await page.goto(`/admin/orders?q=${paymentId}`);
    const order = page.getByRole("listitem").filter({ hasText: customer });
    await expect(order).toContainText("Paid");
    // A tracking number of spaces: the message beside its field, the carrier kept.
    await order.getByLabel("Carrier").fill("Royal Mail");
    await order.getByLabel("Tracking number").fill("   ");
    await order.getByRole("button", { name: /Mark as shipped/ }).click();
    await expect(page.getByRole("listitem").filter({ hasText: customer }).getByLabel("Tracking number")).toHaveAccessibleDescription(
      "Please enter the tracking number",
    );
    await expect(order.getByLabel("Carrier")).toHaveValue("Royal Mail");
    await expectAccessible(page);
    await order.getByLabel("Tracking number").fill("RM123456785GB");
    await order.getByRole("button", { name: /Mark as shipped/ }).click();
    await expect(toast(page)).toContainText("Order shipped");
    await expect(order).toContainText("Shipped");
    await expect(order).toContainText("Royal Mail, tracking RM123456785GB");
    await expectAccessible(page);

    const mail = await nextMailTo(customer, 0, 30_000);
    expect(mail.subject).toMatch(/Your Everlight order [0-9A-F]{8} has shipped$/);
    for (const text of ["Royal Mail", "RM123456785GB", "£32.40", product.name, paymentId]) expect(mail.text).toContain(text);
    expect(mail.text).toMatch(/https?:\/\/[^\s]+\/orders/);

    const buyer = await context.newPage();
    await loginAs(buyer, member);
    await buyer.goto("/orders");
    const mine = buyer.getByTestId("order").filter({ hasText: product.name });
    await expect(mine).toContainText("Shipped");
    await expect(mine.getByTestId("shipment")).toContainText("with Royal Mail. Tracking number: RM123456785GB");
    await page.goto(`/admin/audit?q=${orderId}`);
    await expect(page.getByTestId("audit-entry").filter({ hasText: "Shipped an order" })).toHaveCount(1);
  } finally {
    await context.close();
    await retireTestProducts([product]);
  }
});

test("approve a tribute on an administrator's memorial; a member's shows the restriction note and no actions", async ({ page, member }) => {
  const token = `tr${randomBytes(4).toString("hex")}`;
  const own = await createTestMemorial(admin, { firstName: `Own${token}` });
  const theirs = await createTestMemorial(member, { firstName: `Theirs${token}` });
  await createTestTribute(own, { authorName: `Ann ${token}`, content: `On the admin's memorial ${token}` });
  await createTestTribute(theirs, { authorName: `Ben ${token}`, content: `On the member's memorial ${token}` });
  await page.goto(`/admin/tributes?q=${token}`);
  await expectAccessible(page);
  const onTheirs = page.getByRole("listitem", { name: new RegExp(`Tribute by Ben ${token}`) });
  await expect(onTheirs).toContainText("Actions restricted: Memorial created by non-admin user.");
  await expect(onTheirs.getByRole("button")).toHaveCount(0);
  const onOwn = page.getByRole("listitem", { name: new RegExp(`Tribute by Ann ${token}`) });
  await onOwn.getByRole("button", { name: /Approve/ }).click();
  await expect(toast(page)).toContainText("Tribute approved");
  await expect(onOwn).toHaveCount(0);
  const { rows } = await db().query(`SELECT "isApproved" FROM tributes WHERE "memorialId" = $1`, [own.id]);
  expect(rows[0].isApproved).toBe(true);
  await expectAudited(page, `Ann ${token}`, ["Approved a tribute"]);
});

test("grant and remove administrator rights, each after a confirmation", async ({ page, member }) => {
  await page.goto(`/admin/users?q=${member.email}`);
  const row = page.getByRole("listitem", { name: new RegExp(member.email) });
  await expectAccessible(page);
  await confirm(page, row, "Make admin…", "Yes, make administrator");
  await expect(toast(page)).toContainText("User updated");
  await expect(row.getByText("Admin", { exact: true })).toBeVisible();
  expect((await db().query(`SELECT "isAdmin" FROM users WHERE id = $1`, [member.id])).rows[0].isAdmin).toBe(true);
  await confirm(page, row, "Remove admin rights…", "Yes, remove admin rights");
  await expect(toast(page)).toContainText("is no longer an administrator");
  expect((await db().query(`SELECT "isAdmin" FROM users WHERE id = $1`, [member.id])).rows[0].isAdmin).toBe(false);
  await expectAudited(page, member.email, ["Made a user an administrator", "Removed a user's administrator rights"]);
});

test("one's own rights go only with the tick box, and one's own account is not offered for deletion", async ({ page }) => {
  await page.goto(`/admin/users?q=${admin.email}`);
  const row = page.getByRole("listitem", { name: new RegExp(admin.email) });
  await expect(row.getByText("Delete…")).toHaveCount(0);
  await row.getByText("Remove admin rights…").click();
  const tick = row.getByLabel(/These are my own rights/);
  await expect(tick).toHaveAttribute("required", "");
  // The browser will not send the form without the tick, with or without JavaScript.
  await row.getByRole("button", { name: "Yes, remove admin rights" }).click();
  expect((await db().query(`SELECT "isAdmin" FROM users WHERE id = $1`, [admin.id])).rows[0].isAdmin).toBe(true);
});

test("delete a user after the warning: they and their memorials are hidden, they cannot sign in to undo it, and Restore brings them back", async ({
  page,
  browser,
}) => {
  const doomed = await createTestUser({ firstName: "Doomed", lastName: "Member" });
  const memorial = await createTestMemorial(doomed, { visibility: "public", isPublished: true });
  await page.goto(`/admin/users?q=${doomed.email}`);
  const row = page.getByRole("listitem", { name: new RegExp(doomed.email) });
  await row.getByText("Delete…").click();
  await expect(row).toContainText("Deleting this user hides their account and memorials at once");
  await row.getByRole("button", { name: "Yes, delete this user" }).click();
  await expect(toast(page)).toContainText("User deleted");
  await expect(toast(page)).toContainText("They can be restored below for 30 days.");
  const gone = await page.goto(`/memorials/${memorial.id}`);
  expect(gone?.status()).toBe(404);

  // Removed by moderation: its owner's right password signs nothing in and offers no way back.
  const them = await anotherPersonsPage(browser);
  await them.goto("/login");
  await them.getByLabel("Email").fill(doomed.email);
  await them.getByLabel("Password", { exact: true }).fill(doomed.password);
  await them.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(them.getByRole("alert")).toContainText("This account was closed by our moderators");
  await expect(them.getByRole("button", { name: "Restore my account" })).toHaveCount(0);
  await expectAccessible(them);
  await them.context().close();

  await page.goto("/admin/users");
  const deleted = page.getByRole("region", { name: /Recently deleted accounts/ });
  await expect(deleted).toContainText(doomed.email);
  await deleted.getByRole("button", { name: "Restore Doomed Member" }).click();
  await expect(toast(page)).toContainText("Account restored");
  expect((await page.goto(`/memorials/${memorial.id}`))?.status()).toBe(200);
  await expectAudited(page, doomed.email, ["Deleted a user", "Restored a deleted account"]);
});

test("a memorial removed by an administrator stays removed: its owner sees why and how to appeal, with no Restore", async ({ page, browser, member }) => {
  const memorial = await createTestMemorial(member, { visibility: "public", isPublished: true });
  await page.goto(`/admin?q=${encodeURIComponent(memorial.firstName)}`);
  const card = page
    .getByRole("listitem")
    .filter({ hasText: `Owner: ${member.firstName}` })
    .filter({ hasText: memorial.firstName });
  await confirm(page, card, "Delete…", "Yes, delete this memorial");
  await expect(toast(page)).toContainText("Memorial deleted");

  const owner = await anotherPersonsPage(browser);
  await loginAs(owner, member);
  await owner.goto("/my-memorials");
  const deleted = owner.getByRole("region", { name: /Recently deleted/ });
  await expect(deleted).toContainText("Removed by our moderators");
  await expect(deleted).toContainText("cannot be restored from here");
  await expect(deleted.getByRole("link", { name: "write to us" })).toHaveAttribute("href", "/contact");
  await expect(deleted.getByRole("button", { name: /Restore/ })).toHaveCount(0);
  await expectAccessible(owner);
  await owner.context().close();

  await page.goto("/admin");
  const restorable = page.getByRole("region", { name: /Recently deleted memorials/ });
  await expect(restorable).toContainText("removed by an administrator");
  await restorable.getByRole("button", { name: new RegExp(`Restore .*${memorial.firstName}`) }).click();
  await expect(toast(page)).toContainText("Memorial restored");
  expect((await page.goto(`/memorials/${memorial.id}`))?.status()).toBe(200);
});
