import { randomBytes } from "node:crypto";
import { createTestMemorial, createTestUser, db, deleteTestUser, loginAs, TEST_PASSWORD } from "./db";
import { anotherPersonsPage, expect, expectAccessible, test, toast } from "./fixtures";
import { mailWithSubject } from "./mail";

// A successor, JavaScript on and off, at 390 px: the owner names a co-manager the
// successor of one memorial on its People page and chooses how long an absence hands it on; at account
// deletion the screen shows that it passes on, asks what becomes of another memorial (refusing to go on
// without an answer, the answer kept), and lists the one that goes with the account. The successor is
// told by email and finds the memorial on My Memorials as their own.

const PHONE = { width: 390, height: 844 };

test("name a successor, delete the account, and the memorial passes to them", async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const tag = randomBytes(3).toString("hex");
  const owner = await createTestUser({ firstName: "Olwen", lastName: `Owner${tag}` });
  const heir = await createTestUser({ firstName: "Hugh", lastName: `Heir${tag}` });
  const helper = await createTestUser({ firstName: "Hana", lastName: `Helper${tag}` });
  const kept = await createTestMemorial(owner, { firstName: "Morwenna", lastName: `Kept${tag}`, visibility: "public", isPublished: true });
  const shared = await createTestMemorial(owner, { firstName: "Tamsin", lastName: `Shared${tag}`, visibility: "private", isPublished: true });
  await createTestMemorial(owner, { firstName: "Loveday", lastName: `Alone${tag}` });
  const coManage = (memorialId: string, userId: string, role: string) =>
    db().query(`INSERT INTO memorial_managers ("memorialId", "userId", role) VALUES ($1, $2, $3)`, [memorialId, userId, role]);
  await coManage(kept.id, heir.id, "manager");
  await coManage(shared.id, helper.id, "editor");
  try {
    await loginAs(page, owner);
    await page.goto(`/memorials/${kept.id}/managers`);
    await expect(page.getByText("Nobody is the successor yet.")).toBeVisible();
    await page.getByRole("button", { name: `Make successor (Hugh Heir${tag})` }).click();
    await expect(toast(page)).toContainText("Successor named");
    await expect(page.getByText(`Hugh Heir${tag} is the successor`)).toBeVisible();
    await expect(page.getByText("· Successor")).toBeVisible();
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: testInfo.outputPath("managers-successor-390.png"), fullPage: true });
    await mailWithSubject(heir.email, `You are the successor of the memorial of Morwenna Kept${tag}`);

    // The account settings: the absence that hands on, and what deleting would do to each memorial.
    await page.getByRole("link", { name: "Change this in your account settings" }).click();
    await expect(page).toHaveURL(/\/account\/manage$/);
    await expect(page.getByLabel("After a year without a visit")).toBeChecked();
    await page.getByLabel("After 6 months without a visit").check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(toast(page)).toContainText("Saved");
    await expect(page.getByLabel("After 6 months without a visit")).toBeChecked();
    await expect(page.getByText(`The memorial of Morwenna Kept${tag}, to Hugh Heir${tag} (${heir.email})`)).toBeVisible();
    await expect(page.getByRole("group", { name: `The memorial of Tamsin Shared${tag}` })).toBeVisible();
    await expect(page.getByText(`The memorial of Loveday Alone${tag}`)).toBeVisible();
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: testInfo.outputPath("account-delete-succession-390.png"), fullPage: true });

    // No answer for the shared memorial: asked again next to it, nothing deleted.
    const confirm = page.getByLabel("I understand my account, and the memorials deleted with it, will be removed for good after 30 days");
    await page.getByLabel("Your password").fill(TEST_PASSWORD);
    await confirm.check();
    await page.getByRole("button", { name: "Delete my account" }).click();
    const group = page.getByRole("group", { name: `The memorial of Tamsin Shared${tag}` });
    await expect(group).toHaveAccessibleDescription("Choose what happens to this memorial");
    expect((await db().query(`SELECT 1 FROM users WHERE id = $1 AND "deletedAt" IS NULL`, [owner.id])).rowCount).toBe(1);

    await group.getByLabel(`Hand it on to Hana Helper${tag} (editor)`).check();
    await page.getByLabel("Your password").fill(TEST_PASSWORD);
    await confirm.check();
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(toast(page)).toContainText("Account deleted");

    // The heir is told, and finds the memorial among their own.
    await mailWithSubject(heir.email, `The memorial of Morwenna Kept${tag} is now in your care`);
    await mailWithSubject(helper.email, `The memorial of Tamsin Shared${tag} is now in your care`);
    const theirs = await anotherPersonsPage(browser);
    await theirs.setViewportSize(PHONE);
    await loginAs(theirs, heir);
    await theirs.goto(`/memorials/${kept.id}/managers`);
    await expect(theirs.getByText(`${heir.email} · Owner`)).toBeVisible();
    await expect(theirs.getByText("Handed the memorial on to its successor")).toBeVisible();
    await theirs.goto("/my-memorials");
    await expect(theirs.getByText(`Morwenna Kept${tag}`).first()).toBeVisible();
    await theirs.context().close();
  } finally {
    for (const who of [owner, heir, helper]) await deleteTestUser(who);
  }
});
