import type { Page } from "@playwright/test";
import { createTestMemorial, createTestUser, deleteTestUser, loginAs } from "./db";
import { expect, expectAccessible, test } from "./fixtures";

// No link in the navigation leads to a 404. Every same-site link on the main pages
// (the header with its mobile and avatar menus, the footer, the dashboard, the help and legal pages) is
// followed, as a visitor, a member and an administrator; none may answer 404. Screens not built yet
// (app/utils/screens.ts) have no entry until they are.

test.use({ viewport: { width: 390, height: 844 } });

/** Every same-site link on the page, without its #fragment, once each. */
async function sameSiteLinks(page: Page) {
  const hrefs = await page.locator('a[href^="/"]').evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
  return [...new Set(hrefs.map((href) => href.split("#")[0]))];
}

/**
 * Links to one memorial are data, not navigation: other tests running meanwhile delete theirs. Only
 * those of the memorials `ownIds` (this test's) are followed.
 */
function isNavigation(href: string, ownIds: string[]) {
  const memorial = href.match(/^\/memorials\/([0-9a-f-]{36})(?:[/?]|$)/);
  return !memorial || ownIds.includes(memorial[1]);
}

/** Visits the pages, collects their links, and lists those that answer 404 (or 5xx). */
async function brokenLinks(page: Page, pages: string[], ownIds: string[] = []) {
  const links = new Set<string>();
  for (const path of pages) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(path === NOT_FOUND ? 404 : 200);
    for (const href of await sameSiteLinks(page)) if (isNavigation(href, ownIds)) links.add(href);
  }
  const broken: string[] = [];
  for (const href of links) {
    // page.request shares the page's cookies: the link is followed as this person would follow it.
    const response = await page.request.get(href);
    if (response.status() === 404 || response.status() >= 500) broken.push(`${href} → ${response.status()}`);
  }
  return { links: [...links], broken };
}

const PUBLIC_PAGES = ["/", "/memorials", "/news", "/contact", "/help", "/terms", "/privacy", "/endowment"];
/** The not-found page's own links (home, the gallery) must lead somewhere too. */
const NOT_FOUND = "/no-such-page";

test("every link a visitor can follow from the menus and main pages leads somewhere", async ({ page }) => {
  const { links, broken } = await brokenLinks(page, [...PUBLIC_PAGES, "/login", "/register", NOT_FOUND]);
  expect(broken).toEqual([]);
  expect(links).toEqual(expect.arrayContaining(["/", "/memorials", "/news", "/contact", "/login", "/register", "/help"]));
});

test("every link a member can follow from the menus, dashboard and main pages leads somewhere", async ({ page, member }) => {
  const memorial = await createTestMemorial(member);
  await loginAs(page, member);
  const pages = [
    ...PUBLIC_PAGES,
    "/my-memorials",
    "/account",
    "/friends",
    "/friends/requests",
    "/friends/find",
    `/memorials/${memorial.id}`,
    `/memorials/${memorial.id}/edit`,
    "/memorials/create",
  ];
  const { links, broken } = await brokenLinks(page, pages, [memorial.id]);
  expect(broken).toEqual([]);
  expect(links).toEqual(
    expect.arrayContaining([
      "/my-memorials",
      "/memorials/create",
      "/account",
      "/friends",
      "/friends/requests",
      "/friends/find",
      `/memorials/${memorial.id}/edit`,
    ]),
  );
});

test("every link an administrator can follow from the menus leads somewhere", async ({ page }) => {
  const admin = await createTestUser({ isAdmin: true });
  try {
    await loginAs(page, admin);
    const { broken } = await brokenLinks(page, [...PUBLIC_PAGES, "/my-memorials", "/account", "/friends"]);
    expect(broken).toEqual([]);
  } finally {
    await deleteTestUser(admin);
  }
});

test("the phone menu holds only screens that exist, with the shop and My Orders, and the basket button counts items", async ({ page, member }) => {
  await loginAs(page, member);
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Basket, 0 items" })).toBeVisible();
  await nav.getByLabel("Menu", { exact: true }).click();
  const menu = nav.locator("details").last();
  await expect(menu.getByRole("link")).toHaveText([
    "Home",
    "News",
    "My Memorials",
    "Vault",
    "Memorials",
    "Products",
    "Create Memorial",
    "My Account",
    "Friends",
    "My Orders",
    "Contact",
  ]);
  await expect(menu.getByRole("button", { name: "Log out" })).toBeVisible();
  await expectAccessible(page);
});
