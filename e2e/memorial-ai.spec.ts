import { randomBytes, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { db, loginAs } from "./db";
import { expect, expectAccessible, test } from "./fixtures";

// "Generate AI Biography" (Create and Edit Memorial) and "Generate AI Tribute" (Edit Memorial),
// Without JavaScript each is a round trip of the memorial form that
// comes back with the text written and every other field as it was typed; with JavaScript a dialog
// (biography) or a button (tribute) asks /api/ai/*. The e2e server has no OPENAI_API_KEY, so the
// offline writer writes, and the page says so. Nothing is saved until the member presses a save button.

const OFFLINE = /Written by Everlight's offline writer from the details you gave/;

/** Opens the biography helper: a dialog with JavaScript, a disclosure inside the form without. */
async function openBiographyHelper(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) {
    await page.getByRole("button", { name: "Generate AI Biography" }).click();
    await expect(page.getByRole("dialog", { name: "Generate AI Biography" })).toBeVisible();
  } else {
    await page.locator("summary", { hasText: "Write with AI" }).click();
  }
}

/** Asks for the biography: the dialog's Generate button, or the form's own submit button. */
async function generateBiography(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await page.getByRole("dialog").getByRole("button", { name: "Generate", exact: true }).click();
  else await page.getByRole("button", { name: "Generate AI Biography" }).click();
}

async function memorialsNamed(lastName: string) {
  const { rows } = await db().query(`SELECT id, biography FROM memorials WHERE "lastName" = $1`, [lastName]);
  return rows as { id: string; biography: string | null }[];
}

test("a biography is written from the details given, every other field is kept, and nothing is saved until Publish", async ({
  page,
  member,
  javaScriptEnabled,
}) => {
  const lastName = `Whitfield${randomBytes(3).toString("hex")}`;
  const story = `kept bees behind the chapel in Ledbury ${randomBytes(2).toString("hex")}`;
  await loginAs(page, member);
  await page.goto("/memorials/create");
  await page.getByLabel("Title").fill("Beekeeper and friend");
  await page.getByLabel("Date of birth").fill("1931-04-12");
  await page.getByLabel("Date of passing").fill("2019-09-30");
  await page.getByLabel("Friends Only").check();

  // Without the names the helper refuses, with its fixed words, and keeps what was typed.
  await openBiographyHelper(page, javaScriptEnabled);
  await page.getByLabel("Personal story").fill(story);
  await generateBiography(page, javaScriptEnabled);
  const missing = page.getByRole("alert").filter({ hasText: "Missing Information" });
  await expect(missing).toContainText("Please enter the person's first and last name before generating a biography.");
  await expect(page.getByLabel("Personal story")).toHaveValue(story);
  await expectAccessible(page);

  if (javaScriptEnabled) await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await page.getByLabel("First name").fill("Edith");
  await page.getByLabel("Last name").fill(lastName);
  if (javaScriptEnabled) await openBiographyHelper(page, true);
  await page.getByLabel("Key qualities").fill("patient, funny");
  await generateBiography(page, javaScriptEnabled);

  const lifeStory = page.getByLabel("Life story");
  await expect(lifeStory).toHaveValue(new RegExp(story, "i"));
  await expect(lifeStory).toHaveValue(new RegExp(`Edith ${lastName}`));
  await expect(lifeStory).toHaveValue(/patient/);
  await expect(page.getByText("Biography generated")).toBeVisible();
  await expect(page.getByText(OFFLINE)).toBeVisible();
  if (javaScriptEnabled) {
    await expect(page.getByRole("dialog")).toBeHidden();
    // Focus returns to the button that opened the dialog.
    await expect(page.getByRole("button", { name: "Generate AI Biography" })).toBeFocused();
  }
  // Every other field is as it was typed.
  await expect(page.getByLabel("First name")).toHaveValue("Edith");
  await expect(page.getByLabel("Last name")).toHaveValue(lastName);
  await expect(page.getByLabel("Title")).toHaveValue("Beekeeper and friend");
  await expect(page.getByLabel("Date of birth")).toHaveValue("1931-04-12");
  await expect(page.getByLabel("Date of passing")).toHaveValue("2019-09-30");
  await expect(page.getByLabel("Friends Only")).toBeChecked();
  expect(await memorialsNamed(lastName)).toHaveLength(0);
  await expectAccessible(page);

  // The member edits the draft, then publishes: the biography saved is the one in the box.
  await lifeStory.fill(`${await lifeStory.inputValue()}\n\nShe is missed.`);
  await page.getByRole("button", { name: "Publish Memorial" }).click();
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(`Edith ${lastName}`) })).toBeVisible();
  const [saved] = await memorialsNamed(lastName);
  expect(saved.biography).toMatch(new RegExp(story, "i"));
  expect(saved.biography).toContain("She is missed.");
  await db().query(`DELETE FROM memorials WHERE id = $1`, [saved.id]);
});

test("Edit Memorial writes a short tribute from the names and key details, and saves nothing", async ({ page, member }) => {
  const id = randomUUID();
  const lastName = `Okafor${randomBytes(3).toString("hex")}`;
  await db().query(
    `INSERT INTO memorials (id, "userId", title, "firstName", "lastName", biography, "isPublished", visibility) VALUES ($1, $2, 'A life', 'Chidi', $3, 'Original story.', true, 'public')`,
    [id, member.id, lastName],
  );
  await loginAs(page, member);
  await page.goto(`/memorials/${id}/edit`);
  const detail = `ran the Saturday football club for thirty years ${randomBytes(2).toString("hex")}`;
  await page.getByLabel("Key details").fill(detail);
  await page.getByLabel("Title").fill("Coach, father, friend");
  await page.getByRole("button", { name: "Generate AI Tribute" }).click();

  const suggested = page.getByLabel("Suggested tribute");
  await expect(suggested).toHaveValue(new RegExp(detail, "i"));
  await expect(suggested).toHaveValue(new RegExp(`Chidi`));
  await expect(page.getByText("AI tribute generated")).toBeVisible();
  await expect(page.getByText(OFFLINE)).toBeVisible();
  // What was typed elsewhere stays; nothing reached the database.
  await expect(page.getByLabel("Title")).toHaveValue("Coach, father, friend");
  await expect(page.getByLabel("Key details")).toHaveValue(detail);
  await expect(page.getByLabel("Life story")).toHaveValue("Original story.");
  const { rows } = await db().query(`SELECT title, biography FROM memorials WHERE id = $1`, [id]);
  expect(rows[0]).toEqual({ title: "A life", biography: "Original story." });
  await expectAccessible(page);

  // Without the names it refuses with its fixed title.
  await page.getByLabel("First name").fill("");
  await page.getByRole("button", { name: "Generate AI Tribute" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Missing Information" })).toContainText(
    "Please enter the person's first and last name before generating a tribute.",
  );
  await db().query(`DELETE FROM memorials WHERE id = $1`, [id]);
});
