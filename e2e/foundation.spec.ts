import { expect, expectAccessible, test } from "./fixtures";

// The visitor's first look at the site: landing page, static pages, not-found page, health check.
// Runs in both projects, JavaScript on and off.

test("the landing page shows every section, with recent memorials from the database", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);

  await expect(page.getByRole("heading", { level: 1, name: "Preserve Digital Legacies That Last Forever" })).toBeVisible();
  const hero = page.locator("section").first();
  await expect(hero.getByRole("link", { name: "Create Memorial" })).toHaveAttribute("href", "/login");
  await expect(hero.getByRole("link", { name: "Explore Memorials" })).toHaveAttribute("href", "/market");

  const recent = page.getByRole("region", { name: "Recent Memorials" });
  await expect(recent.getByRole("heading", { name: "Recent Memorials" })).toBeVisible();
  const viewLinks = recent.getByRole("link", { name: /View Memorial/ });
  await expect(viewLinks).toHaveCount(4);
  for (const href of await viewLinks.evaluateAll((links) => links.map((a) => a.getAttribute("href")))) {
    expect(href).toMatch(/^\/memorials\/[0-9a-f-]{36}$/);
  }
  await expect(recent.getByText("Public", { exact: true })).toBeVisible();
  // Real counts, whatever they are for the newest memorials now.
  await expect(recent.getByText(/^\d+ tributes?$/).first()).toBeVisible();
  await expect(recent.getByText(/^\d+ views?$/).first()).toBeVisible();
  await expect(recent.getByRole("link", { name: "View All Memorials" })).toHaveAttribute("href", "/market");
  // Only public, published memorials appear: the demo data's private and draft ones never do.
  await expect(recent).not.toContainText("Samuel Adeyemi");
  await expect(recent).not.toContainText("Winifred Hale");

  await expect(page.getByRole("heading", { name: "Everything You Need to Honor a Life" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Simple Steps to Create a Memorial" })).toBeVisible();
  for (const step of ["Create Account", "Add Memories", "Share & Honor"]) {
    await expect(page.getByRole("heading", { name: step })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "Create Free Memorial" })).toHaveAttribute("href", "/login");
  await expect(page.getByRole("link", { name: "Explore Platform" })).toHaveAttribute("href", "/market");

  const footer = page.getByRole("contentinfo");
  await expect(footer).toContainText("© 2024 Everlight");
  for (const href of ["/market", "/help", "/privacy", "/terms"]) {
    await expect(footer.locator(`a[href="${href}"]`).first()).toBeVisible();
  }
  await expectAccessible(page);
});

test("the navigation bar offers the visitor's links", async ({ page }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Login" }).first()).toHaveAttribute("href", "/login");
  await expect(nav.getByRole("link", { name: "Sign Up" }).first()).toHaveAttribute("href", "/register");
});

test("the mobile menu opens without JavaScript", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/");
  const menu = page.getByRole("navigation", { name: "Main" }).locator("details");
  await expect(menu.getByRole("link", { name: "Memorials" })).toBeHidden();
  await menu.locator("summary").click();
  await expect(menu.getByRole("link", { name: "Memorials" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/register");
  await expectAccessible(page);
});

// The landing page, as every public page, runs no script until the visitor uses it
// (app/request/hydrate-on-use.server.ts); the first tap, on the phone menu, opens it and brings them.
// A page of its own, not the fixture's (whose goto moves the pointer first, as a person does).
test("the landing page runs its scripts only once the visitor uses it", async ({ browser, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "about scripts");
  // A phone.
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto("/");
  await page.waitForLoadState("load");
  const scriptsRun = () => page.evaluate(() => "__reactRouterContext" in window || document.documentElement.dataset.hydrated === "true");
  expect(await scriptsRun()).toBe(false);
  const menu = page.getByRole("navigation", { name: "Main" }).locator("details");
  await menu.locator("summary").click();
  await expect(menu.getByRole("link", { name: "Memorials" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  // Hydrated, a link is followed without a new document: the menu closes on the way.
  await menu.getByRole("link", { name: "Memorials" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Memorial Gallery" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Memorials" })).toBeHidden();
  expect(await page.evaluate(() => performance.getEntriesByType("navigation").length)).toBe(1);
  expect(errors).toEqual([]);
  await context.close();
});

test("an unknown path shows the not-found page with status 404", async ({ page }) => {
  const response = await page.goto("/no/such/page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "404 Page Not Found" })).toBeVisible();
  // Its words for the visitor: e2e/small-things.spec.ts.
  await expectAccessible(page);
});

test("the health check answers 200 while the database is reachable", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok", database: "ok" });
  expect(response.headers()["cache-control"]).toBe("no-store");
});

test("the help centre answers six questions", async ({ page }) => {
  await page.goto("/help");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Help");
  const questions = page.locator("main details");
  await expect(questions).toHaveCount(6);
  await questions.first().locator("summary").click();
  await expect(questions.first()).toHaveAttribute("open", "");
  await expect(page.locator('main a[href^="mailto:"]').first()).toBeVisible();
  await expectAccessible(page);
});

for (const [path, title, sections] of [
  ["/terms", "Terms of Service", 15],
  ["/privacy", "Privacy Policy", 12],
] as const) {
  test(`${title} has ${sections} numbered sections, last updated December 1, 2024`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText("December 1, 2024")).toBeVisible();
    await expect(page.getByRole("heading", { level: 2, name: /^\d+\.\s/ })).toHaveCount(sections);
    await expect(page.getByRole("heading", { level: 2, name: new RegExp(`^${sections}\\.`) })).toBeVisible();
    await expectAccessible(page);
  });
}
