-- Browsing memorials (memorial-core.md §2 "Memorial browse"): the category the filter needs, and the
-- indexes that keep search, filters, sorts and paging fast with 100,000 memorials.

-- AlterTable
ALTER TABLE "memorials" ADD COLUMN "category" TEXT NOT NULL DEFAULT 'individual';
ALTER TABLE "memorials" ADD CONSTRAINT "memorials_category_check" CHECK ("category" IN ('individual', 'organization'));

-- Trigram search over name, title and biography (ILIKE '%term%' uses it). The expression must match
-- memorialSearchText in app/models/memorial.server.ts exactly.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "memorials_search_trgm_idx" ON "memorials" USING GIN (
  (lower("firstName" || ' ' || "lastName" || ' ' || "title" || ' ' || coalesce("biography", ''))) gin_trgm_ops
);

-- The public gallery's three sorts, over published public memorials only.
CREATE INDEX "memorials_gallery_recent_idx" ON "memorials"("createdAt" DESC) WHERE "isPublished" AND "visibility" = 'public';
CREATE INDEX "memorials_gallery_popular_idx" ON "memorials"("viewCount" DESC, "createdAt" DESC) WHERE "isPublished" AND "visibility" = 'public';
CREATE INDEX "memorials_gallery_name_idx" ON "memorials"("lastName", "firstName") WHERE "isPublished" AND "visibility" = 'public';
