import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { createTestMemorial, createTestTribute, db, loginAs } from "./db";
import { expect, expectAccessible, test, toast } from "./fixtures";

// The small things that hurt, on a 390 px phone with JavaScript on and off.

test.use({ viewport: { width: 390, height: 844 } });

const isPublished = async (id: string) => (await db().query(`SELECT "isPublished" FROM memorials WHERE id = $1`, [id])).rows[0].isPublished as boolean;

test("Save Draft on a published memorial says that it takes the memorial offline", async ({ page, member }) => {
  const memorial = await createTestMemorial(member);
  await loginAs(page, member);
  await page.goto(`/memorials/${memorial.id}/edit`);
  await expect(page.getByRole("button", { name: "Save Draft" })).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Unpublish and save as draft" }).click();
  await expect(toast(page)).toContainText("It is now a draft: visitors cannot see it until you publish it again.");
  expect(await isPublished(memorial.id)).toBe(false);
  // A draft has nothing to take offline: the button is plain Save Draft again.
  await page.goto(`/memorials/${memorial.id}/edit`);
  await expect(page.getByRole("button", { name: "Save Draft" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Unpublish and save as draft" })).toHaveCount(0);
});

test.describe("registering", () => {
  async function fillRegistration(page: Page, fields: { first?: string; last?: string; email?: string; password?: string; confirm?: string }) {
    await page.getByLabel("First name").fill(fields.first ?? "");
    await page.getByLabel("Last name").fill(fields.last ?? "");
    await page.getByLabel("Email").fill(fields.email ?? "");
    await page.getByLabel("Password", { exact: true }).fill(fields.password ?? "");
    await page.getByLabel("Confirm password").fill(fields.confirm ?? "");
  }

  test("a new member is welcomed, not welcomed back", async ({ page }) => {
    const email = `new.${randomBytes(4).toString("hex")}@example.com`;
    await page.goto("/register");
    await fillRegistration(page, { first: "Nia", last: "Jones", email, password: "Secret123", confirm: "Secret123" });
    await page.getByRole("button", { name: "Create Account" }).click();
    try {
      await expect(page.getByRole("heading", { level: 1, name: "Welcome, Nia!" })).toBeVisible();
      await expect(page.getByText(/Welcome back/)).toHaveCount(0);
      await expectAccessible(page);
    } finally {
      await db().query(`DELETE FROM users WHERE email = $1`, [email]);
    }
  });

  test("each problem is told once, and an empty confirmation is asked for, not said not to match", async ({ page }) => {
    await page.goto("/register");
    await fillRegistration(page, { first: "   ", last: "Jones", email: "nia@example.com" });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByLabel("First name")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("First name must be at least 2 characters")).toHaveCount(1);
    await expect(page.getByLabel("Confirm password")).toHaveAccessibleDescription("Please confirm your password");
    await expect(page.getByText("Passwords don't match")).toHaveCount(0);
    await expectAccessible(page);
  });

  test("no error appears as a field is left, so the first tap on Create Account is not lost", async ({ page }) => {
    await page.goto("/register");
    await page.getByLabel("First name").fill("A");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("First name")).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("First name must be at least 2 characters")).toHaveCount(0);
    // The one tap checks the whole form.
    await page.getByRole("button", { name: "Create Account" }).click();
    await expect(page.getByLabel("First name")).toHaveAccessibleDescription(/First name must be at least 2 characters/);
    await expect(page.getByLabel("Email")).toHaveAccessibleDescription(/Please enter a valid email address/);
    await expectAccessible(page);
  });
});

test.describe("deleting a memorial", () => {
  test("Cancel goes back to where the member came from", async ({ page, member }) => {
    const memorial = await createTestMemorial(member);
    const name = `${memorial.firstName} ${memorial.lastName}`;
    await loginAs(page, member);

    await page.goto("/my-memorials");
    await page.getByRole("link", { name: `Delete ${name}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Delete memorial" })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/my-memorials$/);

    await page.goto(`/memorials/${memorial.id}/edit`);
    await page.getByRole("link", { name: "Delete memorial" }).click();
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(new RegExp(`/memorials/${memorial.id}/edit$`));
  });

  test("Cancel never leads off the site", async ({ page, member }) => {
    const memorial = await createTestMemorial(member);
    await loginAs(page, member);
    await page.goto(`/memorials/${memorial.id}/delete?returnTo=//evil.example/`);
    await expect(page.getByRole("link", { name: "Cancel" })).toHaveAttribute("href", `/memorials/${memorial.id}`);
    await page.goto(`/memorials/${memorial.id}/delete?returnTo=/my-memorials?page=1`);
    await expect(page.getByRole("link", { name: "Cancel" })).toHaveAttribute("href", "/my-memorials?page=1");
  });
});

test("rejecting a tribute, which deletes someone's words, asks first", async ({ page, member }) => {
  const memorial = await createTestMemorial(member);
  const tribute = await createTestTribute(memorial, { authorName: "Stranger Sam", content: "Words that would be gone for good." });
  const stored = async () => (await db().query(`SELECT count(*)::int AS n FROM tributes WHERE id = $1`, [tribute.id])).rows[0].n as number;
  await loginAs(page, member);
  await page.goto(`/memorials/${memorial.id}`);

  await page.locator("summary", { hasText: "Reject tribute from Stranger Sam" }).click();
  const confirm = page.getByRole("button", { name: "Delete tribute from Stranger Sam" });
  await expect(confirm).toBeVisible();
  await expect(page.getByText("Rejecting deletes this tribute for good. It cannot be brought back.")).toBeVisible();
  expect(await stored()).toBe(1);
  await expectAccessible(page);

  await confirm.click();
  await expect(toast(page)).toContainText("Tribute deleted");
  expect(await stored()).toBe(0);
});

test("the small text on memorial cards is at least 14 px", async ({ page, member }) => {
  const memorial = await createTestMemorial(member, { isPublished: false });
  await db().query(`UPDATE memorials SET biography = 'A life of quiet kindness.', "dateOfBirth" = '1930-01-02', "dateOfPassing" = '2020-03-04' WHERE id = $1`, [
    memorial.id,
  ]);
  await loginAs(page, member);
  const tooSmall = () =>
    page.locator("main").evaluate((main) => {
      const small: string[] = [];
      for (const el of Array.from(main.querySelectorAll("article *, li *"))) {
        const ownText = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
        if (!ownText || el.closest(".sr-only")) continue;
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < 14) small.push(`${el.textContent!.trim()} (${size}px)`);
      }
      return small;
    });
  for (const path of ["/my-memorials", "/", "/memorials"]) {
    await page.goto(path);
    expect(await tooSmall(), path).toEqual([]);
  }
  await expectAccessible(page);
});

test("the not-found page speaks to the visitor, with the ways on", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "404 Page Not Found" })).toBeVisible();
  await expect(page.getByText("Sorry, we could not find the page you were looking for.")).toBeVisible();
  await expect(page.getByText(/router/)).toHaveCount(0);
  const main = page.getByRole("main");
  await expect(main.getByRole("link", { name: "Go home" })).toHaveAttribute("href", "/");
  await expect(main.getByRole("link", { name: "Browse memorials" })).toHaveAttribute("href", "/memorials");
  await expectAccessible(page);
});
