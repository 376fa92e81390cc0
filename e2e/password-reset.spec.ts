import { createTestSession, db } from "./db";
import { expect, expectAccessible, test, toast } from "./fixtures";
import { countMailTo, linkTo, nextMailTo } from "./mail";

// "Forgot your password?", with JavaScript on and off: the link arrives by email (read from
// the server's outbox), works once for an hour, ends every old session and signs the member in.

test("a member who forgot their password gets a link by email, chooses a new one and is signed in; old sessions end", async ({
  page,
  member,
  browser,
  baseURL,
}) => {
  const before = countMailTo(member.email);
  // Signed in elsewhere before the reset: that session must end with it.
  const elsewhere = await browser.newContext({ baseURL });
  const { value } = await createTestSession(member);
  await elsewhere.addCookies([{ name: "__session", value, domain: new URL(baseURL!).hostname, path: "/" }]);

  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Email").fill(member.email);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "If an account exists for that address" }).first()).toBeVisible();

  const mail = await nextMailTo(member.email, before);
  expect(mail.subject).toBe("Reset your Everlight password");
  await page.goto(linkTo(mail, "/reset-password?token="));
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("New password", { exact: true }).fill("Brand2new-pass");
  await page.getByLabel("Confirm new password").fill("Brand2new-pass");
  await page.getByRole("button", { name: "Save and sign in" }).click();
  await expect(toast(page)).toContainText("Password changed");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(member.firstName);

  // The session from before is over.
  const old = await elsewhere.newPage();
  await old.goto("/account");
  await expect(old).toHaveURL(/\/login/);
  await elsewhere.close();

  // And the member was told.
  const told = await nextMailTo(member.email, before + 1);
  expect(told.subject).toBe("Your Everlight password was changed");
});

test("a used, an expired or an altered link is refused with a way to ask again", async ({ page, member }) => {
  const ask = async () => {
    const seen = countMailTo(member.email);
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(member.email);
    await page.getByRole("button", { name: /Send/ }).click();
    await expect(page.getByText("If an account exists for that address").first()).toBeVisible();
    return linkTo(await nextMailTo(member.email, seen), "/reset-password?token=");
  };

  // Used once, then again.
  const link = await ask();
  const sent = countMailTo(member.email);
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill("Brand2new-pass");
  await page.getByLabel("Confirm new password").fill("Brand2new-pass");
  await page.getByRole("button", { name: "Save and sign in" }).click();
  await expect(page).toHaveURL(/\/$/);
  // The "password changed" email goes out after the answer: waited for, so that the next link asked for is the next email.
  expect((await nextMailTo(member.email, sent)).subject).toBe("Your Everlight password was changed");
  await page.context().clearCookies();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  await expect(page.getByText("has already been used")).toBeVisible();
  await expectAccessible(page);

  // Altered: one character changed.
  const fresh = await ask();
  const altered = fresh.replace(/token=(.)/, (_m, c: string) => `token=${c === "A" ? "B" : "A"}`);
  await page.goto(altered);
  await expect(page.getByText("does not work")).toBeVisible();

  // Expired: an hour has passed (moved back in the database).
  await db().query(`UPDATE password_reset_tokens SET "expiresAt" = now() - interval '1 minute' WHERE "userId" = $1 AND "usedAt" IS NULL`, [member.id]);
  await page.goto(fresh);
  await expect(page.getByText("has expired")).toBeVisible();
  await page.getByRole("link", { name: "Send me a new link" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test("an address without an account gets the same answer and no email; asking too often is refused", async ({ page, member }) => {
  const stranger = `nobody-${Date.now()}@example.test`;
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(stranger);
  await page.getByRole("button", { name: "Send me a link" }).click();
  await expect(page.getByText("If an account exists for that address").first()).toBeVisible();
  await page.waitForTimeout(1500); // the worker writes mail within a second or so; nothing may come
  expect(countMailTo(stranger)).toBe(0);

  for (let i = 0; i < 3; i++) {
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(member.email);
    await page.getByRole("button", { name: /Send/ }).click();
    await expect(page.getByText("If an account exists for that address").first()).toBeVisible();
  }
  await page.getByLabel("Email").fill(member.email);
  await page.getByRole("button", { name: /Send/ }).click();
  await expect(page.getByText("Too many password reset requests.")).toBeVisible();
  await expectAccessible(page);
});
