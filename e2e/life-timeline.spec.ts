import { randomBytes } from "node:crypto";
import { createTestMemorial, loginAs } from "./db";
import { expect, expectAccessible, test, toast } from "./fixtures";

// The life timeline, JavaScript on and off, at 390 px: the owner opens the timeline from the
// memorial's edit page, makes a mistake and sees it next to the field with the input kept, adds two events (one
// known only to the year), and finds them on the memorial page in date order.

const PHONE = { width: 390, height: 844 };

test("the owner adds two events and sees them on the memorial page in date order", async ({ page, member }, testInfo) => {
  test.setTimeout(150_000);
  await page.setViewportSize(PHONE);
  const tag = randomBytes(3).toString("hex");
  const memorial = await createTestMemorial(member, { firstName: "June", lastName: `Moments${tag}`, visibility: "public", isPublished: true });
  await loginAs(page, member);
  await page.goto(`/memorials/${memorial.id}/edit`);
  await page.getByRole("link", { name: "Life timeline" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Life timeline" })).toBeVisible();

  // A mistake: a day without its month. Said next to the day, the title kept.
  await page.getByLabel("Kind of event").selectOption("Marriage or partnership");
  await page.getByLabel("Year").fill("1962");
  await page.getByLabel("Day (optional)").fill("14");
  await page.getByLabel("Title").fill(`Married Tom ${tag}`);
  await page.getByRole("button", { name: "Add event" }).click();
  const day = page.getByLabel("Day (optional)");
  await expect(day).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("#timeline-day-error")).toHaveText("Choose the month too, or leave the day empty");
  await expect(page.getByLabel("Title")).toHaveValue(`Married Tom ${tag}`);
  await expectAccessible(page);

  await page.getByLabel("Month (optional)").selectOption("July");
  await page.getByRole("button", { name: "Add event" }).click();
  await expect(toast(page)).toContainText("Event added to the timeline");

  // Known only to the year, and earlier: it goes first.
  await page.getByLabel("Kind of event").selectOption("School and studies");
  await page.getByLabel("Year").fill("1950");
  await page.getByLabel("Title").fill(`Left school ${tag}`);
  await page.getByLabel("A few words (optional)").fill("Top of the class in sums.");
  await page.getByRole("button", { name: "Add event" }).click();
  await expect(toast(page)).toContainText("Event added to the timeline");
  await expect(page.getByRole("heading", { level: 2, name: "Events (2)" })).toBeVisible();
  await expectAccessible(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: testInfo.outputPath("timeline-edit-390.png"), fullPage: true });

  await page.getByRole("link", { name: "View memorial" }).click();
  const timeline = page.getByRole("region", { name: "Life timeline" });
  await expect(timeline.getByRole("heading", { level: 3 })).toHaveText([`Left school ${tag}`, `Married Tom ${tag}`]);
  await expect(timeline.locator("time")).toHaveText(["1950", "July 14, 1962"]);
  await expect(timeline.locator("time").first()).toHaveAttribute("datetime", "1950");
  await expect(timeline.getByText("Top of the class in sums.")).toBeVisible();
  await expectAccessible(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await timeline.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("timeline-memorial-390.png"), fullPage: true });
});
