import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { createTestUser, db, deleteTestUser, loginAs } from "./db";
import { expect, expectAccessible, test } from "./fixtures";

// News: the articles newest first, 10 a page, each linking out safely, its picture our own
// copy; administrators see the fetch, and how to add a feed when none is set up (the e2e server has no
// NEWS_FEEDS; fetching from real feeds is proven over HTTP against a local feed server in
// app/routes/api/news-contact.test.ts and app/models/news.server.test.ts). JavaScript on and off.

type Article = { id: string; title: string; url: string; personName: string };

/** Our stored copies of an article's picture, as a fetch leaves them (app/models/news.server.ts). */
async function storePicture(id: string) {
  for (const width of [320, 640]) {
    const file = path.join(process.env.E2E_DATA_DIR!, "uploads", "news", `${id}-${width}.webp`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      await sharp({ create: { width, height: Math.round((width * 9) / 16), channels: 3, background: "#6b7f99" } })
        .webp()
        .toBuffer(),
    );
    writeFileSync(`${file}.meta.json`, JSON.stringify({ contentType: "image/webp" }));
  }
  return `/media/news/${id}-640.webp`;
}

/** `count` articles dated in 2099 (so they lead the list), newest first; the first with a picture. */
async function addArticles(count: number): Promise<Article[]> {
  const token = randomBytes(4).toString("hex");
  const articles: Article[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const article = {
      id,
      title: `Town remembers its ferryman ${token}-${i}`,
      url: `https://news.example.com/${token}/${i}`,
      personName: `Angus MacRae ${token}-${i}`,
    };
    await db().query(
      `INSERT INTO news_articles (id, title, description, url, "urlToImage", "publishedAt", source, "personName") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        id,
        article.title,
        `A life on the water, remembered ${token}.`,
        article.url,
        i === 0 ? await storePicture(id) : null,
        new Date(Date.UTC(2099, 0, 28 - i)),
        "The Oban Times",
        article.personName,
      ],
    );
    articles.push(article);
  }
  return articles;
}

let articles: Article[] = [];
test.afterEach(async () => {
  if (articles.length) await db().query(`DELETE FROM news_articles WHERE id = ANY($1)`, [articles.map((a) => a.id)]);
  articles = [];
});

test("a visitor reads the news, newest first, each story linking out safely with our own copy of its picture", async ({ page }) => {
  articles = await addArticles(12);
  await page.goto("/news");
  await expect(page.getByRole("heading", { level: 1, name: "News" })).toBeVisible();
  // No fetch panel for a visitor.
  await expect(page.getByRole("heading", { name: /News fetching/ })).toHaveCount(0);

  const first = page.getByRole("article").filter({ hasText: articles[0].title });
  await expect(first).toContainText("The Oban Times");
  await expect(first.locator("time")).toHaveAttribute("datetime", "2099-01-28T00:00:00.000Z");
  await expect(first).toContainText(`In memory of ${articles[0].personName}`);
  await expect(first).toContainText("A life on the water, remembered");
  const headline = first.getByRole("heading", { level: 2 }).getByRole("link");
  await expect(headline).toHaveAttribute("href", articles[0].url);
  await expect(headline).toHaveAttribute("target", "_blank");
  await expect(headline).toHaveAttribute("rel", "noopener noreferrer");
  const readMore = first.getByRole("link", { name: /Read the full story/ });
  await expect(readMore).toHaveAttribute("rel", "noopener noreferrer");

  // The picture is ours, in two sizes, and is served; no picture on the page comes from another site.
  const picture = first.locator("img");
  await expect(picture).toHaveAttribute("src", `/media/news/${articles[0].id}-640.webp`);
  await expect(picture).toHaveAttribute("srcset", `/media/news/${articles[0].id}-320.webp 320w, /media/news/${articles[0].id}-640.webp 640w`);
  const served = await page.request.get(`/media/news/${articles[0].id}-320.webp`);
  expect(served.status()).toBe(200);
  expect(served.headers()["content-type"]).toBe("image/webp");
  const sources = await page.locator("img").evaluateAll((imgs) => imgs.map((img) => img.getAttribute("src") ?? ""));
  expect(sources.filter((src) => !src.startsWith("/") || src.startsWith("//"))).toEqual([]);

  // Newest first: of these, the newer above the older.
  const titles = await page.getByRole("article").getByRole("heading", { level: 2 }).allTextContents();
  const mine = titles.map((t) => articles.findIndex((a) => t.includes(a.title))).filter((i) => i >= 0);
  expect(mine).toEqual([...mine].sort((a, b) => a - b));
  expect(await page.getByRole("article").count()).toBe(10);
  await expectAccessible(page);

  // Ten a page; older stories on the next, and back.
  await page.getByRole("link", { name: "Older news" }).click();
  await expect(page).toHaveURL(/\/news\?page=2$/);
  await expect(page.getByRole("article").first()).toBeVisible();
  await page.getByRole("link", { name: "Newer news" }).click();
  await expect(page).toHaveURL(/\/news$/);
  await expect(page.getByRole("article").filter({ hasText: articles[0].title })).toBeVisible();
});

test("a page number that is not one is answered with a sentence, not a broken page", async ({ page }) => {
  const response = await page.goto("/news?page=first");
  expect(response?.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("an administrator sees how many articles there are and, with no feed set up, how to add one", async ({ page }) => {
  const admin = await createTestUser({ isAdmin: true });
  try {
    await loginAs(page, admin);
    await page.goto("/news");
    const panel = page.getByRole("region", { name: "News fetching (administrators)" });
    await expect(panel).toContainText(/\d+ articles?, 0 feeds set up\./);
    await expect(panel).toContainText("No news feeds are set up yet. To add one, set NEWS_FEEDS");
    await expectAccessible(page);
    await panel.getByRole("button", { name: "Fetch news now" }).click();
    // The answer is in the panel, where the administrator pressed the button.
    const answer = page.getByTestId("toast-in-place");
    await expect(answer).toContainText("No news feeds");
    await expect(answer).toContainText("Nothing was fetched.");
    await expect(answer).toBeInViewport();
  } finally {
    await deleteTestUser(admin);
  }
});

test("a member sees the news without the administrators' panel", async ({ page, member }) => {
  await loginAs(page, member);
  await page.goto("/news");
  await expect(page.getByRole("heading", { level: 1, name: "News" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Fetch news now" })).toHaveCount(0);
  // News is in the menu for everyone.
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "News" })).toHaveAttribute("href", "/news");
});
