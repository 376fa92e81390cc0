import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { createTestUser, db, deleteTestUser, type TestUser } from "./db";
import { expect, expectAccessible, test } from "./fixtures";

// The public gallery at /memorials and /market, with
// JavaScript on and off: search, category, sort, three views and Load More, every choice in the
// address. The shared e2e database also holds demo and other specs' memorials, so every assertion is
// scoped by a word only this test's memorials carry.

type Seeded = { token: string; owner: TestUser; names: string[]; hidden: string[] };

/** Ten public memorials carrying `token` (3 organizations), plus a private, a friends-only and a draft one. */
async function seedGallery(): Promise<Seeded> {
  const token = `zq${randomBytes(4).toString("hex")}`;
  const owner = await createTestUser();
  const rows = [
    { last: "Abbott", views: 3, category: "individual" },
    { last: "Baker", views: 50, category: "individual" },
    { last: "Carver", views: 7, category: "organization" },
    { last: "Dunmore", views: 0, category: "individual" },
    { last: "Ellery", views: 12, category: "organization" },
    { last: "Fairley", views: 1, category: "individual" },
    { last: "Gower", views: 9, category: "individual" },
    { last: "Hartley", views: 2, category: "organization" },
    { last: "Ingram", views: 4, category: "individual" },
    { last: "Jessop", views: 5, category: "individual" },
  ];
  const names: string[] = [];
  for (const [i, r] of rows.entries()) {
    const first = `Memo${token}`;
    names.push(`${first} ${r.last}`);
    await db().query(
      `INSERT INTO memorials ("userId", title, "firstName", "lastName", biography, visibility, "isPublished", "viewCount", category, "createdAt")
       VALUES ($1, $2, $3, $4, $5, 'public', true, $6, $7, now() - make_interval(mins => $8))`,
      [owner.id, `${first} ${r.last}`, first, r.last, `Remembered in the ${token.toUpperCase()} archive.`, r.views, r.category, i],
    );
  }
  const hidden: string[] = [];
  for (const [last, visibility, published] of [
    ["Private", "private", true],
    ["Friendsonly", "friends", true],
    // Anyone with the link may read it, but it is in no list.
    ["Unlisted", "unlisted", true],
    ["Draft", "public", false],
  ] as const) {
    hidden.push(`Hidden${token} ${last}`);
    await db().query(
      `INSERT INTO memorials ("userId", title, "firstName", "lastName", biography, visibility, "isPublished", "viewCount") VALUES ($1, 'x', $2, $3, $4, $5, $6, 99)`,
      [owner.id, `Hidden${token}`, last, `Remembered in the ${token} archive.`, visibility, published],
    );
  }
  return { token, owner, names, hidden };
}

const results = (page: Page) => page.locator("section[aria-labelledby='results-heading'] li[id^='result-']");
const resultNames = (page: Page) => results(page).locator("h3").allInnerTexts();

/** Applies the filter form: selects apply at once with JavaScript; without it the Search button sends them. */
async function applyFilters(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) await page.getByRole("button", { name: "Search", exact: true }).click();
}

let seeded: Seeded;
test.beforeAll(async () => {
  seeded = await seedGallery();
});
test.afterAll(async () => {
  await deleteTestUser(seeded.owner);
});

test("the gallery searches, filters, sorts, switches view and loads more, with the address following", async ({ page, javaScriptEnabled }) => {
  const { token, names, hidden } = seeded;
  await page.goto("/memorials");
  await expect(page.getByRole("heading", { level: 1, name: "Memorial Gallery" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Featured" })).toBeVisible();

  // Search, whatever the case: the newest 8 first, then Load More brings the other 2.
  await page.getByLabel("Search memorials").fill(token.toUpperCase());
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]search=${token.toUpperCase()}`));
  await expect(results(page)).toHaveCount(8);
  await expect(results(page).locator("h3")).toHaveText(names.slice(0, 8));
  await expectAccessible(page);

  await page.getByRole("link", { name: "Load More" }).click();
  await expect(page).toHaveURL(/[?&]page=2/);
  await expect(results(page)).toHaveCount(10);
  await expect(results(page).locator("h3")).toHaveText(names);
  await expect(page.getByRole("link", { name: "Load More" })).toHaveCount(0);
  for (const name of hidden) await expect(page.getByText(name)).toHaveCount(0);

  // A category starts again at page 1.
  await page.getByLabel("Category").selectOption({ label: "Organizations" });
  await applyFilters(page, javaScriptEnabled);
  await expect(page).toHaveURL(/[?&]category=organization/);
  await expect(page).not.toHaveURL(/[?&]page=/);
  await expect(results(page)).toHaveCount(3);
  await expect(results(page).locator("h3")).toHaveText([names[2], names[4], names[7]]);

  // Most Popular, then Alphabetical, across all categories.
  await page.getByLabel("Category").selectOption({ label: "All Categories" });
  await page.getByLabel("Sort by").selectOption({ label: "Most Popular" });
  await applyFilters(page, javaScriptEnabled);
  await expect(page).toHaveURL(/[?&]sort=popular/);
  await expect(results(page).first().locator("h3")).toHaveText(names[1]);
  await expect(results(page).locator("h3").nth(1)).toHaveText(names[4]);
  expect((await resultNames(page)).slice(0, 3)).toEqual([names[1], names[4], names[6]]);

  await page.getByLabel("Sort by").selectOption({ label: "Alphabetical" });
  await applyFilters(page, javaScriptEnabled);
  await expect(page).toHaveURL(/[?&]sort=alphabetical/);
  await expect(results(page).first().locator("h3")).toHaveText(names[0]);
  await expect(results(page).locator("h3")).toHaveText(names.slice(0, 8));

  // Views: masonry labels the memorials seen more than 10 times as Featured; list is compact.
  await page.getByRole("navigation", { name: "View" }).getByRole("link", { name: "Masonry" }).click();
  await expect(page).toHaveURL(/[?&]view=masonry/);
  await expect(page.locator("[data-view='masonry']")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "View" }).getByRole("link", { name: "Masonry" })).toHaveAttribute("aria-current", "true");
  const featured = results(page).filter({ hasText: "Featured" }).locator("h3");
  expect((await featured.allInnerTexts()).sort()).toEqual([names[1], names[4]].sort());
  await expect(page).toHaveURL(/[?&]sort=alphabetical/);
  await expectAccessible(page);

  await page.getByRole("navigation", { name: "View" }).getByRole("link", { name: "List" }).click();
  await expect(page).toHaveURL(/[?&]view=list/);
  await expect(page.locator("[data-view='list']")).toBeVisible();
  await expect(results(page)).toHaveCount(8);
  // The view is kept when the search changes.
  await page.getByLabel("Search memorials").fill(token);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/[?&]view=list/);
  await expectAccessible(page);
});

test("/market is the same gallery, and a bookmarked address opens as it was left", async ({ page }) => {
  const { token, names } = seeded;
  await page.goto(`/market?search=${token}&category=organization&sort=popular&view=list`);
  await expect(page.getByRole("heading", { level: 1, name: "Memorial Gallery" })).toBeVisible();
  await expect(page.getByLabel("Search memorials")).toHaveValue(token);
  await expect(page.getByLabel("Category")).toHaveValue("organization");
  await expect(page.getByLabel("Sort by")).toHaveValue("popular");
  await expect(page.locator("[data-view='list']")).toBeVisible();
  await expect(results(page).locator("h3")).toHaveText([names[4], names[2], names[7]]);
});

test("nothing found says so and offers to clear; a hand-edited address falls back to defaults", async ({ page }) => {
  const response = await page.goto(`/memorials?search=nothing-${seeded.token}-here&sort=sideways&view=carousel&page=-4&category=cats`);
  expect(response?.status()).toBe(200);
  await expect(page.getByText("No memorials found")).toBeVisible();
  await expect(page.getByLabel("Sort by")).toHaveValue("recent");
  await expect(page.getByLabel("Category")).toHaveValue("all");
  await page.getByRole("link", { name: "Clear search" }).click();
  await expect(page.getByLabel("Search memorials")).toHaveValue("");
  await expect(results(page).first()).toBeVisible();
  await expectAccessible(page);
});

test("on a phone, a search shows its results on the first screen, with the featured memorials after them", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/memorials");
  await page.getByLabel("Search memorials").fill(seeded.token);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]search=${seeded.token}`));
  const first = results(page).first();
  await expect(first).toContainText(seeded.names[0]);
  // The first result starts within the first screen, and every featured card comes after the results.
  const firstBox = (await first.boundingBox())!;
  expect(firstBox.y).toBeLessThan(844);
  const featured = page.getByRole("heading", { level: 2, name: "Featured" });
  await expect(featured).toBeVisible();
  expect((await featured.boundingBox())!.y).toBeGreaterThan(firstBox.y);
  // Without a search, the featured memorials lead as before.
  await page.goto("/memorials");
  expect((await page.getByRole("heading", { level: 2, name: "Featured" }).boundingBox())!.y).toBeLessThan(
    (await page.getByRole("heading", { level: 2, name: "All Memorials" }).boundingBox())!.y,
  );
});

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the carousel moves by itself only with JavaScript");
  test("the Featured carousel has one current memorial, advances every 4 seconds and pauses when asked (needs JavaScript)", async ({ page }) => {
    await page.goto("/memorials");
    const carousel = page.locator("section[aria-roledescription='carousel']");
    const visibleSlide = carousel.locator("li[aria-roledescription='slide'][aria-current='true']");
    await expect(visibleSlide).toHaveCount(1);
    await expect(visibleSlide).toHaveAttribute("aria-label", "1 of 3");
    await page.mouse.move(0, 0);
    await expect(visibleSlide).toHaveAttribute("aria-label", "2 of 3", { timeout: 6000 });

    await carousel.getByRole("button", { name: /Pause/ }).click();
    await expect(carousel.getByRole("button", { name: /Play/ })).toHaveAttribute("aria-pressed", "true");
    const shown = await visibleSlide.getAttribute("aria-label");
    await page.mouse.move(0, 0);
    await page.locator("body").focus();
    await page.waitForTimeout(4500);
    await expect(visibleSlide).toHaveAttribute("aria-label", shown!);
    await carousel.getByRole("button", { name: /Next/ }).click();
    await expect(visibleSlide).not.toHaveAttribute("aria-label", shown!);
    // The current one is scrolled into the row's view.
    await expect
      .poll(() =>
        carousel.locator("ul").evaluate((ul) => {
          const li = ul.querySelector<HTMLElement>("li[aria-current='true']");
          return !!li && li.offsetLeft >= ul.scrollLeft - 2 && li.offsetLeft + li.offsetWidth <= ul.scrollLeft + ul.clientWidth + 2;
        }),
      )
      .toBe(true);
  });

  test("with reduced motion the carousel never moves by itself (needs JavaScript)", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/memorials");
    const carousel = page.locator("section[aria-roledescription='carousel']");
    // Hydrated: the controls are there, but no Pause, since it never moves by itself.
    await expect(carousel.getByRole("button", { name: /Next/ })).toBeVisible();
    await expect(carousel.getByRole("button", { name: /Pause/ })).toHaveCount(0);
    const slide = carousel.locator("li[aria-roledescription='slide'][aria-current='true']");
    await expect(slide).toHaveAttribute("aria-label", "1 of 3");
    await page.waitForTimeout(4500);
    await expect(slide).toHaveAttribute("aria-label", "1 of 3");
  });
});
