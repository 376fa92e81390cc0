import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { db } from "./db";
import { expect, expectAccessible, expectFailedResponse, test } from "./fixtures";
import { sendFormsAsAPersonWould } from "./form-stamp";

// A visitor asks the AI tribute assistant ("Help me write") for a first draft on a public memorial
//. Without JavaScript it is a form round-trip that brings the page back
// with the draft in the tribute box; with JavaScript a dialog streams it in. The e2e server has no
// OPENAI_API_KEY, so the offline writer writes, and says so. Nothing is posted as a tribute.

async function publicDemoMemorial() {
  // A memorial of the demo data, never one another test made (and deletes when it ends).
  const { rows } = await db().query(
    `SELECT m.id FROM memorials m JOIN users u ON u.id = m."userId" WHERE u.email LIKE '%@everlight.test' AND m.visibility = 'public' AND m."isPublished" ORDER BY m."createdAt" LIMIT 1`,
  );
  expect(rows.length, "the demo data has a public, published memorial").toBe(1);
  return rows[0].id as string;
}

/** "Help me write": a button opening a dialog with JavaScript, a disclosure in the form without. */
async function openAssistant(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await page.getByRole("button", { name: "Help me write" }).click();
  else await page.locator("summary", { hasText: "Help me write" }).click();
}

async function tributesContaining(text: string) {
  const { rows } = await db().query(`SELECT count(*)::int AS n FROM tributes WHERE content LIKE $1`, [`%${text}%`]);
  return rows[0].n as number;
}

test("a visitor gets a first draft from the assistant, keeps what they typed, and nothing is posted", async ({ page, javaScriptEnabled }) => {
  const memorialId = await publicDemoMemorial();
  const memory = `taught me to bake bread on Sunday mornings ${randomBytes(3).toString("hex")}`;
  await page.goto(`/memorials/${memorialId}`);
  await page.getByLabel("Your name").fill("Margaret Lowe");
  await page.getByLabel("Your email (optional)").fill("margaret@example.com");

  await openAssistant(page, javaScriptEnabled);
  await page.getByLabel("Relationship").fill("granddaughter");
  await page.getByLabel("Tone").selectOption({ label: "Gentle and light" });
  await page.getByRole("button", { name: "Write my tribute" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Please fill in all fields" })).toContainText(
    "We need all information to create a meaningful tribute.",
  );
  await expect(page.getByLabel("Memories")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Memories")).toHaveAccessibleDescription(/Please fill in all fields/);
  // What was typed is still there, in the assistant and in the form.
  await expect(page.getByLabel("Relationship")).toHaveValue("granddaughter");
  await expect(page.getByLabel("Your name")).toHaveValue("Margaret Lowe");
  await expectAccessible(page);

  await page.getByLabel("Memories").fill(`She ${memory}.`);
  await page.getByRole("button", { name: "Write my tribute" }).click();

  const box = page.getByLabel("Your tribute");
  await expect(box).toHaveValue(new RegExp(memory));
  await expect(box).toHaveValue(/granddaughter/);
  await expect(page.getByText("AI tribute generated")).toBeVisible();
  await expect(page.getByText(/Written by Everlight's offline writer from the details you gave/)).toBeVisible();
  await expect(box).toHaveAccessibleDescription(/offline writer/);
  await expect(page.getByLabel("Your name")).toHaveValue("Margaret Lowe");
  await expect(page.getByLabel("Your email (optional)")).toHaveValue("margaret@example.com");
  expect(await tributesContaining(memory)).toBe(0);
  await expectAccessible(page);
});

test("the draft becomes a tribute only when the visitor presses Leave Tribute", async ({ page, javaScriptEnabled }) => {
  const memorialId = await publicDemoMemorial();
  const memory = `We fed the ducks at the park ${randomBytes(3).toString("hex")}`;
  await page.goto(`/memorials/${memorialId}`);
  await page.getByLabel("Your name").fill("Arthur Penn");
  await openAssistant(page, javaScriptEnabled);
  await page.getByLabel("Relationship").fill("neighbour");
  await page.getByLabel("Tone").selectOption("respectful");
  await page.getByLabel("Memories").fill(memory);
  await page.getByRole("button", { name: "Write my tribute" }).click();
  await expect(page.getByLabel("Your tribute")).toHaveValue(new RegExp(memory));
  expect(await tributesContaining(memory)).toBe(0);

  // A form sent back within 3 seconds of being served is taken for a bot (form-guard.server.ts).
  await sendFormsAsAPersonWould(page);
  await page.getByRole("button", { name: "Leave Tribute" }).click();
  await expect(page.getByTestId("toast-in-place")).toContainText("Tribute submitted");
  expect(await tributesContaining(memory)).toBe(1);
  // The box is empty for the next tribute, and the note about the assistant's draft has gone with the draft.
  await expect(page.getByLabel("Your tribute")).toHaveValue("");
  await expect(page.getByText("AI tribute generated")).toHaveCount(0);
  await db().query(`DELETE FROM tributes WHERE content LIKE $1`, [`%${memory}%`]);
});

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the dialog and the streaming need JavaScript");

  test("the assistant is a modal dialog that streams the draft in (needs JavaScript)", async ({ page }) => {
    const memorialId = await publicDemoMemorial();
    await page.goto(`/memorials/${memorialId}`);
    const opener = page.getByRole("button", { name: "Help me write" });

    // Escape closes it and focus goes back to the button that opened it.
    await opener.click();
    const dialog = page.getByRole("dialog", { name: "Help me write a tribute" });
    await expect(dialog).toBeVisible();
    await expect(page.getByLabel("Relationship")).toBeVisible();
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    await opener.click();
    await page.getByLabel("Relationship").fill("Old friend");
    await page.getByLabel("Tone").selectOption("celebratory");
    await page.getByLabel("Memories").fill("Dancing at the village fete.\nThe best scones in town.");
    const streamed = page.waitForResponse((r) => r.url().endsWith("/api/ai/stream-tribute"));
    await dialog.getByRole("button", { name: "Write my tribute" }).click();
    const response = await streamed;
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    await expect(dialog).toBeHidden();
    const box = page.getByLabel("Your tribute");
    await expect(box).toHaveValue(/old friend, I want to celebrate a life that brought so much joy\./);
    await expect(box).toHaveValue(/Dancing at the village fete\. The best scones in town\./);
    await expect(box).toBeFocused();
    await expect(page.getByRole("status").filter({ hasText: "AI tribute generated" })).toContainText("offline writer");
    // Conform saw the new text: leaving the tribute now is not blocked by "please write your tribute".
    await expect(page.getByRole("button", { name: "Leave Tribute" })).toBeEnabled();
  });

  test("a failure keeps the dialog open with the message members are shown (needs JavaScript)", async ({ page }) => {
    const memorialId = await publicDemoMemorial();
    // The AI provider fails: the app answers 502 (with its failure message), which the browser logs.
    expectFailedResponse(502);
    await page.route("**/api/ai/stream-tribute", (route) =>
      route.fulfill({ status: 502, contentType: "application/json", body: JSON.stringify({ message: "Failed to generate AI tribute. Please try again." }) }),
    );
    await page.goto(`/memorials/${memorialId}`);
    await page.getByLabel("Your tribute").fill("My own words so far.");
    await page.getByRole("button", { name: "Help me write" }).click();
    await page.getByLabel("Relationship").fill("cousin");
    await page.getByLabel("Tone").selectOption("warm");
    await page.getByLabel("Memories").fill("Summers by the sea.");
    await page.getByRole("button", { name: "Write my tribute" }).click();
    const dialog = page.getByRole("dialog", { name: "Help me write a tribute" });
    await expect(dialog.getByRole("alert")).toContainText("Failed to generate tribute. Please try again.");
    await expect(page.getByLabel("Memories")).toHaveValue("Summers by the sea.");
    await page.keyboard.press("Escape");
    await expect(page.getByLabel("Your tribute")).toHaveValue("My own words so far.");
  });
});
