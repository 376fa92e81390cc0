import { randomBytes } from "node:crypto";
import { createTestMemorial, db, loginAs } from "./db";
import { anotherPersonsPage, expect, expectAccessible, test, toast } from "./fixtures";

// Issue 29 item 2 (docs/decisions/027-sharing-and-unlisted.md): the owner makes a memorial Unlisted on the
// edit form, with JavaScript on and off; a visitor with the link reads it, kept out of search engines, and
// does not find it in the gallery. (Every list, the sitemap and the /api: test/sharing-and-unlisted-http.test.ts.)

test("an owner makes a memorial Unlisted: it opens by its link and is in no gallery search", async ({ page, browser, member }) => {
  const lastName = `Unlisted${randomBytes(3).toString("hex")}`;
  const memorial = await createTestMemorial(member, { firstName: "Ulla", lastName, visibility: "public" });
  await loginAs(page, member);
  await page.goto(`/memorials/${memorial.id}/edit`);
  const visibility = page.getByRole("group", { name: "Visibility" });
  await expect(visibility.getByRole("radio")).toHaveCount(4);
  await expect(visibility.getByRole("radio", { name: "Public" })).toBeChecked();
  await visibility.getByRole("radio", { name: "Unlisted" }).check();
  await expect(visibility.getByText("Anyone with the link can view it, but it is not shown in lists or search")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Update Memorial" }).click();
  await expect(toast(page)).toContainText("Memorial updated");
  await expect(page.getByText("Unlisted", { exact: true }).first()).toBeVisible();
  const { rows } = await db().query(`SELECT visibility FROM memorials WHERE id = $1`, [memorial.id]);
  expect(rows[0].visibility).toBe("unlisted");

  const visitor = await anotherPersonsPage(browser);
  try {
    const response = await visitor.goto(`/memorials/${memorial.id}`);
    expect(response?.status()).toBe(200);
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(`Ulla ${lastName}`);
    await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
    await expectAccessible(visitor);
    await visitor.goto(`/memorials?search=${lastName}`);
    await expect(visitor.getByRole("heading", { level: 2, name: `Memorials matching “${lastName}”` })).toBeVisible();
    await expect(visitor.getByText("No memorials found")).toBeVisible();
  } finally {
    await visitor.context().close();
  }
});
