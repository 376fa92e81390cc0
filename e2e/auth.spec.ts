import { randomBytes } from "node:crypto";
import { createTestSession, db, loginAs } from "./db";
import { expect, expectAccessible, test, toast } from "./fixtures";

// Register, sign in, sign out, wrong password, protected pages — with JavaScript on and off.

test("registration shows every validation message on its field, keeps the input, then creates the account", async ({ page }) => {
  await page.goto("/register");
  await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
  await page.getByLabel("First name").fill("A");
  await page.getByLabel("Last name").fill("B");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByLabel("Confirm password").fill("different");
  await page.getByRole("button", { name: "Create Account" }).click();

  const expectError = async (label: string, message: string, exact = false) => {
    const field = page.getByLabel(label, { exact });
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  };
  await expectError("First name", "First name must be at least 2 characters");
  await expectError("Last name", "Last name must be at least 2 characters");
  await expectError("Email", "Please enter a valid email address");
  await expectError("Password", "Password must be at least 8 characters", true);
  await expectError("Password", "Password must contain at least one uppercase letter", true);
  await expectError("Password", "Password must contain at least one number", true);
  await expectError("Confirm password", "Passwords don't match");
  // Each broken rule is said once, in the checklist, not again as an error beneath it; a rule kept is not an error.
  for (const rule of [/at least 8 characters/i, /uppercase letter/i]) await expect(page.getByText(rule)).toHaveCount(1);
  // What was typed is still there (except passwords, which are never sent back).
  await expect(page.getByLabel("First name")).toHaveValue("A");
  await expect(page.getByLabel("Email")).toHaveValue("not-an-email");
  await expectAccessible(page);

  const email = `New.Person.${randomBytes(4).toString("hex")}@Example.com`;
  await page.getByLabel("First name").fill("Nia");
  await page.getByLabel("Last name").fill("Jones");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("Secret123");
  await page.getByLabel("Confirm password").fill("Secret123");
  await page.getByRole("button", { name: "Create Account" }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page)).toContainText("Account created successfully!");
  const { rows } = await db().query(`SELECT email FROM users WHERE email = $1`, [email.toLowerCase()]);
  expect(rows).toHaveLength(1);
  await db().query(`DELETE FROM users WHERE email = $1`, [email.toLowerCase()]);
});

test("registering with an email that is taken says so on the email field", async ({ page, member }) => {
  await page.goto("/register");
  await page.getByLabel("First name").fill("Nia");
  await page.getByLabel("Last name").fill("Jones");
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill("Secret123");
  await page.getByLabel("Confirm password").fill("Secret123");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByLabel("Email")).toHaveAccessibleDescription(/An account with this email already exists/);
});

test("a member signs in, sees the signed-in navigation, and signs out", async ({ page, member }) => {
  await page.goto("/login");
  await expectAccessible(page);
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Sign In" }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page)).toContainText("Welcome back!");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "My Memorials" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Create Memorial" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Login" })).toHaveCount(0);

  const menu = nav.getByLabel(`Account menu for ${member.firstName} ${member.lastName}`);
  await menu.click();
  await expect(nav.getByRole("link", { name: "My Account" })).toBeVisible();
  for (const name of ["Vault", "Friends", "My Orders", "Subscription", "Contact"]) {
    await expect(nav.getByRole("link", { name, exact: true })).toHaveCount(1);
  }
  await expect(nav.getByRole("link", { name: "Admin" })).toHaveCount(0);
  await expectAccessible(page);

  const cookieBefore = (await page.context().cookies()).find((c) => c.name === "__session");
  expect(cookieBefore).toBeDefined();
  await nav.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(nav.getByRole("link", { name: "Login" })).toBeVisible();

  // The old cookie no longer opens anything: its session row is gone.
  await page.context().addCookies([cookieBefore!]);
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
});

test("a wrong password says so under 'Login failed' and keeps the email", async ({ page, member }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill("Wrong-password-1");
  await page.getByRole("button", { name: "Sign In" }).click();
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("Login failed");
  await expect(alert).toContainText("Invalid email or password. Please try again.");
  await expect(page.getByLabel("Email")).toHaveValue(member.email);
  await expectAccessible(page);
});

test("a visitor sent to sign in from a protected page lands back on it", async ({ page, member }) => {
  await page.goto("/account/security");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount%2Fsecurity$/);
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/account\/security$/);
});

test("sign-in never redirects to another site", async ({ page, member }) => {
  await page.goto("/login?redirectTo=//evil.example/");
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(new RegExp(`^${process.env.E2E_BASE_URL}/$`));
});

// Every login-required route;
// each screen guards itself.
const LOGIN_REQUIRED_PATHS = [
  "/my-memorials",
  "/memorials/create",
  "/memorials/:id/edit",
  "/basket",
  "/checkout",
  "/order-success",
  "/order-confirmation",
  "/account",
  "/account/security",
  "/orders",
  "/admin",
  "/vault",
  "/subscription",
  "/friends",
];

test("every login-required route sends a visitor to sign in", async ({ request }) => {
  for (const pattern of LOGIN_REQUIRED_PATHS) {
    const path = pattern.replace(":id", "00000000-0000-4000-8000-000000000000");
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(302);
    expect(response.headers().location, path).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
  }
});

test("/admin answers a member with Access Denied (403), and an administrator's menu offers Admin", async ({ page, member }) => {
  await loginAs(page, member);
  const response = await page.goto("/admin");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "Access Denied" })).toBeVisible();
  await expect(page.getByText("You don't have permission to access the admin dashboard.")).toBeVisible();

  const { rows } = await db().query(`UPDATE users SET "isAdmin" = true WHERE id = $1 RETURNING id`, [member.id]);
  expect(rows).toHaveLength(1);
  await page.goto("/");
  await page
    .getByRole("navigation", { name: "Main" })
    .getByLabel(/Account menu/)
    .click();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" })).toHaveCount(1);
});

test("the basket badge counts items and caps at 99+", async ({ page, member }) => {
  const { rows } = await db().query(
    `INSERT INTO products (name, description, price, category, "stockQuantity") VALUES ('Badge test candle', 'x', 500, 'Candles', 500) RETURNING id`,
  );
  await db().query(`INSERT INTO cart_items ("userId", "productId", quantity, price) VALUES ($1, $2, 7, 500)`, [member.id, rows[0].id]);
  await loginAs(page, member);
  await page.goto("/");
  await expect(page.getByTestId("basket-badge")).toHaveText("7");
  await expect(page.getByRole("link", { name: "Basket, 7 items" })).toBeVisible();
  await db().query(`UPDATE cart_items SET quantity = 120 WHERE "userId" = $1`, [member.id]);
  await page.goto("/");
  await expect(page.getByTestId("basket-badge")).toHaveText("99+");
  await db().query(`DELETE FROM products WHERE id = $1`, [rows[0].id]);
});

test("the mobile menu offers the signed-in links except Subscription (Friends included: README)", async ({ page, member }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await loginAs(page, member);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByLabel("Menu", { exact: true }).click();
  const menu = page.getByRole("navigation", { name: "Main" }).locator("details").last();
  for (const name of ["Home", "News", "My Memorials", "Vault", "Memorials", "Products", "My Account", "Friends", "My Orders", "Contact"]) {
    await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
  }
  await expect(menu.getByRole("link", { name: "Subscription" })).toHaveCount(0);
  await expect(menu.getByRole("button", { name: "Log out" })).toBeVisible();
  await expectAccessible(page);
});

test("a session row deleted on the server signs the browser out at once", async ({ page, member }) => {
  const { sid, value } = await createTestSession(member);
  const url = new URL(process.env.E2E_BASE_URL!);
  await page.context().addCookies([{ name: "__session", value, domain: url.hostname, path: "/" }]);
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "My Memorials" })).toBeVisible();
  await db().query(`DELETE FROM sessions WHERE sid = $1`, [sid]);
  await page.goto("/");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" })).toBeVisible();
});
