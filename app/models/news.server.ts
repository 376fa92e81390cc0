import { randomUUID } from "node:crypto";
import { getDatabase, prisma } from "~/services/db.server";
import { driverRows, sqlQuery } from "~/services/sql-statements.server";
import { Prisma } from "~/generated/prisma/client";
import { holdAdvisoryLock } from "~/services/transaction-locks.server";
import { getEnv } from "~/services/env.server";
import { fetchBounded, hostAndPort } from "~/services/fetch-bounded.server";
import { readFeed, type FeedEntry, type ReadFeedOptions } from "~/services/feeds.server";
import { newsImageVariants } from "~/services/images.server";
import { deleteObject, objectUrl, putObject } from "~/services/storage.server";
import { NEWS_MESSAGES } from "~/utils/news";
import { personNameFrom, splitPersonName } from "~/utils/person-name";

export { NEWS_MESSAGES };

// News. The list is read through an in-process cache keyed by the table's
// version, read from the database on every request (its newest updatedAt and its row count), so an
// article added, changed or removed through any instance shows on the very next request everywhere.
// Fetching reads the RSS and Atom feeds of NEWS_FEEDS, stores each new article once (by its address),
// copies its picture into our storage, and drafts memorials for up to 2 new articles that name a person,
// owned by an administrator: nothing goes public unreviewed (README).

export const NEWS_PAGE_SIZE = 10;
/** Each news fetch creates memorial drafts: at most 2, only for articles that name someone. */
export const NEWS_DRAFTS_PER_FETCH = 2;
/** New articles kept from one fetch (a feed suddenly listing thousands does not flood the page). */
export const MAX_NEW_ARTICLES_PER_FETCH = 50;
export const NEWS_IMAGE_LIMITS = { timeoutMs: 10_000, maxBytes: 10 * 1024 * 1024 } as const;

const articleFields = {
  id: true,
  title: true,
  description: true,
  url: true,
  urlToImage: true,
  publishedAt: true,
  source: true,
  personName: true,
  dateAdded: true,
  createdAt: true,
  updatedAt: true,
} as const;

export type NewsArticleView = {
  id: string;
  title: string;
  description: string | null;
  url: string;
  urlToImage: string | null;
  publishedAt: Date | null;
  source: string | null;
  personName: string | null;
  dateAdded: Date;
  createdAt: Date;
  updatedAt: Date;
};
export type NewsPage = { items: NewsArticleView[]; total: number; page: number; pages: number; version: string };

const newsTotals = sqlQuery({
  name: "news.version",
  columns: { newest: "timestamptz | null", total: "int4" },
  sql: () => Prisma.sql`SELECT max("updatedAt") AT TIME ZONE 'UTC' AS "newest", count(*)::int AS "total" FROM "news_articles"`,
});

/** The list's version: changes whenever an article is added, changed or removed (one indexed read). */
export async function newsVersion(): Promise<string> {
  const [row] = await driverRows(getDatabase().sql, newsTotals());
  return `${row.newest ? new Date(row.newest).getTime().toString(36) : "0"}.${row.total}`;
}

const cache = new Map<number, NewsPage>();
const MAX_CACHED_PAGES = 50;

/** One page of articles, newest first, from the cache while the table's version is unchanged. */
export async function listNews(page = 1): Promise<NewsPage> {
  const version = await newsVersion();
  const wanted = Math.max(1, Math.floor(page) || 1);
  const kept = cache.get(wanted);
  if (kept?.version === version) return kept;
  const total = Number(version.split(".")[1]);
  const pages = Math.max(1, Math.ceil(total / NEWS_PAGE_SIZE));
  const current = Math.min(wanted, pages);
  const items = await prisma().newsArticle.findMany({
    orderBy: [{ publishedAt: { sort: "desc", nulls: "last" } }, { dateAdded: "desc" }, { id: "asc" }],
    skip: (current - 1) * NEWS_PAGE_SIZE,
    take: NEWS_PAGE_SIZE,
    select: articleFields,
  });
  const result = { items, total, page: current, pages, version };
  if (cache.size >= MAX_CACHED_PAGES) cache.delete(cache.keys().next().value!);
  cache.set(wanted, result);
  return result;
}

/** An article as the /api shows it (dates as ISO strings; the picture is always our own copy). */
export function toApiArticle(a: NewsArticleView) {
  return {
    ...a,
    publishedAt: a.publishedAt?.toISOString() ?? null,
    dateAdded: a.dateAdded.toISOString(),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

/** For administrators: how many articles there are, how many feeds are set up, and the last fetch. */
export async function newsStatus() {
  const [count, lastFetch] = await Promise.all([
    prisma().newsArticle.count(),
    prisma().newsFetch.findFirst({
      orderBy: { startedAt: "desc" },
      select: { startedAt: true, status: true, feedsRead: true, feedsFailed: true, articlesAdded: true, memorialsCreated: true, messages: true },
    }),
  ]);
  return { count, feeds: getEnv().NEWS_FEEDS.length, lastFetch };
}

export type FetchNewsResult =
  | { ok: true; added: number; memorials: { id: string; name: string }[]; feedsRead: number; failures: string[] }
  | { ok: false; reason: "no-feeds"; message: string }
  | { ok: false; reason: "feeds-failed"; message: string; failures: string[] };

export type FetchNewsOptions = ReadFeedOptions & {
  feeds?: string[];
  now?: Date;
  image?: { timeoutMs?: number; maxBytes?: number };
};

/** feedHost: the feed's scheme, host and port (hostAndPort), the one place its pictures may come from inside our network. */
type Candidate = FeedEntry & { source: string; feedHost: string };

/**
 * The administrators' "Fetch news" (and the /api's POST /api/admin/news/fetch). A feed that is down,
 * slow, too large or not a feed is named in a clear sentence and contributes nothing; the others are
 * read. Articles are stored once by their address, even when two fetches run at once (the unique url,
 * under one lock), and each fetch drafts at most NEWS_DRAFTS_PER_FETCH memorials.
 */
export async function fetchNews(trigger: { id: string } | null, options: FetchNewsOptions = {}): Promise<FetchNewsResult> {
  const feeds = options.feeds ?? getEnv().NEWS_FEEDS;
  if (feeds.length === 0) return { ok: false, reason: "no-feeds", message: NEWS_MESSAGES.noFeeds };
  const now = options.now ?? new Date();
  const startedAt = new Date();

  const reads = await Promise.all(feeds.map((feed) => readFeed(feed, options)));
  const failures = reads.flatMap((r) => (r.ok ? [] : [r.message]));
  const candidates: Candidate[] = [];
  reads.forEach((read, i) => {
    if (!read.ok) return;
    const feedUrl = new URL(feeds[i]);
    for (const entry of read.entries) candidates.push({ ...entry, source: read.title ?? feedUrl.hostname, feedHost: hostAndPort(feedUrl) });
  });
  const feedsRead = reads.length - failures.length;

  if (feedsRead === 0) {
    await recordFetch({
      startedAt,
      status: "failed",
      feedsRead,
      feedsFailed: failures.length,
      articlesAdded: 0,
      memorialsCreated: 0,
      messages: failures,
      triggeredById: trigger?.id ?? null,
    });
    return { ok: false, reason: "feeds-failed", message: NEWS_MESSAGES.failed, failures };
  }

  // New ones only: one address once, even when two feeds list it; the newest first.
  const byUrl = new Map<string, Candidate>();
  for (const c of candidates) if (!byUrl.has(c.url)) byUrl.set(c.url, c);
  const known = new Set((await prisma().newsArticle.findMany({ where: { url: { in: [...byUrl.keys()] } }, select: { url: true } })).map((a) => a.url));
  const fresh = [...byUrl.values()]
    .filter((c) => !known.has(c.url))
    .map((c) => ({ ...c, publishedAt: c.publishedAt && c.publishedAt <= now ? c.publishedAt : now }))
    .sort((a, b) => b.publishedAt.getTime() - a.publishedAt.getTime())
    .slice(0, MAX_NEW_ARTICLES_PER_FETCH);

  const images = await copyImages(fresh, options.image);
  const stored: string[] = [...images.values()].flat();
  try {
    const outcome = await prisma().$transaction(async (tx) => {
      await holdAdvisoryLock(tx, "news-fetch");
      const inserted = await tx.newsArticle.createManyAndReturn({
        data: fresh.map((c) => ({
          title: c.title,
          description: c.description,
          url: c.url,
          urlToImage: images.has(c.url) ? objectUrl(images.get(c.url)!.at(-1)!) : null,
          sourceImageUrl: c.imageUrl,
          publishedAt: c.publishedAt,
          source: c.source.slice(0, 200),
          personName: personNameFrom(c.title),
          dateAdded: now,
        })),
        skipDuplicates: true,
        select: { id: true, url: true, title: true, description: true, source: true, personName: true, publishedAt: true },
      });
      const owner = trigger ?? (await tx.user.findFirst({ where: { isAdmin: true }, orderBy: { createdAt: "asc" }, select: { id: true } }));
      const memorials: { id: string; name: string }[] = [];
      if (owner) {
        const named = inserted.filter((a) => a.personName).sort((a, b) => (b.publishedAt?.getTime() ?? 0) - (a.publishedAt?.getTime() ?? 0));
        for (const article of named.slice(0, NEWS_DRAFTS_PER_FETCH)) {
          const name = article.personName!;
          const { firstName, lastName } = splitPersonName(name);
          const memorial = await tx.memorial.create({
            data: {
              userId: owner.id,
              title: name,
              firstName,
              lastName,
              biography: [article.description, `From ${article.source ?? "the news"}: ${article.title} (${article.url})`].filter(Boolean).join("\n\n"),
              visibility: "public",
              // A draft: only its administrator sees it until someone has checked it and publishes it.
              isPublished: false,
            },
            select: { id: true },
          });
          await tx.newsArticle.update({ where: { id: article.id }, data: { memorialId: memorial.id } });
          memorials.push({ id: memorial.id, name });
        }
      }
      await tx.newsFetch.create({
        data: {
          startedAt,
          finishedAt: new Date(),
          status: failures.length ? "partial" : "ok",
          feedsRead,
          feedsFailed: failures.length,
          articlesAdded: inserted.length,
          memorialsCreated: memorials.length,
          messages: failures,
          triggeredById: trigger?.id ?? null,
        },
      });
      return { inserted: new Set(inserted.map((a) => a.url)), memorials };
    });
    // Pictures of articles another fetch stored meanwhile are not used.
    const unused = fresh.filter((c) => !outcome.inserted.has(c.url)).flatMap((c) => images.get(c.url) ?? []);
    await Promise.all(unused.map((key) => deleteObject(key).catch(() => {})));
    return { ok: true, added: outcome.inserted.size, memorials: outcome.memorials, feedsRead, failures };
  } catch (error) {
    await Promise.all(stored.map((key) => deleteObject(key).catch(() => {})));
    throw error;
  }
}

async function recordFetch(data: Parameters<ReturnType<typeof prisma>["newsFetch"]["create"]>[0]["data"]) {
  await prisma().newsFetch.create({ data: { ...data, finishedAt: new Date() } });
}

/**
 * Our own copies of the new articles' pictures, by article address: fetched within bounds, only real
 * images, only from public addresses (or the feed's own host), resized to WebP. One that fails is left
 * out: the article is shown without a picture.
 */
async function copyImages(entries: Candidate[], limits: FetchNewsOptions["image"] = {}): Promise<Map<string, string[]>> {
  const copies = new Map<string, string[]>();
  const queue = entries.filter((e) => e.imageUrl);
  const worker = async () => {
    for (let entry = queue.shift(); entry; entry = queue.shift()) {
      const fetched = await fetchBounded(entry.imageUrl!, {
        timeoutMs: limits.timeoutMs ?? NEWS_IMAGE_LIMITS.timeoutMs,
        maxBytes: limits.maxBytes ?? NEWS_IMAGE_LIMITS.maxBytes,
        accept: "image/webp, image/jpeg, image/png, image/gif;q=0.8",
        publicOnly: { except: [entry.feedHost] },
      });
      if (!fetched.ok) continue;
      const variants = await newsImageVariants(fetched.bytes);
      if (!variants) continue;
      const id = randomUUID();
      const keys: string[] = [];
      for (const variant of variants) {
        const key = `news/${id}-${variant.width}.webp`;
        await putObject(key, variant.body, "image/webp");
        keys.push(key);
      }
      // The widest last: that is the address stored (app/utils/news.ts derives the others).
      copies.set(entry.url, keys);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return copies;
}
