import { readFileSync } from "node:fs";
import { db, loginAs } from "./db";
import { expect, expectAccessible, test, toast } from "./fixtures";

// The encrypted vault, with JavaScript on and off: a Forever Plus member uploads a file,
// protects the vault with a password when asked, downloads the same bytes, locks and unlocks it, deletes
// the file; the skip path needs the acknowledgement; a Forever member finds the vault closed.

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\nThe family's will.\n%%EOF\n");

async function onPlan(member: { id: string }, plan: string) {
  await db().query(`UPDATE users SET "subscriptionPlan" = $2 WHERE id = $1`, [member.id, plan]);
}

async function uploadPdf(page: import("@playwright/test").Page, name = "will.pdf") {
  await page.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType: "application/pdf", buffer: PDF });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(toast(page)).toContainText("File uploaded");
}

test("a Forever Plus member keeps a file safe: upload, password, download the same bytes, lock, unlock, delete", async ({ page, member }) => {
  await onPlan(member, "forever_plus");
  await loginAs(page, member);
  await page.goto("/vault");
  await expect(page.getByRole("heading", { name: "Vault", level: 1 })).toBeVisible();
  await expectAccessible(page);
  await uploadPdf(page);

  // The first upload into an empty vault asks for a password.
  await expect(page.getByRole("heading", { name: "Protect your vault with a password?" })).toBeVisible();
  await expectAccessible(page);
  const prompt = page.getByRole("region", { name: "Protect your vault with a password?" });
  await prompt.getByLabel("Vault password", { exact: true }).fill("weakpass");
  await prompt.getByLabel("Confirm vault password").fill("weakpass");
  await prompt.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByText("Password too weak")).toBeVisible();
  await page.getByLabel("Vault password", { exact: true }).fill("Str0ng-pass");
  await page.getByLabel("Confirm vault password").fill("Str0ng-pass");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(toast(page)).toContainText("Vault password set");

  // The same bytes come back.
  const list = page.getByRole("region", { name: /Your files/ });
  await expect(list.getByRole("link", { name: "Download will.pdf" })).toBeVisible();
  const downloading = page.waitForEvent("download");
  await list.getByRole("link", { name: "Download will.pdf" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("will.pdf");
  expect(readFileSync((await download.path())!).equals(PDF)).toBe(true);

  // Locked, the vault shows only its door; a wrong password is refused; the right one opens it.
  await page.getByRole("button", { name: "Lock the vault now" }).click();
  await expect(page.getByRole("heading", { name: "Your vault is locked" })).toBeVisible();
  await expect(page.getByText(/will\.pdf/)).toHaveCount(0);
  await expectAccessible(page);
  await page.getByLabel("Vault password").fill("Wrong-pass1");
  await page.getByRole("button", { name: "Unlock" }).click();
  await expect(page.getByText("Invalid password")).toBeVisible();
  await page.getByLabel("Vault password").fill("Str0ng-pass");
  await page.getByRole("button", { name: "Unlock" }).click();
  await expect(toast(page)).toContainText("Vault unlocked");

  // Delete, after a confirmation.
  await list.getByText("Delete will.pdf", { exact: true }).click();
  await list.getByRole("button", { name: "Delete file" }).click();
  await expect(toast(page)).toContainText("File deleted");
  await expect(page.getByText("Nothing here yet.")).toBeVisible();
});

test("on a phone, the delete confirmation opens within the screen, its words and button whole", async ({ page, member }) => {
  await onPlan(member, "forever_plus");
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, member);
  await page.goto("/vault");
  await uploadPdf(page, "a-longer-name-for-the-family-will.pdf");
  const list = page.getByRole("region", { name: /Your files/ });
  await list.getByText("Delete a-longer-name-for-the-family-will.pdf", { exact: true }).click();
  const question = list.getByText("Delete a-longer-name-for-the-family-will.pdf? This cannot be undone.");
  const button = list.getByRole("button", { name: "Delete file" });
  for (const part of [question, button]) {
    await expect(part).toBeVisible();
    const box = (await part.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await button.click();
  await expect(toast(page)).toContainText("File deleted");
});

test("skipping the vault password needs the acknowledgement tick", async ({ page, member }) => {
  await onPlan(member, "forever_plus");
  await loginAs(page, member);
  await page.goto("/vault");
  await uploadPdf(page, "deeds.pdf");
  await page.getByRole("button", { name: "Skip for now" }).click();
  await expect(page.getByText("Please acknowledge the security risk")).toBeVisible();
  await page.getByLabel(/I understand that without a password/).check();
  await page.getByRole("button", { name: "Skip for now" }).click();
  await expect(toast(page)).toContainText("No vault password");
  await expect(page.getByRole("heading", { name: "Protect your vault with a password?" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Download deeds.pdf" })).toBeVisible();
});

test("a file the vault does not take is refused with the message members are shown, next to the field", async ({ page, member }) => {
  await onPlan(member, "forever_plus");
  await loginAs(page, member);
  await page.goto("/vault");
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: PDF });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Invalid File Type").first()).toBeVisible();
  await expect(page.getByLabel("File", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);
});

test("the vault is closed to a Forever member: the upload area is hidden and the way to the plans shown", async ({ page, member }) => {
  await onPlan(member, "forever");
  await loginAs(page, member);
  await page.goto("/vault");
  await expect(page.getByRole("heading", { name: "Subscription required" })).toBeVisible();
  await expect(page.getByLabel("File", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "See plans" })).toBeVisible();
  await expectAccessible(page);
});
