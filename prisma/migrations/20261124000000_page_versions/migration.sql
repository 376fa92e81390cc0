-- Versions of the public pages other than a memorial's own (issue 20). The anonymous page cache
-- (server/page-cache.ts) keeps rendered copies of the landing page, browse, the shop and the news, keyed by
-- these numbers, read on every request; several app instances agree by reading them. So every change to
-- what those pages show moves them, here in the database, whichever code made the change:
--   memorials  any change to a memorial row (published, edited, made private, deleted, its view count, and
--              through its "updatedAt", which the triggers of 20261123000000 move, its photos and approved tributes)
--   products   any change to a product (price, stock, active or not, name, picture…)
--   news       any change to the news articles (a fetch adds them)
-- The bump runs at commit (a deferred constraint trigger) and once per transaction and name, so the row is
-- locked only for the last moment of a transaction: never a deadlock between two writers, and a bulk
-- statement moves the version once. A reader sees a new number only together with the data it stands for.

CREATE TABLE "page_versions" (
  "name"    TEXT PRIMARY KEY,
  "version" BIGINT NOT NULL DEFAULT 1
);

INSERT INTO "page_versions" ("name") VALUES ('memorials'), ('products'), ('news');

CREATE FUNCTION "bump_page_version"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
  flag TEXT := 'everlight.page_version_' || TG_ARGV[0];
BEGIN
  -- Once per transaction: a transaction-local setting remembers the bump until commit.
  IF current_setting(flag, true) = 'moved' THEN RETURN NULL; END IF;
  PERFORM set_config(flag, 'moved', true);
  UPDATE "page_versions" SET "version" = "version" + 1 WHERE "name" = TG_ARGV[0];
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER "memorials_page_version" AFTER INSERT OR UPDATE OR DELETE ON "memorials"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_version"('memorials');

CREATE CONSTRAINT TRIGGER "products_page_version" AFTER INSERT OR UPDATE OR DELETE ON "products"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_version"('products');

CREATE CONSTRAINT TRIGGER "news_articles_page_version" AFTER INSERT OR UPDATE OR DELETE ON "news_articles"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_version"('news');
