import { randomBytes } from "node:crypto";
import sharp from "sharp";
import { createTestTribute, loginAs } from "./db";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";

// The page a shared link brings people to, as an anonymous visitor sees it, JavaScript on and off:
// the name, dates, biography, every photo as a link to its larger version, and the approved tributes.
// The memorial is made through the /api as its owner would, with real uploaded photos.

const PHOTOS = 4;

async function photo(seed: number) {
  const bytes = await sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: 40 + seed * 30, g: 120, b: 200 - seed * 20 } } })
    .jpeg()
    .toBuffer();
  return `data:image/jpeg;base64,${bytes.toString("base64")}`;
}

test("an anonymous visitor reads the whole memorial, with every photo opening larger", async ({ browser, page: visitor, member }) => {
  const ownerContext = await browser.newContext();
  const page = await ownerContext.newPage();
  await loginAs(page, member);
  const tag = randomBytes(3).toString("hex");
  const created = await page.request.post("/api/memorials", {
    data: {
      firstName: "Winifred",
      lastName: `Ashby${tag}`,
      dateOfBirth: "1931-04-17",
      dateOfPassing: "2024-09-02",
      biography: `Winnie ran the village post office for forty years.\n\nShe knew every dog by name ${tag}.`,
      visibility: "public",
      isPublished: true,
    },
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  for (let i = 0; i < PHOTOS; i++) {
    const res = await page.request.post(`/api/memorials/${id}/media`, { data: { mediaData: await photo(i), fileName: `p${i}.jpg`, fileType: "image/jpeg" } });
    expect(res.status()).toBe(201);
  }
  await createTestTribute({ id }, { authorName: "Percy Holt", content: `She saved my stamps for me every week ${tag}.`, isApproved: true });
  await createTestTribute({ id }, { authorName: "Not Yet", content: `Waiting for the family ${tag}.` });
  await ownerContext.close();

  const problems: string[] = [];
  visitor.on("pageerror", (error) => problems.push(error.message));
  visitor.on("console", (message) => void (message.type() === "error" && problems.push(message.text())));
  const response = await visitor.goto(`/memorials/${id}`);
  expect(response?.status()).toBe(200);
  await expect(visitor.getByRole("heading", { level: 1, name: `Winifred Ashby${tag}` })).toBeVisible();
  await expect(visitor.getByText("April 17, 1931")).toBeVisible();
  await expect(visitor.getByText("September 2, 2024")).toBeVisible();
  await expect(visitor.getByText("Winnie ran the village post office for forty years.")).toBeVisible();
  await expect(visitor.getByText(`She knew every dog by name ${tag}.`)).toBeVisible();
  await expect(visitor.getByText(`She saved my stamps for me every week ${tag}.`)).toBeVisible();
  await expect(visitor.getByText("Percy Holt")).toBeVisible();
  await expect(visitor.getByText(`Waiting for the family ${tag}.`)).toHaveCount(0);

  const gallery = visitor.getByRole("region", { name: "Photos and videos" });
  const links = gallery.getByRole("link", { name: /opens the full-size photo/ });
  await expect(links).toHaveCount(PHOTOS);
  for (let i = 0; i < PHOTOS; i++) {
    const link = links.nth(i);
    // Sized before it loads (nothing jumps), and loaded only when scrolled near.
    const img = link.getByRole("img");
    await expect(img).toHaveAttribute("width", /\d+/);
    await expect(img).toHaveAttribute("height", /\d+/);
    await expect(img).toHaveAttribute("loading", "lazy");
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    // The link opens a larger version than the one shown on the page.
    const full = await visitor.request.get((await link.getAttribute("href"))!);
    expect(full.status()).toBe(200);
    expect(full.headers()["content-type"]).toMatch(/^image\//);
    const { width } = await sharp(await full.body()).metadata();
    expect(width).toBeGreaterThan(await img.evaluate((el: HTMLImageElement) => el.clientWidth));
  }
  // The portrait placeholder or photo is the first thing to load, not held back.
  await expect(visitor.getByRole("img", { name: `Portrait of Winifred Ashby${tag}` })).toHaveAttribute("fetchpriority", "high");
  await expectAccessible(visitor);
  // Its scripts, loaded after the page, ran without a complaint (a CSP refusal or a hydration error).
  expect(problems).toEqual([]);
});

test("a pointer that moves while the page is still arriving starts the scripts once the page is all there", async ({ browser, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "about when the scripts load");
  // A visitor can move the pointer before the rest of the document has arrived. The page is served with
  // such a move right after the script that waits for use, before the held-back scripts further down.
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.route(
      (address) => address.pathname === "/register",
      async (route) => {
        const response = await route.fetch();
        const html = await response.text();
        const loader = /<script nonce="([^"]+)">\(function\(\)\{var d=document[\s\S]*?<\/script>/.exec(html);
        expect(loader, "the page waits for use").not.toBeNull();
        const move = `<script nonce="${loader![1]}">window.dispatchEvent(new PointerEvent("pointermove", { movementX: 2, movementY: 1 }))</script>`;
        await route.fulfill({ response, body: html.replace(loader![0], loader![0] + move) });
      },
    );
    await page.goto("/register");
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    await expect(page.locator('script[type="everlight/on-use"]')).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("a reader on a phone downloads no script until they use the page or near the tribute form", async ({ browser, member, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "about when the scripts load");
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await loginAs(owner, member);
  const paragraph = "She kept the allotment going through every dry summer and wet winter, and nobody left her gate without a bag of beans. ".repeat(6);
  const create = async (firstName: string, biography: string) => {
    const created = await owner.request.post("/api/memorials", {
      data: { firstName, lastName: "Marsh", dateOfBirth: "1928-02-11", dateOfPassing: "2023-06-30", biography, visibility: "public", isPublished: true },
    });
    expect(created.status()).toBe(201);
    return ((await created.json()) as { id: string }).id;
  };
  const id = await create("Edith", Array(12).fill(paragraph.trim()).join("\n\n"));
  // A short memorial: its tribute form is within reach as the page opens.
  const shortId = await create("Ivy", "She loved her garden.");
  await ownerContext.close();

  const phone = await browser.newContext({ viewport: { width: 412, height: 823 }, hasTouch: true, isMobile: true });
  try {
    const open = async (memorialId = id) => {
      const page = await phone.newPage();
      const scripts: string[] = [];
      page.on("request", (request) => void (request.resourceType() === "script" && scripts.push(request.url())));
      await page.goto(`/memorials/${memorialId}`, { waitUntil: "networkidle" });
      return { page, scripts };
    };
    const helpMeWrite = (page: Page) => page.getByRole("button", { name: "Help me write" });

    // Reading only: the page is whole, and no script has been fetched or run.
    const reader = await open();
    await expect(reader.page.getByRole("heading", { level: 1, name: "Edith Marsh" })).toBeVisible();
    expect(reader.scripts).toEqual([]);
    expect(await reader.page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
    await expect(helpMeWrite(reader.page)).toHaveCount(0);
    // The first tap brings the scripts, and the page hydrates.
    await reader.page.getByRole("heading", { level: 1 }).tap();
    await expect(helpMeWrite(reader.page)).toBeVisible();
    expect(reader.scripts.length).toBeGreaterThan(0);

    // Scrolling towards the tribute form (no tap, no key) brings them too.
    const scroller = await open();
    expect(scroller.scripts).toEqual([]);
    await scroller.page.evaluate(() => document.getElementById("leave-tribute")!.scrollIntoView());
    await expect(helpMeWrite(scroller.page)).toBeVisible();

    // On a short memorial the form is near from the start: the page still waits for its reader, and the
    // form is there as plain HTML meanwhile.
    const short = await open(shortId);
    await expect(short.page.getByRole("heading", { level: 1, name: "Ivy Marsh" })).toBeVisible();
    // Within a screen of the viewport: near enough that, before, its scripts started as the page loaded.
    expect(await short.page.evaluate(() => document.getElementById("leave-tribute")!.getBoundingClientRect().top < 2 * innerHeight)).toBe(true);
    // Two frames after the load: the form's observer has had its first look.
    await short.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(short.scripts).toEqual([]);
    expect(await short.page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
    await expect(helpMeWrite(short.page)).toHaveCount(0);
    await short.page.getByLabel("Your name").tap();
    await expect(helpMeWrite(short.page)).toBeVisible();
  } finally {
    await phone.close();
  }
});
