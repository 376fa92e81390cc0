import type { Page } from "@playwright/test";
import {
  addTestCartItem,
  createTestCheckout,
  createTestProduct,
  createTestUser,
  db,
  deleteTestUser,
  loginAs,
  retireTestProducts,
  stockOf,
  TEST_PASSWORD,
  type TestProduct,
} from "./db";
import { expect, expectAccessible, test, toast } from "./fixtures";
import { mailWithSubject, nextMailTo } from "./mail";

// The shop (products, basket, checkout, order confirmation and My Orders), with JavaScript on and off,
// paid through the built-in test provider (Stripe.js cannot load here, as the tests run offline; the
// Stripe path is proven over HTTP in test/stripe.test.ts).
// Test products are "made to order" (Textiles), a small group, so each test finds its own on the first page.

const SHOP = "/products?category=service";
const made: TestProduct[] = [];
async function product(fields: Parameters<typeof createTestProduct>[0] = {}) {
  const p = await createTestProduct({ category: "Textiles", ...fields });
  made.push(p);
  return p;
}
test.afterAll(async () => {
  await retireTestProducts(made);
});

const card = (page: Page, p: TestProduct) => page.getByRole("article", { name: p.name });
const basketLine = (page: Page, p: TestProduct) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: p.name }) });

test("a visitor asked to sign in to add to the basket comes back to the product", async ({ page, member }) => {
  const quilt = await product({ price: 4200 });
  await page.goto(SHOP);
  await expect(page.getByRole("heading", { level: 1, name: "Memorial Products" })).toBeVisible();
  await expect(card(page, quilt)).toContainText("£42.00");
  await expectAccessible(page);
  await card(page, quilt)
    .getByRole("button", { name: `Add to cart, ${quilt.name}` })
    .click();
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  await expect(toast(page)).toContainText("Please log in to add items to cart");
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/products\\?category=service#product-${quilt.id}$`));
  await card(page, quilt)
    .getByRole("button", { name: `Add to cart, ${quilt.name}` })
    .click();
  await expect(toast(page)).toContainText("Added to cart");
  await expect(card(page, quilt)).toContainText("In your basket: 1.");
  await expect(page.getByRole("link", { name: "Basket, 1 item" })).toBeVisible();
});

test("buy two products: quantities up to the stock, remove one, shipping errors kept with the input, pay, confirmation, My Orders, stock, basket and email", async ({
  page,
  member,
}) => {
  test.setTimeout(120_000);
  const urn = await product({ price: 2500, stock: 3 });
  const shawl = await product({ price: 1999, stock: 5 });
  const soldOut = await product({ price: 999, stock: 0 });
  await loginAs(page, member);

  // The shop: two added, the sold-out one cannot be.
  await page.goto(SHOP);
  await expect(card(page, soldOut).getByRole("button", { name: "Out of stock" })).toBeDisabled();
  for (const p of [urn, shawl]) {
    await card(page, p)
      .getByRole("button", { name: `Add to cart, ${p.name}` })
      .click();
    await expect(toast(page)).toContainText("Added to cart");
  }
  await expect(page.getByRole("link", { name: "Basket, 2 items" })).toBeVisible();

  // The basket: + up to the stock, then disabled; a quantity above the stock refused next to its field.
  await page.goto("/basket");
  await expect(page.getByRole("heading", { level: 1, name: "Your Basket" })).toBeVisible();
  const urnLine = basketLine(page, urn);
  const plus = urnLine.getByRole("button", { name: `Increase quantity of ${urn.name}` });
  await plus.click();
  await expect(toast(page)).toContainText("Quantity: 2.");
  await plus.click();
  await expect(toast(page)).toContainText("Quantity: 3.");
  await expect(plus).toBeDisabled();
  await expect(urnLine.getByRole("spinbutton", { name: "Quantity", exact: true })).toHaveValue("3");
  await urnLine.getByRole("spinbutton", { name: "Quantity", exact: true }).fill("4");
  await urnLine.getByRole("button", { name: "Update" }).click();
  await expect(urnLine.getByRole("spinbutton", { name: "Quantity", exact: true })).toHaveValue("4");
  await expect(urnLine.getByRole("spinbutton", { name: "Quantity", exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(urnLine.getByRole("spinbutton", { name: "Quantity", exact: true })).toHaveAccessibleDescription(/Only 3 in stock/);
  await expectAccessible(page);
  await basketLine(page, shawl)
    .getByRole("button", { name: `Remove ${shawl.name}` })
    .click();
  await expect(toast(page)).toContainText("Item removed");
  await expect(basketLine(page, shawl)).toHaveCount(0);
  await expect(page.getByTestId("basket-subtotal")).toHaveText("£75.00");
  await expect(page.getByTestId("basket-tax")).toHaveText("£6.00");
  await expect(page.getByTestId("basket-total")).toHaveText("£81.00");

  // Checkout, step 1: the messages next to their fields, what was typed kept.
  await page.getByRole("link", { name: "Proceed to checkout" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
  await expect(page.getByLabel("Country")).toHaveValue("US");
  await expect(page.getByLabel("Email")).toHaveValue(member.email);
  await page.getByLabel("First name").fill("");
  await page.getByLabel("Phone").fill("12345");
  await page.getByLabel("Address").fill("14 Rowan Close");
  await page.getByLabel("City").fill("Harrogate");
  await page.getByLabel("State / County").fill("North Yorkshire");
  await page.getByLabel("ZIP / Postcode").fill("HG1");
  await page.getByLabel("Country").selectOption("GB");
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByLabel("First name")).toHaveAccessibleDescription("First name is required");
  await expect(page.getByLabel("Phone")).toHaveAccessibleDescription("Phone number must be at least 10 digits");
  await expect(page.getByLabel("ZIP / Postcode")).toHaveAccessibleDescription("ZIP code must be at least 5 digits");
  await expect(page.getByLabel("Address")).toHaveValue("14 Rowan Close");
  await expect(page.getByLabel("Phone")).toHaveValue("12345");
  await expect(page.getByLabel("Country")).toHaveValue("GB");
  await expectAccessible(page);
  await page.getByLabel("First name").fill("Margaret");
  await page.getByLabel("Phone").fill("01423 555 0101");
  await page.getByLabel("ZIP / Postcode").fill("HG1 2AB");
  await page.getByRole("button", { name: "Continue to Payment" }).click();

  // Step 2: the test payment, clearly labelled.
  await expect(page.getByRole("heading", { level: 2, name: "Test payment — no card is charged" })).toBeVisible();
  await expect(page.getByText("14 Rowan Close, Harrogate, North Yorkshire HG1 2AB, United Kingdom")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Pay £81.00 (test)" }).click();

  // The confirmation.
  await expect(page.getByRole("heading", { level: 1, name: "Order Placed Successfully" })).toBeVisible();
  await expect(page.getByText("Test order", { exact: true })).toBeVisible();
  const paymentId = (await page.getByTestId("payment-id").textContent())!;
  expect(paymentId).toMatch(/^testpay_/);
  await expect(page).toHaveURL(`/order-confirmation?payment_intent=${paymentId}`);
  await expect(page.getByRole("heading", { name: "What's Next" })).toBeVisible();
  await expect(page.getByText("A confirmation email is on its way to you now.")).toBeVisible();
  await expectAccessible(page);

  // My Orders, the stock, the basket, the email.
  await page.getByRole("link", { name: "View My Orders" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "My Orders" })).toBeVisible();
  const order = page.getByTestId("order");
  await expect(order).toHaveCount(1);
  // Paid, not "Pending".
  await expect(order).toContainText("Paid");
  await expect(order).not.toContainText("Pending");
  await expect(order).toContainText("Test order");
  await expect(order).toContainText(urn.name);
  await expect(order).toContainText("£81.00");
  await expectAccessible(page);
  expect(await stockOf(urn)).toBe(0);
  expect(await stockOf(shawl)).toBe(5);
  await expect(page.getByRole("link", { name: "Basket, 0 items" })).toBeVisible();
  await page.goto("/basket");
  await expect(page.getByText("Your basket is empty.")).toBeVisible();
  const mail = await nextMailTo(member.email);
  expect(mail.subject).toMatch(/^\[Test order\] Your Everlight order [0-9A-F]{8} is confirmed$/);
  expect(mail.text).toContain(urn.name);
  expect(mail.text).toContain("£81.00");
  // The confirmation does not promise itself; it says how shipping will be told.
  expect(mail.text).not.toContain("within 5 minutes");
  expect(mail.text).toContain("carrier and tracking number");
});

test("checkout with an empty basket says so and leads back to the basket", async ({ page, member }) => {
  await loginAs(page, member);
  await page.goto("/checkout");
  await expect(page.getByText("Your basket is empty. There is nothing to check out.")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Go to your basket" }).click();
  await expect(page).toHaveURL("/basket");
});

test("an item that sold out while paying is refunded, and the buyer is told plainly", async ({ page, member }) => {
  const lamp = await product({ price: 3000, stock: 1 });
  await addTestCartItem(member, lamp);
  const { checkoutId, paymentId } = await createTestCheckout(member, lamp, { email: member.email });
  // Someone else bought the last one meanwhile.
  await db().query(`UPDATE products SET "stockQuantity" = 0 WHERE id = $1`, [lamp.id]);
  await loginAs(page, member);
  await page.goto(`/checkout?payment=${checkoutId}`);
  await page.getByRole("button", { name: "Pay £32.40 (test)" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment refunded" })).toBeVisible();
  await expect(page.getByText(`Sorry: ${lamp.name} sold out while you were paying, so no order was placed.`)).toBeVisible();
  await expectAccessible(page);
  await page.goto("/orders");
  await expect(page.getByText("You have not placed any orders yet.")).toBeVisible();
  await page.goto("/basket");
  await expect(basketLine(page, lamp)).toContainText("This item is out of stock.");
  await expect(page.getByRole("link", { name: "Proceed to checkout" })).toHaveCount(0);

  // The refund is receipted: the amount, why, the item and the payment's reference.
  const refund = await mailWithSubject(member.email, "[Test payment] Your Everlight payment of £32.40 has been refunded", 20_000);
  expect(refund.text).toContain(`${lamp.name} sold out while you were paying`);
  expect(refund.text).toContain(`Payment reference: ${paymentId}`);
});

test("a confirmation address without a payment, or with someone else's, shows Invalid Order and nothing of the order", async ({ page, member }) => {
  const other = await createTestUser();
  try {
    const frame = await product();
    const { paymentId } = await createTestCheckout(other, frame, { placed: true });
    await loginAs(page, member);
    await page.goto("/order-confirmation");
    await expect(page.getByRole("heading", { level: 1, name: "Invalid Order" })).toBeVisible();
    await expect(page.getByText("No payment information found")).toBeVisible();
    await expectAccessible(page);
    await page.goto(`/order-confirmation?payment_intent=${paymentId}`);
    await expect(page.getByRole("heading", { level: 1, name: "Invalid Order" })).toBeVisible();
    await expect(page.getByText(frame.name)).toHaveCount(0);
    await page.goto(`/order-success?payment_intent=${paymentId}`);
    await expect(page.getByRole("heading", { level: 1, name: "Invalid Order" })).toBeVisible();
  } finally {
    await deleteTestUser(other);
  }
});

test("the basket, checkout and My Orders ask a visitor to sign in first", async ({ page }) => {
  for (const path of ["/basket", "/checkout", "/orders"]) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`/login\\?redirectTo=${encodeURIComponent(path)}$`));
  }
});
