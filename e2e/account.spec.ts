import { readFile, writeFile } from "node:fs/promises";
import sharp from "sharp";
import { db, loginAs, TEST_PASSWORD } from "./db";
import { expect, expectAccessible, test, toast } from "./fixtures";
import { mailWithSubject } from "./mail";

// Account settings: every tab's form, with
// JavaScript on and off. Each test has its own fresh member, so they run in parallel.

const NEW_PASSWORD = "Brand-New-Passw0rd";

test("visitors are sent to sign in first, and come back to the settings afterwards", async ({ page }) => {
  await page.goto("/account/security");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Faccount%2Fsecurity$/);
});

test("the tabs are links, with the current one marked", async ({ page, member }) => {
  await loginAs(page, member);
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1, name: "Account Settings" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Account settings" });
  for (const [name, href] of [
    ["Profile", "/account"],
    ["Security", "/account/security"],
    ["Privacy", "/account/privacy"],
    ["Notifications", "/account/notifications"],
    ["Following", "/account/following"],
    ["Account", "/account/manage"],
  ]) {
    await expect(tabs.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
  await expect(tabs.getByRole("link", { name: "Profile" })).toHaveAttribute("aria-current", "page");
  await tabs.getByRole("link", { name: "Security" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Security" })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Security" })).toHaveAttribute("aria-current", "page");
  await expect(tabs.getByRole("link", { name: "Profile" })).not.toHaveAttribute("aria-current", "page");
});

test("the profile saves names and bio; the email cannot be changed", async ({ page, member }) => {
  await loginAs(page, member);
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 2, name: "Profile" })).toBeVisible();
  const email = page.getByLabel("Email");
  await expect(email).toBeDisabled();
  await expect(email).toHaveValue(member.email);
  await expect(email).toHaveAccessibleDescription("Email address cannot be changed for security reasons");
  await expectAccessible(page);

  await page.getByLabel("First name").fill("Margaret");
  await page.getByLabel("Last name").fill("Thornton");
  await page.getByLabel("Bio").fill("Keeper of the family stories.");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(toast(page)).toContainText("Profile updated");

  await page.reload();
  await expect(page.getByLabel("First name")).toHaveValue("Margaret");
  await expect(page.getByLabel("Last name")).toHaveValue("Thornton");
  await expect(page.getByLabel("Bio")).toHaveValue("Keeper of the family stories.");
  const { rows } = await db().query(`SELECT "firstName", "lastName", bio FROM users WHERE id = $1`, [member.id]);
  expect(rows[0]).toEqual({ firstName: "Margaret", lastName: "Thornton", bio: "Keeper of the family stories." });
});

test("a blank first name is refused next to the field, keeping what else was typed", async ({ page, member }) => {
  await loginAs(page, member);
  await page.goto("/account");
  // Spaces get past the browser's own "required" check, so without JavaScript the server answers.
  await page.getByLabel("First name").fill("   ");
  await page.getByLabel("Last name").fill("Typed-Surname");
  await page.getByLabel("Bio").fill("Typed bio");
  await page.getByRole("button", { name: "Save changes" }).click();

  await expect(page.getByLabel("First name")).toHaveAccessibleDescription("First name is required");
  await expect(page.getByLabel("Last name")).toHaveValue("Typed-Surname");
  await expect(page.getByLabel("Bio")).toHaveValue("Typed bio");
  await expectAccessible(page);
  const { rows } = await db().query(`SELECT "lastName" FROM users WHERE id = $1`, [member.id]);
  expect(rows[0].lastName).toBe(member.lastName);
});

test("a wrong current password is refused next to the field", async ({ page, member, javaScriptEnabled }) => {
  await loginAs(page, member);
  await page.goto("/account/security");
  await expect(page.getByRole("heading", { level: 2, name: "Security" })).toBeVisible();
  await expect(page.getByLabel("New password", { exact: true })).toHaveAccessibleDescription(/Password requirements: .*At least 8 characters/);
  await expectAccessible(page);

  await page.getByLabel("Current password").fill("Not-The-Passw0rd");
  await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Change password" }).click();

  await expect(page.getByLabel("Current password")).toHaveAccessibleDescription("Current password is incorrect");
  // The server never sends a password back (with JavaScript the typed one simply stays in the field).
  if (!javaScriptEnabled) await expect(page.getByLabel("Current password")).toHaveValue("");
  await expectAccessible(page);
});

test("changing the password signs the member out on their other devices", async ({ page, member, browser, baseURL }) => {
  await loginAs(page, member);
  const other = await browser.newContext({ baseURL });
  try {
    const otherPage = await other.newPage();
    await loginAs(otherPage, member);
    await otherPage.goto("/account");
    await expect(otherPage.getByRole("heading", { level: 1, name: "Account Settings" })).toBeVisible();

    await page.goto("/account/security");
    await page.getByLabel("Current password").fill(TEST_PASSWORD);
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(toast(page)).toContainText("Password changed");
    await expect(toast(page)).toContainText("You have been signed out on your other devices.");

    await otherPage.goto("/account");
    await expect(otherPage).toHaveURL(/\/login\?redirectTo=%2Faccount$/);
    // This device stays signed in.
    await page.goto("/account/privacy");
    await expect(page.getByRole("heading", { level: 2, name: "Privacy" })).toBeVisible();
  } finally {
    await other.close();
  }
});

test("a file that is not an image is refused as an invalid file type", async ({ page, member }) => {
  await loginAs(page, member);
  await page.goto("/account");
  const input = page.getByLabel("Profile picture");
  await expect(input).toHaveAccessibleDescription("JPEG, PNG, GIF or WebP, up to 5 MB");
  await input.setInputFiles({ name: "photo.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not an image") });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByLabel("Profile picture")).toHaveAccessibleDescription(/Invalid file type/);
  // The rest of the page is still there.
  await expect(page.getByLabel("First name")).toHaveValue(member.firstName);
  await expectAccessible(page);
});

test("a picture over 5MB is refused", async ({ page, member }) => {
  await loginAs(page, member);
  await page.goto("/account");
  // From a file on disk, as Chromium reads it itself (a buffer crosses Playwright's protocol as base64).
  const file = test.info().outputPath("big.png");
  await writeFile(file, Buffer.alloc(6 * 1024 * 1024));
  await page.getByLabel("Profile picture").setInputFiles(file);
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByLabel("Profile picture")).toHaveAccessibleDescription(/File too large: Please select an image smaller than 5MB/);
  const { rows } = await db().query(`SELECT "profileImageUrl" FROM users WHERE id = $1`, [member.id]);
  expect(rows[0].profileImageUrl).toBeNull();
});

test("a real picture is uploaded, shown, served as WebP, and can be removed", async ({ page, member }) => {
  await loginAs(page, member);
  await page.goto("/account");
  const png = await sharp({ create: { width: 500, height: 300, channels: 3, background: "#4f46e5" } })
    .png()
    .toBuffer();
  await page.getByLabel("Profile picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(toast(page)).toContainText("Profile picture updated");

  const avatar = page.getByRole("img", { name: "Your profile picture" });
  await expect(avatar).toBeVisible();
  const src = (await avatar.getAttribute("src"))!;
  expect(src).toMatch(/^\/media\/avatars\/[0-9a-f-]{36}\.webp$/);
  const served = await page.request.get(src);
  expect(served.status()).toBe(200);
  expect(served.headers()).toMatchObject({ "content-type": "image/webp", "cache-control": "public, max-age=31536000, immutable" });
  expect(await sharp(await served.body()).metadata()).toMatchObject({ format: "webp", width: 256, height: 256 });
  await expectAccessible(page);

  await page.getByRole("button", { name: "Remove picture" }).click();
  await expect(toast(page)).toContainText("Profile picture removed");
  await expect(page.getByRole("img", { name: "Your profile picture" })).toHaveCount(0);
  expect((await page.request.get(src)).status()).toBe(404);
  expect((await page.request.get("/media/other/anything.webp")).status()).toBe(404);
});

test("privacy settings are saved and shown again", async ({ page, member }) => {
  await loginAs(page, member);
  await page.goto("/account/privacy");
  const group = page.getByRole("group", { name: "Default visibility for new memorials" });
  await expect(group.getByRole("radio", { name: "Public" })).toBeChecked();
  await expectAccessible(page);

  await group.getByRole("radio", { name: "Friends Only" }).check();
  await page.getByLabel("Let other members find me by my email address in friend search").uncheck();
  await page.getByRole("button", { name: "Save privacy settings" }).click();
  await expect(toast(page)).toContainText("Privacy settings saved");

  await page.reload();
  await expect(group.getByRole("radio", { name: "Friends Only" })).toBeChecked();
  await expect(page.getByLabel("Let other members find me by my email address in friend search")).not.toBeChecked();
  const { rows } = await db().query(`SELECT "defaultVisibility", discoverable FROM users WHERE id = $1`, [member.id]);
  expect(rows[0]).toEqual({ defaultVisibility: "friends", discoverable: false });
});

test("notification preferences are saved and shown again", async ({ page, member }) => {
  await loginAs(page, member);
  await page.goto("/account/notifications");
  const group = page.getByRole("group", { name: "Email me about" });
  await expect(group.getByRole("checkbox", { name: "Friend requests" })).toBeChecked();
  await expect(group.getByRole("checkbox", { name: "Occasional news from Everlight" })).not.toBeChecked();
  await expectAccessible(page);

  await group.getByRole("checkbox", { name: "Friend requests" }).uncheck();
  await group.getByRole("checkbox", { name: "Occasional news from Everlight" }).check();
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(toast(page)).toContainText("Notification preferences saved");

  await page.reload();
  await expect(group.getByRole("checkbox", { name: "Friend requests" })).not.toBeChecked();
  await expect(group.getByRole("checkbox", { name: "Occasional news from Everlight" })).toBeChecked();
  await expect(group.getByRole("checkbox", { name: "Order and payment updates" })).toBeChecked();
});

test("the data download is a JSON file with the member's memorials", async ({ page, member }) => {
  await db().query(`INSERT INTO memorials ("userId", title, "firstName", "lastName") VALUES ($1, $2, $3, $4)`, [
    member.id,
    "In loving memory of Arthur",
    "Arthur",
    "Pennington",
  ]);
  await loginAs(page, member);
  await page.goto("/account/manage");
  await expect(page.getByRole("heading", { level: 2, name: "Account" })).toBeVisible();
  await expectAccessible(page);

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download my data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^everlight-data-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(await readFile((await download.path())!, "utf8"));
  expect(exported.user).toMatchObject({ id: member.id, email: member.email });
  expect(exported.user.password).toBeUndefined();
  expect(exported.memorials).toEqual([expect.objectContaining({ title: "In loving memory of Arthur", firstName: "Arthur" })]);
});

test("deleting the account needs the password, hides it with its memorials, and signing in within 30 days restores it", async ({ page, member }) => {
  await db().query(`INSERT INTO memorials ("userId", title, "firstName", "lastName") VALUES ($1, $2, $3, $4)`, [member.id, "Gone", "Edith", "Marsh"]);
  await loginAs(page, member);
  await page.goto("/account/manage");

  await page.getByLabel("Your password").fill("Not-The-Passw0rd");
  await page.getByLabel("I understand my account, and the memorials deleted with it, will be removed for good after 30 days").check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByLabel("Your password")).toHaveAccessibleDescription("Password is incorrect");
  await expectAccessible(page);
  expect((await db().query(`SELECT 1 FROM users WHERE id = $1`, [member.id])).rowCount).toBe(1);

  await page.getByLabel("Your password").fill(TEST_PASSWORD);
  await page.getByLabel("I understand my account, and the memorials deleted with it, will be removed for good after 30 days").check();
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page)).toContainText("Account deleted");
  await expect(toast(page)).toContainText(
    /Your account is hidden and kept until [A-Z][a-z]+ \d{1,2}, \d{4}, with the memorials that went with it\. Sign in before then to restore it\./,
  );
  expect((await db().query(`SELECT 1 FROM users WHERE id = $1 AND "deletedAt" IS NOT NULL`, [member.id])).rowCount).toBe(1);
  expect((await db().query(`SELECT 1 FROM memorials WHERE "userId" = $1`, [member.id])).rowCount).toBe(0);
  const deletedMail = await mailWithSubject(member.email, "Your Everlight account has been deleted");
  expect(deletedMail.text).toMatch(/We keep everything until [A-Z][a-z]+ \d{1,2}, \d{4}/);
  // Signed out: the settings send this browser to sign in.
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login/);

  // The right password offers the account back; a wrong one says nothing about it.
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill("Wrong-Passw0rd");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Invalid email or password. Please try again.")).toBeVisible();
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Restore your account?" })).toBeVisible();
  await expect(page.getByText(/You can restore it, with all its memorials, until [A-Z][a-z]+ \d{1,2}, \d{4}\./)).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Restore my account" }).click();
  await expect(page).toHaveURL(/\/my-memorials$/);
  await expect(toast(page)).toContainText("Your account and its memorials are restored.");
  await expect(page.getByText("Edith Marsh").first()).toBeVisible();
  expect((await db().query(`SELECT 1 FROM memorials WHERE "userId" = $1`, [member.id])).rowCount).toBe(1);
  await mailWithSubject(member.email, "Your Everlight account has been restored");
});

test("deleting the account without ticking the box is refused next to the box", async ({ page, member, javaScriptEnabled }) => {
  // Without JavaScript the browser's own check for the required box stops the form before it is sent.
  test.skip(!javaScriptEnabled, "the browser's built-in validation answers first without JavaScript");
  await loginAs(page, member);
  await page.goto("/account/manage");
  await page.getByLabel("Your password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(
    page.getByLabel("I understand my account, and the memorials deleted with it, will be removed for good after 30 days"),
  ).toHaveAccessibleDescription(/understand what deleting does/);
  expect((await db().query(`SELECT 1 FROM users WHERE id = $1`, [member.id])).rowCount).toBe(1);
});
