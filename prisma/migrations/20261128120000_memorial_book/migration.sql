-- The printed memorial book and the family's say over what is sold beside their memorial (issue 29 items 5
-- and 6; docs/decisions/029-memorial-book.md).

-- The family's switch: when off, the memorial page offers no book (nor any product) and the book of this
-- memorial cannot be ordered. On by default, as the book was orderable before.
ALTER TABLE "memorial_records" ADD COLUMN "shopOffers" BOOLEAN NOT NULL DEFAULT true;
-- "memorials" is a view of the live rows (20261126130000_recoverable_deletion): made again to show the column.
CREATE OR REPLACE VIEW "memorials" AS SELECT * FROM "memorial_records" WHERE "deletedAt" IS NULL;

-- The switch changes what the memorial page shows, so it moves the page's version (server/page-cache.ts),
-- whichever code changes it (Prisma's @updatedAt moves it only for Prisma's own updates).
CREATE FUNCTION "memorial_shop_offers_move_version"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."shopOffers" IS DISTINCT FROM OLD."shopOffers" THEN
    NEW."updatedAt" := GREATEST(clock_timestamp(), OLD."updatedAt" + INTERVAL '1 millisecond', NEW."updatedAt");
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "memorial_shop_offers_version" BEFORE UPDATE OF "shopOffers" ON "memorial_records"
  FOR EACH ROW EXECUTE FUNCTION "memorial_shop_offers_move_version"();

-- The book as it was when it was paid for: what it prints (names, dates, biography, timeline, tributes and
-- the photos' stored keys), frozen in the order's transaction. Null for a product.
ALTER TABLE "order_items" ADD COLUMN "book" JSONB;
