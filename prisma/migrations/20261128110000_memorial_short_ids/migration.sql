-- A permanent address for every memorial (issue 29 item 3; docs/decisions/028-permanent-address-and-qr.md):
-- /m/<shortId> redirects to the memorial's page and is what its QR code and printed sheet carry, so it
-- must never change. Eight characters from a base-32-like alphabet without 0, 1, i, l and o (the ones
-- misread from stone or paper): 31^8, about 850 billion, so a guess finds nothing and a collision is
-- rare; the generator still checks, and the unique index has the last word.
--
-- The generator is the column's default, so every way a memorial is made (the app, the seed, tests,
-- SQL) gets one, and this migration fills in the memorials that exist already with the same function.
-- It looks in "memorial_records", deleted memorials included: a restored memorial keeps its address.
CREATE FUNCTION "memorial_short_id"() RETURNS TEXT LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet CONSTANT TEXT := '23456789abcdefghjkmnpqrstuvwxyz';
  candidate TEXT;
BEGIN
  LOOP
    candidate := '';
    FOR i IN 1..8 LOOP
      candidate := candidate || substr(alphabet, 1 + floor(random() * 31)::int, 1);
    END LOOP;
    EXIT WHEN NOT EXISTS (SELECT 1 FROM "memorial_records" WHERE "shortId" = candidate);
  END LOOP;
  RETURN candidate;
END $$;

ALTER TABLE "memorial_records" ADD COLUMN "shortId" TEXT;
-- The index first (NULLs do not collide), so the generator's look-up is an index probe during the
-- back-fill too, not a scan of the table for every row (100,000 memorials would take hours).
CREATE UNIQUE INDEX "memorial_records_shortId_key" ON "memorial_records" ("shortId");

-- One row at a time, so that each new id is checked against those given before it.
DO $$
DECLARE
  memorial RECORD;
BEGIN
  FOR memorial IN SELECT "id" FROM "memorial_records" WHERE "shortId" IS NULL LOOP
    UPDATE "memorial_records" SET "shortId" = "memorial_short_id"() WHERE "id" = memorial."id";
  END LOOP;
END $$;
-- The updates queued the page-version trigger (deferred, 20261124000000_page_versions): run it now, as a
-- table with pending trigger events cannot be altered.
SET CONSTRAINTS ALL IMMEDIATE;

ALTER TABLE "memorial_records"
  ALTER COLUMN "shortId" SET DEFAULT "memorial_short_id"(),
  ALTER COLUMN "shortId" SET NOT NULL,
  ADD CONSTRAINT "memorial_records_shortId_check" CHECK ("shortId" ~ '^[23456789abcdefghjkmnpqrstuvwxyz]{8}$');

-- A view keeps the columns it was made with (20261126130000_recoverable_deletion): made again, with "shortId".
CREATE OR REPLACE VIEW "memorials" AS SELECT * FROM "memorial_records" WHERE "deletedAt" IS NULL;
