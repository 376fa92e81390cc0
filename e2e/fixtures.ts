import { randomInt } from "node:crypto";
import axeCore from "axe-core";
import { test as base, expect, type Browser, type BrowserContext, type ConsoleMessage, type Page } from "@playwright/test";
import { createTestUser, deleteTestUser, type TestUser } from "./db";

const noJsPages = new WeakSet<Page>();

// No page throws in the browser: every page of every journey is watched, and a test
// in which a page threw, or logged an error to the console (React reports a hydration mismatch there),
// fails at its end with what was seen. The list belongs to the test running now (a worker runs one at a time).
let browserProblems: string[] | null = null;
const watchedPages = new WeakSet<Page>();

function watchForErrors(page: Page) {
  if (watchedPages.has(page)) return;
  watchedPages.add(page);
  page.on("pageerror", (error) => browserProblems?.push(`${page.url()} threw ${error.name}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !isExpectedHttpRefusal(message)) browserProblems?.push(`${page.url()} logged an error: ${message.text()}`);
  });
}

// Chromium logs every response with a 4xx status as a console error ("Failed to load resource: the server
// responded with a status of 400 (Bad Request)"), including the ones journeys cause on purpose and the
// app answers in the page: a form refused with field errors (400), a rate limit (429), a page for which
// the visitor lacks rights (403/404), a missing picture replaced by its placeholder (404). Those are the
// server's answers, not the page failing; a 5xx is never expected, so it still fails the test.
function isExpectedHttpRefusal(message: ConsoleMessage) {
  const status = Number(/^Failed to load resource: the server responded with a status of (\d{3})\b/.exec(message.text())?.[1]);
  return (status >= 400 && status < 500) || failuresExpected.has(status);
}

/** Statuses the running test brings about on purpose (a provider that fails: 502), whose console line is expected. */
const failuresExpected = new Set<number>();

/** Says that this test makes the page meet `status` on purpose (e.g. a route that answers 502 for a failing AI provider). */
export function expectFailedResponse(status: number) {
  failuresExpected.add(status);
}

// Every test runs against the server e2e/global-setup.ts started.
export const test = base.extend<{ member: TestUser; browserErrors: void }, object>({
  // And so are the pages of contexts a test opens itself (a second person, a phone): every context the
  // worker's browser makes watches its pages.
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext(options);
        context.on("page", watchForErrors);
        return context;
      };
      await use(browser);
    },
    { scope: "worker" },
  ],
  browserErrors: [
    async ({}, use) => {
      browserProblems = [];
      failuresExpected.clear();
      await use();
      const seen = browserProblems;
      browserProblems = null;
      expect(seen, "errors in the browser (uncaught exceptions and console errors)").toEqual([]);
    },
    { auto: true },
  ],
  // Pages the test opens itself in its context (popups, a second tab) are watched as `page` is.
  context: async ({ context }, use) => {
    context.on("page", watchForErrors);
    await use(context);
  },
  // Each test comes from an address of its own (the e2e server trusts X-Forwarded-For, as behind a load
  // balancer): the limits per address (tributes, registrations, sign-in) then count each test alone, as
  // they count each visitor, instead of the whole suite's posts from 127.0.0.1 adding up.
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    await use({ ...extraHTTPHeaders, "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` });
  },
  /** A fresh member for this test, deleted afterwards (with everything they made). */
  member: async ({}, use) => {
    const user = await createTestUser();
    await use(user);
    await deleteTestUser(user);
  },
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error("E2E_BASE_URL is not set: the e2e global setup did not run.");
    await use(url);
  },
  page: async ({ page, javaScriptEnabled }, use) => {
    await use(prepare(page, javaScriptEnabled !== false));
  },
});

function prepare(page: Page, javaScriptEnabled: boolean): Page {
  watchForErrors(page);
  if (!javaScriptEnabled) noJsPages.add(page);
  else {
    // With JavaScript, act on the page once it is interactive. The memorial page loads its scripts
    // when the visitor starts to use it (app/request/hydrate-on-use.server.ts): the pointer moves
    // over the page first, as a person's does.
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      await movePointerUntilNoticed(page);
      await waitForHydration(page);
      return response;
    };
  }
  return page;
}

const WAITING_SCRIPTS = 'script[type="everlight/on-use"]';
/** Where the pointer was left on each page: a move to the same spot has no movement. */
const pointerAt = new WeakMap<Page, number>();

/**
 * Moves the pointer over a page whose scripts wait for the visitor until the page takes it in, a pixel
 * further each time, from where it was left: the page does not count a move without movement as use.
 */
async function movePointerUntilNoticed(page: Page) {
  for (let tries = 0; tries < 40 && (await page.locator(WAITING_SCRIPTS).count()); tries++) {
    const x = ((pointerAt.get(page) ?? 2) % 200) + 1;
    pointerAt.set(page, x);
    await page.mouse.move(x, 3);
    await page.waitForFunction((selector) => !document.querySelector(selector), WAITING_SCRIPTS, { timeout: 250 }).catch(() => {});
  }
}

/**
 * A second person's page in a browser context of their own, with JavaScript as this test's project has
 * it, prepared as the `page` fixture is (so expectAccessible knows how to check it). Close its context.
 */
export async function anotherPersonsPage(browser: Browser): Promise<Page> {
  const javaScriptEnabled = base.info().project.use.javaScriptEnabled !== false;
  const context = await browser.newContext({ javaScriptEnabled, baseURL: process.env.E2E_BASE_URL });
  return prepare(await context.newPage(), javaScriptEnabled);
}

/** Waits for React Router to hydrate the page (root.tsx marks <html>); pages without it go on at once. */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(
    () =>
      document.documentElement.dataset.hydrated === "true" || !("__reactRouterContext" in window || document.querySelector('script[type="everlight/on-use"]')),
  );
}

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** The toast the page shows now (JavaScript on or off). */
export function toast(page: Page) {
  return page.getByTestId("toast");
}

type AxeViolation = { id: string; help: string; nodes: { target: string[] }[] };

/**
 * axe run in the page itself, put there once per page load (its 560 KB took a quarter of each check to
 * compile when put there for every check), asked for violations only: building the report of every rule
 * that passed took a sixth. Our pages embed no frames of another origin, so it looks at the page alone.
 */
async function axe(page: Page): Promise<{ violations: AxeViolation[] }> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeCore.source);
  return page.evaluate(
    (tags) =>
      (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe.run(document, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
        iframes: false,
      }),
    WCAG_TAGS,
  );
}

/** WCAG 2.2 AA, zero violations, on the page as the visitor sees it now. */
export async function expectAccessible(page: Page) {
  const results = noJsPages.has(page) ? await analyzeWithoutPageScripts(page) : await axe(page);
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(summary, "accessibility violations").toEqual([]);
}

// axe is a script, and a page with JavaScript switched off cannot run it. So copy the page's current
// DOM, without its scripts, into a page that may run scripts: axe then sees exactly what the visitor
// without JavaScript sees (with the same styles and pictures, so contrast is checked too). One such
// context per browser serves every check of the worker: a fresh one each time cost a second of setup
// and an empty cache.
const axeContexts = new WeakMap<Browser, Promise<BrowserContext>>();

async function analyzeWithoutPageScripts(page: Page) {
  const html = withoutScripts(await page.content());
  const url = page.url();
  const browser = page.context().browser()!;
  if (!axeContexts.has(browser)) axeContexts.set(browser, browser.newContext({ javaScriptEnabled: true }));
  const copy = await (await axeContexts.get(browser)!).newPage();
  try {
    const viewport = page.viewportSize();
    if (viewport) await copy.setViewportSize(viewport);
    await copy.route(
      (address) => address.href === url,
      (route) => (route.request().isNavigationRequest() ? route.fulfill({ body: html, contentType: "text/html" }) : route.continue()),
    );
    await copy.goto(url);
    return await axe(copy);
  } finally {
    await copy.close();
  }
}

/** The page's markup with its scripts and module preloads taken out (none of them runs without JavaScript). */
function withoutScripts(html: string) {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "").replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, "");
}

export { expect };
