import { randomBytes } from "node:crypto";
import { createTestUser, db, deleteTestUser, loginAs } from "./db";
import { expect, expectAccessible, test, toast } from "./fixtures";

// My Memorials: the member's own memorials only, searchable, with pending tributes to approve.
// JavaScript on and off.

async function memorialFor(userId: string, firstName: string, extra: { isPublished?: boolean; visibility?: string } = {}) {
  const { rows } = await db().query(
    `INSERT INTO memorials ("userId", title, "firstName", "lastName", visibility, "isPublished", biography) VALUES ($1, $2, $3, 'Fairweather', $4, $5, 'Kind and funny.') RETURNING id`,
    [userId, `In memory of ${firstName}`, firstName, extra.visibility ?? "public", extra.isPublished ?? true],
  );
  return rows[0].id as string;
}

test("lists only my memorials, searches them by first name whatever the case, and shows the counts", async ({ page, member }) => {
  const token = randomBytes(3).toString("hex");
  const rosalind = `Rosalind${token}`;
  const mine = await memorialFor(member.id, rosalind);
  await memorialFor(member.id, `Bartholomew${token}`, { isPublished: false });
  const other = await createTestUser();
  await memorialFor(other.id, `Rosalind${token}Other`);
  await db().query(`INSERT INTO tributes ("memorialId", "authorName", content, "isApproved") VALUES ($1, 'A', 'Approved tribute one.', true)`, [mine]);

  await loginAs(page, member);
  await page.goto("/my-memorials");
  await expect(page.getByRole("heading", { level: 1, name: "My Memorials" })).toBeVisible();
  await expect(page.getByText("Manage and view your created memorials")).toBeVisible();
  await expect(page.getByText("You have 2 memorials created")).toBeVisible();
  await expect(page.getByRole("heading", { name: `${rosalind} Fairweather` })).toBeVisible();
  await expect(page.getByText(`Rosalind${token}Other`)).toHaveCount(0);
  const card = page.locator("article", { has: page.getByRole("heading", { name: `${rosalind} Fairweather` }) });
  await expect(card.getByText("1 tribute", { exact: true })).toBeVisible();
  // A count of nothing is not shown.
  await expect(card).not.toContainText("0 views");
  await expect(page.locator("article", { hasText: `Bartholomew${token}` })).not.toContainText(/\b0 (tributes|views)/);
  await expect(page.locator("article", { hasText: `Bartholomew${token}` }).getByText("Draft")).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("Search your memorials").fill(rosalind.toUpperCase());
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`search=${rosalind.toUpperCase()}`));
  await expect(page.getByRole("heading", { name: `${rosalind} Fairweather` })).toBeVisible();
  await expect(page.getByText(`Bartholomew${token}`)).toHaveCount(0);
  await expect(page.getByText(`Rosalind${token}Other`)).toHaveCount(0);

  await page.goto(`/my-memorials?search=nobody-${token}`);
  await expect(page.getByText("No memorials found")).toBeVisible();
  await deleteTestUser(other);
});

test("a member with no memorials is invited to create one", async ({ page, member }) => {
  await loginAs(page, member);
  await page.goto("/my-memorials");
  await expect(page.getByText("No memorials yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "Create Your First Memorial" })).toHaveAttribute("href", "/memorials/create");
  await expectAccessible(page);
});

test("pending tributes are approved and rejected from My Memorials", async ({ page, member }) => {
  const id = await memorialFor(member.id, "Agnes");
  await db().query(
    `INSERT INTO tributes ("memorialId", "authorName", content) VALUES ($1, 'Keeper Kate', 'A memory worth keeping.'), ($1, 'Spammy Sam', 'Buy followers cheaply today.')`,
    [id],
  );
  await loginAs(page, member);
  await page.goto("/my-memorials");
  await expect(page.getByRole("heading", { name: "Pending Tributes (2)" })).toBeVisible();
  await page.getByRole("button", { name: "Approve tribute from Keeper Kate" }).click();
  await expect(toast(page)).toContainText("Tribute approved");
  await page.locator("summary", { hasText: "Reject tribute from Spammy Sam" }).click();
  await page.getByRole("button", { name: "Delete tribute from Spammy Sam" }).click();
  await expect(toast(page)).toContainText("Tribute deleted");
  await expect(page.getByRole("heading", { name: /Pending Tributes/ })).toHaveCount(0);
  const { rows } = await db().query(`SELECT "authorName", "isApproved" FROM tributes WHERE "memorialId" = $1`, [id]);
  expect(rows).toEqual([{ authorName: "Keeper Kate", isApproved: true }]);
});

test("a member cannot moderate another member's tributes by posting the form", async ({ page, member }) => {
  const other = await createTestUser();
  const id = await memorialFor(other.id, "Notmine");
  const { rows } = await db().query(`INSERT INTO tributes ("memorialId", "authorName", content) VALUES ($1, 'X', 'Not yours to approve.') RETURNING id`, [id]);
  await loginAs(page, member);
  await page.goto("/my-memorials");
  const response = await page.request.post("/my-memorials", {
    form: { intent: "approve", tributeId: rows[0].id },
    headers: { Origin: process.env.E2E_BASE_URL! },
  });
  expect(response.status()).toBeLessThan(500);
  const after = await db().query(`SELECT "isApproved" FROM tributes WHERE id = $1`, [rows[0].id]);
  expect(after.rows[0].isApproved).toBe(false);
  await deleteTestUser(other);
});
