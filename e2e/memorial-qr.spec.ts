import { createTestMemorial, db, loginAs } from "./db";
import { expect, expectAccessible, test } from "./fixtures";

// The headstone QR code, JavaScript on and off, at 390 px: the owner opens "QR code and
// permanent link" from the memorial's edit page, reads the permanent link and sees the code, downloads the
// printable sheet (a PDF file named for the short id) and the PNG and SVG, and the permanent address brings
// anyone to the memorial page, which shows it in its share area.

const PHONE = { width: 390, height: 844 };

test("the owner finds the permanent link and downloads the QR code", async ({ page, member }, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  const memorial = await createTestMemorial(member, { firstName: "Maximiliana", lastName: "Wolkensteinerhausen-Abernathy" });
  const { rows } = await db().query<{ shortId: string }>(`SELECT "shortId" FROM memorials WHERE id = $1`, [memorial.id]);
  const shortId = rows[0].shortId;
  await loginAs(page, member);
  await page.goto(`/memorials/${memorial.id}/edit`);
  await page.getByRole("link", { name: "QR code and permanent link" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "QR code and permanent link" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Permanent link" }).getByRole("link")).toHaveText(new RegExp(`^https?://\\S+/m/${shortId}$`));
  const code = page.getByRole("img", { name: /^QR code that opens / });
  await expect(code).toBeVisible();
  expect(await code.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expectAccessible(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: testInfo.outputPath("memorial-qr-390.png"), fullPage: true });

  // The printable sheet downloads as a file; the image files answer with their own types.
  const [sheet] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Printable sheet (PDF, A4)" }).click()]);
  expect(sheet.suggestedFilename()).toBe(`everlight-qr-${shortId}.pdf`);
  for (const [name, type] of [
    ["Image (PNG, 1200 px)", "image/png"],
    ["Vector (SVG, for engravers)", "image/svg+xml"],
  ]) {
    const href = await page.getByRole("link", { name }).getAttribute("href");
    const res = await page.request.get(href!);
    expect(res.status(), name).toBe(200);
    expect(res.headers()["content-type"], name).toBe(type);
  }

  // The permanent address leads to the memorial, whose share area shows it.
  await page.goto(`/m/${shortId.toUpperCase()}`);
  await expect(page).toHaveURL(new RegExp(`/memorials/${memorial.id}$`));
  const share = page.getByRole("region", { name: "Share this memorial" });
  await expect(share).toContainText(`/m/${shortId}`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await share.screenshot({ path: testInfo.outputPath("memorial-share-390.png") });
});
