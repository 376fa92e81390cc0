import { randomBytes } from "node:crypto";
import { createTestMemorial, createTestUser, deleteTestUser, loginAs } from "./db";
import { anotherPersonsPage, expect, expectAccessible, test, toast } from "./fixtures";
import { linkTo, mailWithSubject } from "./mail";

// Co-managers by invitation, JavaScript on and off: the owner invites someone by email
// as an editor from the memorial's edit page; the invitee reads the email, opens the link, is asked to
// sign in, accepts, and edits the life story; the owner sees the change and the history. At 390 px.

const PHONE = { width: 390, height: 844 };

test("invite → accept → edit, and the owner sees the change and its history", async ({ page, member, browser }, testInfo) => {
  test.setTimeout(90_000);
  await page.setViewportSize(PHONE);
  const tag = randomBytes(3).toString("hex");
  const memorial = await createTestMemorial(member, { firstName: "Rosa", lastName: `Helper${tag}`, visibility: "private", isPublished: false });
  const invitee = await createTestUser({ firstName: "Iris", lastName: "Invitee" });
  try {
    await loginAs(page, member);
    await page.goto(`/memorials/${memorial.id}/edit`);
    await page.getByRole("link", { name: "People who manage this memorial" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "People who manage this memorial" })).toBeVisible();

    // A mistake is shown next to the field, the input kept.
    await page.getByLabel("Email address").fill("iris-at-example");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByText("Enter an email address like name@example.com")).toBeVisible();
    await expect(page.getByLabel("Email address")).toHaveValue("iris-at-example");

    await page.getByLabel("Email address").fill(invitee.email);
    await page.getByLabel("Editor").check();
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect(toast(page)).toContainText("Invitation sent");
    await expect(page.getByText(`Invited as editor · waiting for an answer until`)).toBeVisible();
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: testInfo.outputPath("managers-390.png"), fullPage: true });

    // The invitee reads the email and follows the link; signing in brings them back to it.
    const mail = await mailWithSubject(invitee.email, `You are invited to help manage the memorial of Rosa Helper${tag}`);
    const link = linkTo(mail, "/invitations/");
    const theirs = await anotherPersonsPage(browser);
    await theirs.setViewportSize(PHONE);
    await theirs.goto(link);
    await expect(theirs).toHaveURL(/\/login\?redirectTo=/);
    await loginAs(theirs, invitee);
    await theirs.goto(link);
    await expect(theirs.getByRole("heading", { level: 1, name: `Help manage the memorial of Rosa Helper${tag}` })).toBeVisible();
    await expectAccessible(theirs);
    expect(await theirs.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await theirs.screenshot({ path: testInfo.outputPath("invitation-390.png"), fullPage: true });
    await theirs.getByRole("button", { name: "Accept invitation" }).click();
    await expect(theirs).toHaveURL(new RegExp(`/memorials/${memorial.id}$`));
    await expect(toast(theirs)).toContainText("You now help manage this memorial");

    // The editor edits the life story; visibility is not theirs to change.
    await theirs.getByRole("link", { name: "Edit", exact: true }).click();
    await expect(theirs.getByText("The owner or a manager can change who sees the memorial")).toBeVisible();
    await theirs.getByLabel("Life story").fill(`Rosa mended nets on the quay ${tag}.`);
    await theirs.getByRole("button", { name: "Save changes" }).click();
    await expect(toast(theirs)).toContainText("Memorial updated");
    await expect(theirs.getByText(`Rosa mended nets on the quay ${tag}.`)).toBeVisible();
    // The link works once.
    await theirs.goto(link);
    await expect(theirs.getByText("This invitation has already been used.")).toBeVisible();
    await theirs.context().close();

    // The owner sees the change, still a private draft, and who did what.
    await page.goto(`/memorials/${memorial.id}`);
    await expect(page.getByText(`Rosa mended nets on the quay ${tag}.`)).toBeVisible();
    await page.goto(`/memorials/${memorial.id}/managers`);
    await expect(page.getByText(`${invitee.email} · Editor since`)).toBeVisible();
    await expect(page.getByText("Accepted an invitation to co-manage")).toBeVisible();
    await expect(page.getByText("Edited a memorial as a co-manager")).toBeVisible();
  } finally {
    await deleteTestUser(invitee);
  }
});
