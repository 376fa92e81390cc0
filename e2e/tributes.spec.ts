import { randomBytes } from "node:crypto";
import { db, loginAs } from "./db";
import { expect, expectAccessible, test, toast } from "./fixtures";
import { sendFormsAsAPersonWould, sendFormsBackAtOnce } from "./form-stamp";

// A visitor leaves tributes; they stay hidden until the owner approves one and rejects the other.
// JavaScript on and off.

async function publicMemorialOf(userId: string) {
  const { rows } = await db().query(
    `INSERT INTO memorials ("userId", title, "firstName", "lastName", visibility, "isPublished") VALUES ($1, 'In loving memory', 'Edith', 'Hart', 'public', true) RETURNING id`,
    [userId],
  );
  return rows[0].id as string;
}

const thanks = (page: import("@playwright/test").Page) => page.getByTestId("toast-in-place");

async function leaveTribute(page: import("@playwright/test").Page, name: string, content: string) {
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Your tribute").fill(content);
  // A form sent back within 3 seconds of being served is taken for a bot (form-guard.server.ts).
  await sendFormsAsAPersonWould(page);
  await page.getByRole("button", { name: "Leave Tribute" }).click();
}

test("a visitor's tribute waits for the owner, who approves one and rejects another", async ({ page, browser, member }) => {
  test.slow(); // two tributes, each waiting out the 3-second guard, then the owner's round
  const memorialId = await publicMemorialOf(member.id);
  const kept = `Edith taught me to bake bread ${randomBytes(3).toString("hex")}.`;
  const rejected = `Buy cheap watches now ${randomBytes(3).toString("hex")}.`;

  await page.goto(`/memorials/${memorialId}`);
  await expectAccessible(page);
  await leaveTribute(page, "Margaret Lowe", kept);
  // The thanks is shown in the tribute section, where the visitor lands (e2e/phone.spec.ts).
  await expect(thanks(page)).toContainText("Tribute submitted");
  await expect(thanks(page)).toContainText("will appear once they approve it");
  await expect(page.getByText(kept)).toHaveCount(0);
  // The form is empty again for the next visitor's words.
  await expect(page.getByLabel("Your tribute")).toHaveValue("");
  await leaveTribute(page, "Spam Bot", rejected);
  await expect(thanks(page)).toContainText("Tribute submitted");
  await expect(page.getByText(rejected)).toHaveCount(0);

  const ownerContext = await browser.newContext({ javaScriptEnabled: test.info().project.name === "js" });
  const owner = await ownerContext.newPage();
  await loginAs(owner, member);
  await owner.goto(`/memorials/${memorialId}`);
  await expect(owner.getByText("Waiting for approval (2)")).toBeVisible();
  await expect(owner.getByText("Pending").first()).toBeVisible();
  await owner.getByRole("button", { name: "Approve tribute from Margaret Lowe" }).click();
  await expect(toast(owner)).toContainText("Tribute approved");
  // Rejecting deletes the words for good, so it is confirmed first.
  await owner.locator("summary", { hasText: "Reject tribute from Spam Bot" }).click();
  await owner.getByRole("button", { name: "Delete tribute from Spam Bot" }).click();
  await expect(toast(owner)).toContainText("Tribute deleted");
  await ownerContext.close();

  await page.goto(`/memorials/${memorialId}`);
  await expect(page.getByText(kept)).toBeVisible();
  await expect(page.getByText("Margaret Lowe")).toBeVisible();
  await expect(page.getByText(rejected)).toHaveCount(0);
  const { rows } = await db().query(`SELECT content, "isApproved" FROM tributes WHERE "memorialId" = $1`, [memorialId]);
  expect(rows).toEqual([{ content: kept, isApproved: true }]);
});

test("a tribute sent back too fast is refused with a reason, and nothing is stored", async ({ page, member }) => {
  const memorialId = await publicMemorialOf(member.id);
  await sendFormsBackAtOnce(page);
  await page.goto(`/memorials/${memorialId}`);
  await page.getByLabel("Your name").fill("Quick Typist");
  await page.getByLabel("Your tribute").fill("Typed faster than any person could.");
  await page.getByRole("button", { name: "Leave Tribute" }).click();
  await expect(page.getByRole("alert")).toContainText("quicker than we expected");
  await expect(page.getByLabel("Your name")).toHaveValue("Quick Typist");
  const { rows } = await db().query(`SELECT count(*)::int AS n FROM tributes WHERE "memorialId" = $1`, [memorialId]);
  expect(rows[0].n).toBe(0);
});

test("bad tribute input gets messages next to the fields", async ({ page, member }) => {
  const memorialId = await publicMemorialOf(member.id);
  await page.goto(`/memorials/${memorialId}`);
  await page.getByLabel("Your name").fill("A");
  await page.getByLabel("Your email (optional)").fill("not-an-email");
  await page.getByLabel("Your tribute").fill("short");
  // A form sent back within 3 seconds of being served is taken for a bot (form-guard.server.ts).
  await sendFormsAsAPersonWould(page);
  await page.getByRole("button", { name: "Leave Tribute" }).click();
  await expect(page.getByLabel("Your name")).toHaveAccessibleDescription(/Please enter your name/);
  await expect(page.getByLabel("Your email (optional)")).toHaveAccessibleDescription(/valid email address/);
  await expect(page.getByLabel("Your tribute")).toHaveAccessibleDescription(/Please write your tribute/);
  await expectAccessible(page);
});

test("markup in a tribute is shown as text and never runs", async ({ page, member }) => {
  const memorialId = await publicMemorialOf(member.id);
  const script = `<script>window.__pwned = true</script><img src=x onerror="window.__pwned=true"> ${randomBytes(3).toString("hex")}`;
  await db().query(`INSERT INTO tributes ("memorialId", "authorName", content, "isApproved") VALUES ($1, 'Mallory', $2, true)`, [memorialId, script]);
  await page.goto(`/memorials/${memorialId}`);
  await expect(page.getByText(script)).toBeVisible();
  expect(await page.locator("#tributes img[src='x']").count()).toBe(0);
  if (test.info().project.name === "js") expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
});

test("a signed-in visitor finds the form filled with their name and email", async ({ page, member }) => {
  const memorialId = await publicMemorialOf(member.id);
  await loginAs(page, member);
  await page.goto(`/memorials/${memorialId}`);
  await expect(page.getByLabel("Your name")).toHaveValue(`${member.firstName} ${member.lastName}`);
  await expect(page.getByLabel("Your email (optional)")).toHaveValue(member.email);
});
