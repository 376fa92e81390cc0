import { readFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import ICAL from "ical.js";
import { createTestMemorial, db, loginAs } from "./db";
import { expect, expectAccessible, test } from "./fixtures";

// Anniversaries in the calendar, JavaScript on and off, at 390 px: a visitor finds
// "Remember the dates" on a public memorial, downloads the dates as a file a real parser reads, and sees
// the subscribe link; the owner of a private memorial sees its private link and is told who can use it.

const PHONE = { width: 390, height: 844 };

async function setDates(memorial: { id: string }, dateOfBirth: string | null, dateOfPassing: string | null) {
  await db().query(`UPDATE memorials SET "dateOfBirth" = $2, "dateOfPassing" = $3 WHERE id = $1`, [memorial.id, dateOfBirth, dateOfPassing]);
}

test("a visitor downloads a memorial's anniversaries and sees how to subscribe", async ({ page, member }, testInfo) => {
  await page.setViewportSize(PHONE);
  const tag = randomBytes(3).toString("hex");
  const memorial = await createTestMemorial(member, { firstName: "Leona", lastName: `Leap${tag}` });
  await setDates(memorial, "1944-02-29", "2024-03-31");

  await page.goto(`/memorials/${memorial.id}`);
  const block = page.getByRole("region", { name: "Remember the dates" });
  await expect(block).toBeVisible();
  await expect(block).toContainText("Keep Leona's birthday and the anniversary of their passing in your calendar, every year.");
  const subscribe = block.getByRole("link", { name: "Add to my calendar" });
  await expect(subscribe).toHaveAttribute("href", new RegExp(`^webcal://[^/]+/memorials/${memorial.id}/anniversaries\\.ics$`));

  // The address for calendars that ask for one, behind a disclosure that opens without JavaScript.
  await block.locator("summary", { hasText: "Calendar address" }).click();
  await expect(block.getByRole("textbox", { name: "Calendar address" })).toHaveValue(
    new RegExp(`^https?://[^/]+/memorials/${memorial.id}/anniversaries\\.ics$`),
  );

  await expectAccessible(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await block.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("remember-the-dates-390.png"), fullPage: true });

  const [download] = await Promise.all([page.waitForEvent("download"), block.getByRole("link", { name: "Download the dates (.ics)" }).click()]);
  expect(download.suggestedFilename()).toBe(`leona-leap${tag}-anniversaries.ics`);
  const file = testInfo.outputPath("anniversaries.ics");
  await download.saveAs(file);
  const calendar = new ICAL.Component(ICAL.parse(await readFile(file, "utf8")));
  const events = calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
  expect(events.map((e) => e.summary)).toEqual([`Birthday of Leona Leap${tag} (born 1944)`, `Remembering Leona Leap${tag} (passed away 2024)`]);
  // Born on 29 February: a birthday in every year.
  const iterator = events[0].iterator(ICAL.Time.fromDateString("2025-01-01"));
  const days = [iterator.next(), iterator.next(), iterator.next(), iterator.next()].map((t) => t?.toString());
  expect(days).toEqual(["2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29"]);
});

test("the owner of a private memorial sees its private calendar link and who can use it", async ({ page, member }, testInfo) => {
  await page.setViewportSize(PHONE);
  const tag = randomBytes(3).toString("hex");
  const memorial = await createTestMemorial(member, { firstName: "Piet", lastName: `Private${tag}`, visibility: "private" });
  await setDates(memorial, "1950-06-01", null);
  const undated = await createTestMemorial(member, { firstName: "Una", lastName: `Undated${tag}` });

  // A visitor learns nothing: not the page, not the feed.
  expect((await page.request.get(`/memorials/${memorial.id}/anniversaries.ics`)).status()).toBe(404);

  await loginAs(page, member);
  await page.goto(`/memorials/${memorial.id}`);
  const block = page.getByRole("region", { name: "Remember the dates" });
  await expect(block).toContainText("Keep Piet's birthday in your calendar, every year.");
  await expect(block).toContainText(`Anyone who has this link can see Piet Private${tag}'s birthday and date of passing, without signing in.`);
  await expect(block.getByRole("link", { name: "Add to my calendar" })).toHaveAttribute("href", /^webcal:.*\/anniversaries\.ics\?key=[\w-]{40,}$/);
  await block.locator("summary", { hasText: "Calendar address" }).click();
  const address = await block.getByRole("textbox", { name: "Calendar address" }).inputValue();
  await expectAccessible(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await block.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("private-link-390.png"), fullPage: true });

  // The private link gives the calendar.
  const feed = await page.request.get(new URL(address).pathname + new URL(address).search);
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8");

  // No dates, nothing to remember yet: no block.
  await page.goto(`/memorials/${undated.id}`);
  await expect(page.getByRole("heading", { name: "Life story" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Remember the dates" })).toHaveCount(0);
});
