import { randomBytes } from "node:crypto";
import { createTestMemorial, createTestUser, deleteTestUser, loginAs } from "./db";
import { anotherPersonsPage, expect, expectAccessible, test, toast } from "./fixtures";
import { linkTo, mailWithSubject } from "./mail";

// Follow a memorial, JavaScript on and off, at 390 px: a visitor follows with an email
// address and confirms with the link from the email; a member follows with one click and anniversary
// reminders, finds it in Account → Following, turns the reminders off and on there, and unfollows.

const PHONE = { width: 390, height: 844 };

test("a visitor follows by email and confirms; a member follows, sees it in settings and unfollows", async ({ page, member, browser }, testInfo) => {
  test.setTimeout(90_000);
  const tag = randomBytes(3).toString("hex");
  const owner = await createTestUser({ firstName: "Opal", lastName: "Owner" });
  const memorial = await createTestMemorial(owner, { firstName: "Wren", lastName: `Follow${tag}`, visibility: "public", isPublished: true });
  const name = `Wren Follow${tag}`;
  const address = `follower-${tag}@example.com`;
  try {
    // The visitor.
    const theirs = await anotherPersonsPage(browser);
    await theirs.setViewportSize(PHONE);
    await theirs.goto(`/memorials/${memorial.id}`);
    await expect(theirs.getByRole("heading", { name: `Follow the memorial of ${name}` })).toBeVisible();
    await theirs.locator("#follow-email").fill(address);
    await theirs.getByRole("button", { name: "Follow", exact: true }).click();
    await expect(toast(theirs)).toContainText("Check your email");
    const mail = await mailWithSubject(address, `Confirm that you want to follow the memorial of ${name}`);
    await theirs.goto(linkTo(mail, "/follow/"));
    await expect(theirs.getByRole("heading", { level: 1, name: `Follow the memorial of ${name}?` })).toBeVisible();
    await expectAccessible(theirs);
    expect(await theirs.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await theirs.screenshot({ path: testInfo.outputPath("confirm-390.png"), fullPage: true });
    await theirs.getByRole("button", { name: "Yes, follow this memorial" }).click();
    await expect(theirs.getByRole("heading", { level: 1, name: `You follow the memorial of ${name}` })).toBeVisible();
    await expect(theirs.getByText("You follow this memorial now.")).toBeVisible();
    await theirs.context().close();

    // The member.
    await page.setViewportSize(PHONE);
    await loginAs(page, member);
    await page.goto(`/memorials/${memorial.id}`);
    await page.getByLabel("Let the family see my name").check();
    await page.getByLabel("Also remind me of the anniversaries").check();
    await page.getByRole("button", { name: "Follow", exact: true }).click();
    await expect(toast(page)).toContainText("You follow this memorial");
    await expect(page.getByText("You follow this memorial, with anniversary reminders.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Following", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Unfollow" })).toBeVisible();
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: testInfo.outputPath("memorial-following-390.png"), fullPage: true });

    await page.goto("/account/following");
    await expect(page.getByRole("link", { name })).toBeVisible();
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: testInfo.outputPath("account-following-390.png"), fullPage: true });
    // The anniversary reminders, off and on again, the follow kept.
    await expect(page.getByText("anniversary reminders on")).toBeVisible();
    await page.getByRole("button", { name: `Turn reminders off for the memorial of ${name}` }).click();
    await expect(toast(page)).toContainText("Anniversary reminders are off for this memorial. You still follow it");
    await expect(page.getByText("anniversary reminders on")).toHaveCount(0);
    await expect(page.getByRole("link", { name })).toBeVisible();
    await page.getByRole("button", { name: `Turn reminders on for the memorial of ${name}` }).click();
    await expect(toast(page)).toContainText("Anniversary reminders are on");
    await expect(page.getByText("anniversary reminders on")).toBeVisible();
    await page.getByRole("button", { name: `Unfollow the memorial of ${name}` }).click();
    await expect(toast(page)).toContainText("You no longer follow this memorial");
    await expect(page.getByText("You do not follow any memorials yet.")).toBeVisible();
  } finally {
    await deleteTestUser(owner);
  }
});
