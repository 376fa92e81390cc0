import { randomBytes } from "node:crypto";
import { createTestMemorial, db, loginAs } from "./db";
import { anotherPersonsPage, expect, expectAccessible, test, toast } from "./fixtures";
import { sendFormsAsAPersonWould } from "./form-stamp";

// Unlisted memorials (docs/decisions/027-sharing-and-unlisted.md): the owner makes a memorial Unlisted on the
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

// Decision 035: a link followed from Facebook carries a click id of its own (and a newsletter's a campaign mark). The
// visitor gets the page kept for the address without them, and its tribute form works as on the page itself.
test("a visitor from a link shared on Facebook (a click id in the address) reads the memorial and leaves a tribute", async ({ page, member }) => {
  const lastName = `Shared${randomBytes(3).toString("hex")}`;
  const memorial = await createTestMemorial(member, { firstName: "Fiona", lastName, visibility: "public" });
  // Someone opened it before, from the page itself: the page is kept.
  expect((await page.request.get(`/memorials/${memorial.id}`)).status()).toBe(200);

  const link = `/memorials/${memorial.id}?fbclid=IwAR${randomBytes(8).toString("hex")}&utm_source=facebook&utm_medium=social`;
  const response = await page.goto(link);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["etag"]).toMatch(/^W\/"memorial\./);
  await expect(page.getByRole("heading", { level: 1, name: `Fiona ${lastName}` })).toBeVisible();
  expect(new URL(page.url()).searchParams.get("utm_source")).toBe("facebook");

  const words = `Fiona sang at every ceilidh ${randomBytes(3).toString("hex")}.`;
  await page.getByLabel("Your name").fill("Ewan Grant");
  await page.getByLabel("Your tribute").fill(words);
  // A form sent back within 3 seconds of being served is taken for a bot (form-guard.server.ts).
  await sendFormsAsAPersonWould(page);
  await page.getByRole("button", { name: "Leave Tribute" }).click();
  await expect(page.getByTestId("toast-in-place")).toContainText("Tribute submitted");
  const { rows } = await db().query(`SELECT "authorName", "isApproved" FROM tributes WHERE "memorialId" = $1 AND content = $2`, [memorial.id, words]);
  expect(rows).toEqual([{ authorName: "Ewan Grant", isApproved: false }]);
});
