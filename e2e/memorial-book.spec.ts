import { randomBytes } from "node:crypto";
import { pdfText } from "../test/pdf";
import { createTestMemorial, createTestTribute, db, deleteTestUser, loginAs, createTestUser } from "./db";
import { anotherPersonsPage, expect, expectAccessible, test, toast } from "./fixtures";

// The printed memorial book and the family's switch, JavaScript on and off, at
// 390 px: a friend of the owner orders the book from the memorial page into the basket; the owner turns the
// offer off on the edit page and it is gone from the friend's page. And the memorial page printed by
// Chromium (page.pdf, print media): the memorial, without the site's navigation and the tribute form.

const PHONE = { width: 390, height: 844 };

test("a friend orders the book from the memorial page; the family turns the offer off and it is gone", async ({ page, member, browser }, testInfo) => {
  test.setTimeout(90_000);
  const tag = randomBytes(3).toString("hex");
  const owner = await createTestUser({ firstName: "Opal", lastName: "Owner" });
  const memorial = await createTestMemorial(owner, { firstName: "Bertha", lastName: `Book${tag}` });
  const name = `Bertha Book${tag}`;
  await db().query(`INSERT INTO friendships ("userId", "friendId") VALUES ($1, $2), ($2, $1)`, [owner.id, member.id]);
  try {
    await page.setViewportSize(PHONE);
    await loginAs(page, member);
    await page.goto(`/memorials/${memorial.id}`);
    await expect(page.getByRole("heading", { name: "A printed memorial book" })).toBeVisible();
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.locator("#memorial-book").screenshot({ path: testInfo.outputPath("book-offer-390.png") });
    await page.getByRole("button", { name: "Add the book to your basket" }).click();
    await expect(page).toHaveURL(/\/basket$/);
    await expect(toast(page)).toContainText(`${name} Memorial is in your basket (1).`);
    await expect(page.getByText(`${name} Memorial`, { exact: true }).first()).toBeVisible();
    await expect(page.getByText("Printed keepsake book").first()).toBeVisible();

    // The owner turns it off on the edit page.
    const theirs = await anotherPersonsPage(browser);
    await theirs.setViewportSize(PHONE);
    await loginAs(theirs, owner);
    await theirs.goto(`/memorials/${memorial.id}/edit`);
    const offered = theirs.getByLabel("Offer the printed memorial book on this memorial");
    await expect(offered).toBeChecked();
    await offered.uncheck();
    await theirs.getByRole("button", { name: "Save this choice" }).click();
    await expect(toast(theirs)).toContainText("Nothing is offered for sale on this memorial now.");
    await expect(theirs.getByLabel("Offer the printed memorial book on this memorial")).not.toBeChecked();
    await theirs.locator("#shop-offers").scrollIntoViewIfNeeded();
    await expectAccessible(theirs);
    expect(await theirs.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await theirs.locator("#shop-offers").screenshot({ path: testInfo.outputPath("shop-offers-390.png") });
    await theirs.context().close();

    // The friend's page offers nothing now.
    await page.goto(`/memorials/${memorial.id}`);
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await expect(page.getByRole("heading", { name: "A printed memorial book" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Add the book to your basket" })).toHaveCount(0);
  } finally {
    await deleteTestUser(owner);
  }
});

test("a memorial page prints the memorial itself, without navigation or the tribute form", async ({ page }) => {
  const tag = randomBytes(3).toString("hex");
  const owner = await createTestUser();
  const memorial = await createTestMemorial(owner, { firstName: "Petra", lastName: `Print${tag}` });
  await db().query(`UPDATE memorials SET biography = $2 WHERE id = $1`, [memorial.id, "She printed pamphlets in Norwich for forty years."]);
  await createTestTribute(memorial, { authorName: "Ned", content: "Her presses never stopped.", isApproved: true });
  try {
    await page.goto(`/memorials/${memorial.id}`);
    await expect(page.getByRole("heading", { level: 1, name: `Petra Print${tag}` })).toBeVisible();
    const printed = await page.pdf({ format: "A4" });
    const text = (await pdfText(printed)).replace(/\s+/g, " ");
    expect(text).toContain(`Petra Print${tag}`);
    expect(text).toContain("She printed pamphlets in Norwich for forty years.");
    expect(text).toContain("Her presses never stopped.");
    expect(text).not.toContain("Leave a Tribute");
    expect(text).not.toContain("Share this memorial");
    expect(text).not.toContain("Back to memorials");
    expect(text).not.toMatch(/Sign in|Products|Privacy Policy/);
  } finally {
    await deleteTestUser(owner);
  }
});
