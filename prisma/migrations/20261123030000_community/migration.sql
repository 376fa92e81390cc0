-- Friends, news and contact (issue 18). The tables came with the first migration; this adds what the
-- news fetch needs.

-- A visitor's browser only ever loads our own copy of an article's picture (resized to WebP and served
-- from /media/news/…): "urlToImage" holds that same-site address; the feed's own image address is kept
-- in "sourceImageUrl" for the record and is never sent to a browser.
ALTER TABLE "news_articles" ADD COLUMN "sourceImageUrl" TEXT;
ALTER TABLE "news_articles" ADD CONSTRAINT "news_articles_urlToImage_same_site_check"
    CHECK ("urlToImage" IS NULL OR ("urlToImage" LIKE '/%' AND "urlToImage" NOT LIKE '//%'));

-- The draft memorial a fetch made from an article (owned by an administrator until reviewed).
ALTER TABLE "news_articles" ADD COLUMN "memorialId" TEXT;
ALTER TABLE "news_articles" ADD CONSTRAINT "news_articles_memorialId_fkey"
    FOREIGN KEY ("memorialId") REFERENCES "memorials"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "news_articles_memorialId_idx" ON "news_articles"("memorialId");

-- The news list's version (its newest change) is read on every request: one index lookup.
CREATE INDEX "news_articles_updatedAt_idx" ON "news_articles"("updatedAt");

-- One row per news fetch: what it found, added and refused, for the administrators.
CREATE TABLE "news_fetches" (
    "id" TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- ok: every feed read; partial: some refused; failed: none read, nothing changed
    "status" TEXT NOT NULL,
    "feedsRead" INTEGER NOT NULL DEFAULT 0,
    "feedsFailed" INTEGER NOT NULL DEFAULT 0,
    "articlesAdded" INTEGER NOT NULL DEFAULT 0,
    "memorialsCreated" INTEGER NOT NULL DEFAULT 0,
    -- one line per refused feed
    "messages" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "triggeredById" TEXT,
    CONSTRAINT "news_fetches_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "news_fetches_status_check" CHECK ("status" IN ('ok', 'partial', 'failed'))
);
CREATE INDEX "news_fetches_startedAt_idx" ON "news_fetches"("startedAt");
CREATE INDEX "news_fetches_triggeredById_idx" ON "news_fetches"("triggeredById");
ALTER TABLE "news_fetches" ADD CONSTRAINT "news_fetches_triggeredById_fkey"
    FOREIGN KEY ("triggeredById") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
