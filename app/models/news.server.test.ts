import { existsSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTempDataDir } from "../../test/data-dir";
import { databaseKinds, useAppDatabase } from "../../test/databases";
import { startFeedServer, type FeedTestServer } from "../../test/feed-server";
import { fetchNews, listNews, NEWS_DRAFTS_PER_FETCH, NEWS_MESSAGES, newsStatus, newsVersion } from "./news.server";

// The news fetch against a local news site (test/feed-server.ts): RSS and Atom read with the
// real parser, articles stored once across fetches, at most 2 draft memorials per fetch owned by the
// administrator, pictures copied into our storage, and every kind of bad feed refused with a sentence
// and nothing changed.

const dataDir = useTempDataDir("news");

let feeds: FeedTestServer;
beforeAll(async () => {
  feeds = await startFeedServer();
});
afterAll(async () => feeds?.stop());

const obituaries = (prefix: string, n: number, day = 10) =>
  Array.from({ length: n }, (_, i) => ({
    title: `Obituary: ${["Agnes", "Walter", "Elsie", "Harold", "Winifred"][i % 5]} ${["Hartley", "Pemberton", "Ashworth", "Calloway", "Fairbairn"][i % 5]}${prefix.toLowerCase()}`,
    path: `/${prefix.toLowerCase()}/${i}`,
    description: `<p>A life in the village, remembered &amp; celebrated (${i}).</p>`,
    published: `2026-11-${String(day + i).padStart(2, "0")}T09:00:00Z`,
    image: `/img/${prefix}${i}.png`,
  }));

describe.each(databaseKinds)("news on $name", (kind) => {
  const app = useAppDatabase(kind);
  const admin = () =>
    app.db.prisma.user.create({
      data: {
        email: `admin-${Date.now().toString(36)}${Math.random().toString(36).slice(2)}@example.test`,
        firstName: "Ada",
        lastName: "Admin",
        password: "x",
        isAdmin: true,
      },
    });
  const counts = async () => ({ articles: await app.db.prisma.newsArticle.count(), memorials: await app.db.prisma.memorial.count() });

  it.skipIf(kind.skip)(
    "reads RSS and Atom, stores each article once across two fetches, and drafts at most 2 memorials per fetch, owned by the administrator",
    async () => {
      const owner = await admin();
      feeds.setItems("rss", [
        ...obituaries("Rs", 3),
        { title: "Village fête raises £2,000 for the church roof", path: "/fete", published: "2026-11-01T09:00:00Z" },
      ]);
      feeds.setItems("atom", [
        {
          title: "Tributes paid to Morwenna Trelawney, lifeboat volunteer",
          path: "/atom/1",
          description: "Forty years on the crew.",
          published: "2026-11-05T12:00:00Z",
        },
      ]);
      const rssUrl = `${feeds.url}/rss.xml`;
      const atomUrl = `${feeds.url}/atom.xml`;

      const first = await fetchNews(owner, { feeds: [rssUrl, atomUrl] });
      expect(first).toMatchObject({ ok: true, added: 5, feedsRead: 2, failures: [] });
      if (!first.ok) return;
      expect(first.memorials).toHaveLength(NEWS_DRAFTS_PER_FETCH);
      const drafts = await app.db.prisma.memorial.findMany({ where: { id: { in: first.memorials.map((m) => m.id) } } });
      expect(drafts.every((m) => m.userId === owner.id && !m.isPublished)).toBe(true);
      // The newest articles that name someone: the fête names nobody.
      expect(drafts.map((m) => `${m.firstName} ${m.lastName}`).sort()).toEqual(["Elsie Ashworthrs", "Walter Pembertonrs"]);
      const stored = await app.db.prisma.newsArticle.findMany({ orderBy: { publishedAt: "desc" } });
      const atomArticle = stored.find((a) => a.url === `${feeds.url}/atom/1`)!;
      expect(atomArticle).toMatchObject({
        source: "Remembrance Weekly",
        personName: "Morwenna Trelawney",
        description: "Forty years on the crew.",
        urlToImage: null,
      });
      const rssArticle = stored.find((a) => a.url === `${feeds.url}/rs/0`)!;
      expect(rssArticle).toMatchObject({
        source: "The Local Chronicle: Obituaries",
        personName: "Agnes Hartleyrs",
        description: "A life in the village, remembered & celebrated (0).",
      });
      expect(stored.find((a) => a.url === `${feeds.url}/fete`)?.personName).toBeNull();

      // The picture is ours: a WebP copy at /media/news/…, the feed's address kept only for the record.
      expect(rssArticle.urlToImage).toMatch(/^\/media\/news\/[0-9a-f-]{36}-640\.webp$/);
      expect(rssArticle.sourceImageUrl).toBe(`${feeds.url}/img/Rs0.png`);
      const file = path.join(dataDir, "uploads", rssArticle.urlToImage!.slice("/media/".length));
      expect(existsSync(file)).toBe(true);
      expect(await sharp(file).metadata()).toMatchObject({ format: "webp", width: 640, height: 360 });
      expect(existsSync(file.replace("-640.webp", "-320.webp"))).toBe(true);

      // A second fetch: the same five again plus three new. Only the new are stored, and 2 more drafts.
      const imageHits = feeds.hits.get("/img/Rs0.png");
      feeds.setItems("rss", [...obituaries("Rs", 3), ...obituaries("Nw", 3, 20)]);
      const before = await counts();
      const second = await fetchNews(owner, { feeds: [rssUrl, atomUrl] });
      expect(second).toMatchObject({ ok: true, added: 3 });
      if (!second.ok) return;
      expect(second.memorials).toHaveLength(2);
      expect(await counts()).toEqual({ articles: before.articles + 3, memorials: before.memorials + 2 });
      expect(feeds.hits.get("/img/Rs0.png")).toBe(imageHits); // a known article's picture is not fetched again
      expect(await app.db.prisma.newsArticle.count({ where: { url: `${feeds.url}/rs/0` } })).toBe(1);

      // And once more with nothing new: nothing stored, nothing drafted.
      const third = await fetchNews(owner, { feeds: [rssUrl, atomUrl] });
      expect(third).toMatchObject({ ok: true, added: 0, memorials: [] });

      const status = await newsStatus();
      expect(status.count).toBe(before.articles + 3);
      expect(status.lastFetch).toMatchObject({ status: "ok", articlesAdded: 0, memorialsCreated: 0 });
    },
  );

  it.skipIf(kind.skip)("stores articles once even when two fetches run at the same moment", async () => {
    const owner = await admin();
    feeds.setItems("rss", obituaries("Par", 4, 1));
    const before = await counts();
    const [a, b] = await Promise.all([fetchNews(owner, { feeds: [`${feeds.url}/rss.xml`] }), fetchNews(owner, { feeds: [`${feeds.url}/rss.xml`] })]);
    const added = (a.ok ? a.added : 0) + (b.ok ? b.added : 0);
    expect(added).toBe(4);
    const after = await counts();
    expect(after.articles - before.articles).toBe(4);
    expect(after.memorials - before.memorials).toBeLessThanOrEqual(2 * NEWS_DRAFTS_PER_FETCH);
  });

  it.skipIf(kind.skip)("refuses a slow, oversized, malformed, down or booby-trapped feed with a sentence, and changes nothing", async () => {
    const owner = await admin();
    const cases: [string, RegExp][] = [
      ["/slow.xml", /did not answer within 0\.5 seconds/],
      ["/huge.xml", /larger than 2 MB/],
      ["/huge-declared.xml", /larger than 2 MB/],
      ["/malformed.xml", /is not a valid RSS or Atom feed/],
      ["/page.html", /is not a valid RSS or Atom feed/],
      ["/bomb.xml", /is not a valid RSS or Atom feed/],
      ["/down.xml", /answered 503/],
      ["/missing.xml", /answered 404/],
    ];
    for (const [feedPath, message] of cases) {
      const before = await counts();
      const url = `${feeds.url}${feedPath}`;
      const started = Date.now();
      const result = await fetchNews(owner, { feeds: [url], timeoutMs: 500 });
      expect(Date.now() - started, feedPath).toBeLessThan(5000);
      expect(result, feedPath).toMatchObject({ ok: false, reason: "feeds-failed", message: NEWS_MESSAGES.failed });
      if (result.ok || result.reason !== "feeds-failed") continue;
      expect(result.failures, feedPath).toHaveLength(1);
      expect(result.failures[0], feedPath).toContain(url);
      expect(result.failures[0], feedPath).toMatch(message);
      expect(await counts(), feedPath).toEqual(before);
    }
    expect((await newsStatus()).lastFetch).toMatchObject({ status: "failed", feedsFailed: 1, articlesAdded: 0 });
  });

  it.skipIf(kind.skip)("reads the good feeds when another is broken, and says which one was not read", async () => {
    const owner = await admin();
    feeds.setItems("atom", [{ title: "Obituary: Tamsin Polglaze", path: "/atom/mixed", published: "2026-11-18T12:00:00Z" }]);
    const result = await fetchNews(owner, { feeds: [`${feeds.url}/atom.xml`, `${feeds.url}/down.xml`] });
    expect(result).toMatchObject({ ok: true, added: 1, feedsRead: 1 });
    if (!result.ok) return;
    expect(result.failures).toEqual([`The feed ${feeds.url}/down.xml answered 503 Service Unavailable.`]);
    expect((await newsStatus()).lastFetch).toMatchObject({ status: "partial", feedsRead: 1, feedsFailed: 1 });
  });

  it.skipIf(kind.skip)("keeps an article without a picture when its picture is not an image", async () => {
    const owner = await admin();
    feeds.setItems("rss", [{ title: "Obituary: Isolde Penhaligon", path: "/rs/svg", published: "2026-11-19T09:00:00Z", image: "/not-an-image.png" }]);
    const result = await fetchNews(owner, { feeds: [`${feeds.url}/rss.xml`] });
    expect(result).toMatchObject({ ok: true, added: 1 });
    expect(await app.db.prisma.newsArticle.findUnique({ where: { url: `${feeds.url}/rs/svg` }, select: { urlToImage: true } })).toEqual({ urlToImage: null });
  });

  it.skipIf(kind.skip)("says how to add a feed when none is set up", async () => {
    expect(await fetchNews(await admin(), { feeds: [] })).toEqual({ ok: false, reason: "no-feeds", message: NEWS_MESSAGES.noFeeds });
  });

  it.skipIf(kind.skip)("lists newest first from a cache whose version moves with every change", async () => {
    const v1 = await newsVersion();
    const page = await listNews(1);
    expect(page.version).toBe(v1);
    const dates = page.items.map((a) => a.publishedAt!.getTime());
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(await listNews(1)).toBe(page); // unchanged: the kept copy
    // A change made elsewhere (another instance, a script) moves the version: the next read is fresh.
    await app.db.prisma.newsArticle.update({ where: { id: page.items[0].id }, data: { title: "Changed elsewhere" } });
    const fresh = await listNews(1);
    expect(fresh.version).not.toBe(v1);
    expect(fresh.items[0].title).toBe("Changed elsewhere");
    await app.db.prisma.newsArticle.delete({ where: { id: fresh.items[0].id } });
    expect((await listNews(1)).items.map((a) => a.id)).not.toContain(fresh.items[0].id);
  });
});
