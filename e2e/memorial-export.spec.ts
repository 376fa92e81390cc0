import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import sharp from "sharp";
import { createTestMemorial, createTestTribute, createTestUser, db, deleteTestUser, loginAs } from "./db";
import { expect, expectAccessible, test, toast } from "./fixtures";
import { linkTo, mailWithSubject } from "./mail";

// "Take a memorial away", JavaScript on and off: the owner asks for a copy from the
// memorial page, watches it being prepared (the page refreshes itself without JavaScript, revalidates with
// it), downloads the ZIP and is emailed its link. Unzipped, the copy opens from file:// in a browser with
// JavaScript off and shows the name, the life story, a loaded photo, an event and the tributes; its manifest verifies.

const PHONE = { width: 390, height: 844 };

test("the owner downloads a copy of a memorial that opens offline without JavaScript", async ({ page, member, browser }, testInfo) => {
  test.setTimeout(90_000);
  await page.setViewportSize(PHONE);
  await loginAs(page, member);
  const tag = randomBytes(3).toString("hex");
  const lastName = `Keeper${tag}`;
  const created = await page.request.post("/api/memorials", {
    data: {
      firstName: "Mabel",
      lastName,
      dateOfBirth: "1929-06-11",
      dateOfPassing: "2023-12-24",
      biography: `Mabel kept the lighthouse log for thirty years ${tag}.\n\nShe never missed a storm.`,
      visibility: "friends",
      isPublished: true,
    },
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .jpeg()
    .toBuffer();
  const media = await page.request.post(`/api/memorials/${id}/media`, {
    data: { mediaData: `data:image/jpeg;base64,${jpeg.toString("base64")}`, fileName: "light.jpg", fileType: "image/jpeg" },
  });
  expect(media.status()).toBe(201);
  await createTestTribute({ id }, { authorName: "Harbour Master", content: `She kept us all safe ${tag}.`, isApproved: true });
  await createTestTribute({ id }, { authorName: "Not Approved", content: `Still waiting ${tag}.` });
  // An event (decision 026) with a long address, to be read at 390 px in the copy.
  await db().query(
    `INSERT INTO "memorial_events" ("memorialId", "kind", "title", "startDate", "startTime", "endTime", "timeZone", "startsAt", "endsAt", "placeName", "address")
     VALUES ($1, 'celebration', $2, '2099-06-20', '11:00', '12:30', 'Europe/London', '2099-06-20T10:00:00Z', '2099-06-20T11:30:00Z', 'The lighthouse', $3)`,
    [id, `Tea at the lighthouse ${tag}`, "Lighthouse Cottage, Harbourside-Upon-The-Very-Long-Named-Estuary-Road, Whitby YO21 3PU"],
  );

  await page.goto(`/memorials/${id}`);
  await page.getByRole("button", { name: "Download a copy" }).click();
  await expect(page).toHaveURL(new RegExp(`/memorials/${id}/export$`));
  await expect(toast(page)).toContainText("We are preparing your copy");
  await expect(page.getByRole("heading", { level: 1, name: "Download a copy" })).toBeVisible();
  // Without JavaScript the page refreshes itself; with it, it asks again: either way the link appears.
  await expect(page.getByRole("heading", { name: "Your copy is ready" })).toBeVisible({ timeout: 45_000 });
  await expectAccessible(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: testInfo.outputPath("export-status-390.png"), fullPage: true });

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the ZIP" }).click()]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^everlight-mabel-keeper${tag}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
  const folder = mkdtempSync(path.join(tmpdir(), "everlight-e2e-export-"));
  try {
    const zip = path.join(folder, "copy.zip");
    await download.saveAs(zip);
    execFileSync("unzip", ["-q", zip, "-d", path.join(folder, "out")]);
    const [bagName] = readdirSync(path.join(folder, "out"));
    const bag = path.join(folder, "out", bagName);
    // The BagIt manifest verifies: every payload file's SHA-256 as listed.
    const lines = readFileSync(path.join(bag, "manifest-sha256.txt"), "utf8").trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) {
      const [sha, file] = line.split("  ");
      expect(
        createHash("sha256")
          .update(readFileSync(path.join(bag, file)))
          .digest("hex"),
        file,
      ).toBe(sha);
    }

    // Opened from the file system, with no server and no JavaScript.
    const offline = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    try {
      const copy = await offline.newPage();
      await copy.goto(pathToFileURL(path.join(bag, "data", "index.html")).href);
      await expect(copy.getByRole("heading", { level: 1, name: `Mabel ${lastName}` })).toBeVisible();
      await expect(copy.getByText(`Mabel kept the lighthouse log for thirty years ${tag}.`)).toBeVisible();
      await expect(copy.getByText(`She kept us all safe ${tag}.`)).toBeVisible();
      await expect(copy.getByText("Harbour Master")).toBeVisible();
      await expect(copy.getByRole("heading", { level: 3, name: `Tea at the lighthouse ${tag}` })).toBeVisible();
      await expect(copy.getByText("Saturday, June 20, 2099, 11:00–12:30 BST")).toBeVisible();
      await expect(copy.getByText(`Still waiting ${tag}.`)).toHaveCount(0);
      const photo = copy.getByRole("img", { name: `Photo 1 of Mabel ${lastName}` });
      await photo.scrollIntoViewIfNeeded();
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
      expect(await copy.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await copy.screenshot({ path: testInfo.outputPath("export-index-390.png"), fullPage: true });
    } finally {
      await offline.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }

  // The owner is emailed the link to the copy's page.
  const mail = await mailWithSubject(member.email, `Your copy of the memorial of Mabel ${lastName} is ready`);
  expect(linkTo(mail, `/memorials/${id}/export`)).toBe(`/memorials/${id}/export`);
});

test("while a copy is being prepared, its page shows how far it has got and moves on by itself; nobody else sees it", async ({
  page,
  member,
  browser,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  await loginAs(page, member);
  const memorial = await createTestMemorial(member);
  // A copy another instance is building (its lease runs for an hour, so this server's builder leaves it alone).
  const { rows } = await db().query(
    `INSERT INTO memorial_exports ("memorialId", "userId", status, progress, attempts, "claimToken", "lockedUntil")
     VALUES ($1, $2, 'building', 42, 1, 'elsewhere', now() + interval '1 hour') RETURNING id`,
    [memorial.id, member.id],
  );
  try {
    await page.goto(`/memorials/${memorial.id}/export`);
    await expect(page.getByRole("heading", { name: "Preparing your copy…" })).toBeVisible();
    await expect(page.getByRole("progressbar", { name: "Preparing the copy" })).toHaveAttribute("value", "42");
    await expect(page.getByRole("link", { name: "Refresh" })).toBeVisible();
    // Asking again while it is being made is not offered.
    await expect(page.getByRole("button", { name: /Prepare/ })).toHaveCount(0);
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // Without JavaScript the page reloads itself every few seconds; a screenshot caught by a reload is taken again.
    await expect(async () => {
      await page.screenshot({ path: testInfo.outputPath("export-progress-390.png"), fullPage: true, timeout: 4_000 });
    }).toPass({ timeout: 30_000 });
    // The builder moves on: the page follows without a click (a meta refresh without JavaScript, revalidation with it).
    await db().query(`UPDATE memorial_exports SET progress = 80 WHERE id = $1`, [rows[0].id]);
    await expect(page.getByRole("progressbar", { name: "Preparing the copy" })).toHaveAttribute("value", "80", { timeout: 15_000 });

    // Another member: the page does not exist.
    const stranger = await browser.newContext();
    try {
      const other = await stranger.newPage();
      const otherMember = await createTestUser();
      try {
        await loginAs(other, otherMember);
        expect((await other.goto(`/memorials/${memorial.id}/export`))?.status()).toBe(404);
        expect((await other.request.get(`/memorials/${memorial.id}/export/download`)).status()).toBe(404);
      } finally {
        await deleteTestUser(otherMember);
      }
    } finally {
      await stranger.close();
    }
  } finally {
    await db().query(`DELETE FROM memorial_exports WHERE id = $1`, [rows[0].id]);
  }
});
