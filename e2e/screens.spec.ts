import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { db, loginAs } from "./db";
import { expect, expectAccessible, test } from "./fixtures";

// A sheet of every screen: each page a visitor, a member and an administrator sees, at a phone's width and
// a desktop's, photographed into one folder with an index page (`npm run screens` writes it to screens/;
// the suite to test-results/screens, except in CI). Anyone can look at the whole site at once there. Every screen of the
// sheet is also held to what every page owes: the answer it should give (no error page where there should
// be none), nothing wider than the screen, and no accessibility violation (axe, WCAG 2.2 AA).
// The demo data's people are used, so the sheet shows the site as a family would find it.

const SHEET = process.env.SCREENS_DIR ?? path.join("test-results", "screens");
// CI keeps the log, not the files: there the screens are checked and not photographed (the photographs,
// full-page at two widths, took a sixth of the sheet's time). `npm run screens` photographs them everywhere.
const PHOTOGRAPH = !process.env.CI || !!process.env.SCREENS_DIR;
const WIDTHS = [390, 1280] as const;

type Who = "visitor" | "member" | "administrator";
const AS: Record<Who, string> = { visitor: "a visitor", member: "a member", administrator: "an administrator" };
type Place = { memorialId: string; productId: string; search: string };
type Screen = { name: string; path: (at: Place) => string; status?: number };

const SCREENS: Record<Who, Screen[]> = {
  visitor: [
    { name: "Landing", path: () => "/" },
    { name: "Memorials", path: () => "/memorials" },
    { name: "Memorials, searched", path: (at) => `/memorials?search=${encodeURIComponent(at.search)}` },
    { name: "Memorial", path: (at) => `/memorials/${at.memorialId}` },
    { name: "Life timeline", path: (at) => `/memorials/${at.memorialId}/timeline` },
    { name: "Events", path: (at) => `/memorials/${at.memorialId}/events` },
    { name: "Shop", path: () => "/products" },
    { name: "Endowment", path: () => "/endowment" },
    { name: "News", path: () => "/news" },
    { name: "Contact", path: () => "/contact" },
    { name: "Help", path: () => "/help" },
    { name: "Privacy", path: () => "/privacy" },
    { name: "Terms", path: () => "/terms" },
    { name: "Sign in", path: () => "/login" },
    { name: "Register", path: () => "/register" },
    { name: "Forgot password", path: () => "/forgot-password" },
    { name: "Page not found", path: () => "/no-such-page", status: 404 },
  ],
  member: [
    { name: "Dashboard", path: () => "/" },
    { name: "My Memorials", path: () => "/my-memorials" },
    { name: "Create a memorial", path: () => "/memorials/create" },
    { name: "Memorial (own)", path: (at) => `/memorials/${at.memorialId}` },
    { name: "Edit a memorial", path: (at) => `/memorials/${at.memorialId}/edit` },
    { name: "Co-managers", path: (at) => `/memorials/${at.memorialId}/managers` },
    { name: "QR code", path: (at) => `/memorials/${at.memorialId}/qr` },
    { name: "Download a copy", path: (at) => `/memorials/${at.memorialId}/export` },
    { name: "Account", path: () => "/account" },
    { name: "Security", path: () => "/account/security" },
    { name: "Notifications", path: () => "/account/notifications" },
    { name: "Privacy settings", path: () => "/account/privacy" },
    { name: "Following", path: () => "/account/following" },
    { name: "Manage account", path: () => "/account/manage" },
    { name: "Basket", path: () => "/basket" },
    { name: "Orders", path: () => "/orders" },
    { name: "Subscription", path: () => "/subscription" },
    { name: "Vault", path: () => "/vault" },
    { name: "Friends", path: () => "/friends" },
    { name: "Find friends", path: () => "/friends/find" },
    { name: "Friend requests", path: () => "/friends/requests" },
  ],
  administrator: [
    { name: "Overview", path: () => "/admin" },
    { name: "Analytics", path: () => "/admin/analytics" },
    { name: "Users", path: () => "/admin/users" },
    { name: "Tributes", path: () => "/admin/tributes" },
    { name: "Products", path: () => "/admin/products" },
    { name: "New product", path: () => "/admin/products/new" },
    { name: "Product", path: (at) => `/admin/products/${at.productId}` },
    { name: "Orders (admin)", path: () => "/admin/orders" },
    { name: "News (admin)", path: () => "/admin/news" },
    { name: "Messages", path: () => "/admin/contact" },
    { name: "Feedback", path: () => "/admin/feedback" },
    { name: "Audit log", path: () => "/admin/audit" },
  ],
};

const fileOf = (who: Who, screen: Screen, width: number) =>
  `${who}-${screen.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}-${width}.png`;

/** The index: every screen, both widths side by side, grouped by who sees it. Written from the list above. */
function writeIndex() {
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const sections = (Object.keys(SCREENS) as Who[]).map((who) => {
    const rows = SCREENS[who]
      .map((screen) => {
        const shots = WIDTHS.map((width) => {
          const file = fileOf(who, screen, width);
          return `<a href="${file}"><img src="${file}" alt="${escape(screen.name)} at ${width} px" loading="lazy" width="${width === 390 ? 195 : 480}"></a>`;
        }).join("");
        return `<figure><figcaption>${escape(screen.name)}</figcaption><div class="shots">${shots}</div></figure>`;
      })
      .join("\n");
    return `<section><h2>As ${AS[who]}</h2>\n${rows}</section>`;
  });
  writeFileSync(
    path.join(SHEET, "index.html"),
    `<!doctype html><html lang="en"><meta charset="utf-8"><title>Everlight: every screen</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:24px;background:#f5f5f4;color:#1c1917}figure{margin:0 0 32px}
figcaption{font-weight:600;margin-bottom:8px}.shots{display:flex;gap:16px;align-items:flex-start}
.shots img{border:1px solid #d6d3d1;background:#fff;height:auto}</style>
<h1>Every screen, at 390 px and 1280 px</h1>\n${sections.join("\n")}</html>\n`,
  );
}

async function findPlace(): Promise<Place & { alice: string; admin: string }> {
  const { rows: people } = await db().query<{ id: string; email: string }>(
    `SELECT id, email FROM users WHERE email IN ('alice@everlight.test', 'admin@everlight.test')`,
  );
  const alice = people.find((p) => p.email.startsWith("alice"))!.id;
  const { rows: memorials } = await db().query<{ id: string; firstName: string }>(
    `SELECT id, "firstName" FROM memorials WHERE "userId" = $1 AND visibility = 'public' AND "isPublished" AND "deletedAt" IS NULL ORDER BY "createdAt" LIMIT 1`,
    [alice],
  );
  const { rows: products } = await db().query<{ id: string }>(`SELECT id FROM products WHERE "isActive" ORDER BY "createdAt" LIMIT 1`);
  return {
    alice,
    admin: people.find((p) => p.email.startsWith("admin"))!.id,
    memorialId: memorials[0].id,
    search: memorials[0].firstName,
    productId: products[0].id,
  };
}

/** Checks one screen at one width, photographs it (see PHOTOGRAPH) and says what is wrong with it, if anything. */
async function photograph(page: Page, who: Who, screen: Screen, at: Place, width: number): Promise<string[]> {
  await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
  const address = screen.path(at);
  const response = await page.goto(address);
  const problems: string[] = [];
  const status = response?.status() ?? 0;
  if (status !== (screen.status ?? 200)) problems.push(`${address} at ${width} px answered ${status}`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) problems.push(`${address} at ${width} px is ${overflow} px wider than the screen`);
  try {
    await expectAccessible(page);
  } catch (error) {
    problems.push(`${address} at ${width} px: ${error instanceof Error ? error.message.split("\n").slice(0, 12).join(" ") : String(error)}`);
  }
  if (!PHOTOGRAPH) return problems;
  // Lazy pictures are brought in before the photograph, so the sheet shows what a reader scrolling down sees.
  await page.evaluate(async () => {
    const images = Array.from(document.images);
    for (const img of images) img.loading = "eager";
    const loaded = Promise.all(images.map((img) => img.decode().catch(() => {})));
    await Promise.race([loaded, new Promise((done) => setTimeout(done, 3_000))]);
  });
  await page.screenshot({ path: path.join(SHEET, fileOf(who, screen, width)), fullPage: true, animations: "disabled" });
  return problems;
}

test.describe("the sheet of every screen", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "photographed once, as most people see it; every journey without JavaScript is tested on its own");
  // Some forty pages, each at two widths and checked by axe: longer than one journey.
  test.describe.configure({ timeout: 300_000 });

  test.beforeAll(() => {
    if (!PHOTOGRAPH) return;
    mkdirSync(SHEET, { recursive: true });
    writeIndex();
  });

  for (const who of Object.keys(SCREENS) as Who[]) {
    test(`every screen ${AS[who]} sees, at 390 and 1280 px`, async ({ page }) => {
      const at = await findPlace();
      if (who === "member") await loginAs(page, { id: at.alice });
      if (who === "administrator") await loginAs(page, { id: at.admin });
      const problems: string[] = [];
      for (const screen of SCREENS[who]) for (const width of WIDTHS) problems.push(...(await photograph(page, who, screen, at, width)));
      expect(problems, "screens that fall short").toEqual([]);
    });
  }
});
