-- A life timeline (issue 28 item 5, docs/decisions/024-life-timeline.md): dated events of a life — born,
-- school, marriage, work, a move — shown on the memorial page in date order and included in its copy.
-- A date may be known to the year, the month or the day: "month" and "day" are null when not known (a day
-- needs a month), and events sort by year, month, day with the unknown parts first.
-- The memorial's foreign key is to "memorial_records" (the view "memorials" cannot be referenced): the events
-- stay while the memorial sits in Recently deleted and go when it is purged. The photo is one of the
-- memorial's own photos; when that photo is deleted the event keeps its words (SET NULL).

CREATE TABLE "memorial_timeline_events" (
  "id"          TEXT          NOT NULL DEFAULT (gen_random_uuid())::text,
  "memorialId"  TEXT          NOT NULL,
  "kind"        VARCHAR(20)   NOT NULL,
  "year"        INTEGER       NOT NULL,
  "month"       INTEGER,
  "day"         INTEGER,
  "title"       VARCHAR(120)  NOT NULL,
  "description" VARCHAR(1000),
  "photoId"     TEXT,
  "createdAt"   TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt"   TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "memorial_timeline_events_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "memorial_timeline_events_kind_check"
    CHECK ("kind" IN ('born', 'school', 'marriage', 'work', 'move', 'child', 'retirement', 'other')),
  CONSTRAINT "memorial_timeline_events_date_check" CHECK (
    "year" BETWEEN 1 AND 9999
    AND ("month" IS NULL OR "month" BETWEEN 1 AND 12)
    AND ("day" IS NULL OR ("month" IS NOT NULL AND "day" BETWEEN 1 AND 31))
  ),
  CONSTRAINT "memorial_timeline_events_memorialId_fkey" FOREIGN KEY ("memorialId") REFERENCES "memorial_records"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "memorial_timeline_events_photoId_fkey" FOREIGN KEY ("photoId") REFERENCES "memorial_media"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
-- The page and the copy read a memorial's events in date order.
CREATE INDEX "memorial_timeline_events_memorialId_year_month_day_idx" ON "memorial_timeline_events" ("memorialId", "year", "month", "day");
CREATE INDEX "memorial_timeline_events_photoId_idx" ON "memorial_timeline_events" ("photoId");

-- The events are on the memorial's public page: any change moves its version (20261123000000_memorial_versions),
-- in the same transaction, whichever code made it, so the anonymous page cache never serves a stale timeline.
CREATE FUNCTION "memorial_timeline_moves_version"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "bump_memorial_version"(OLD."memorialId"); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW."memorialId" IS DISTINCT FROM OLD."memorialId") THEN
    PERFORM "bump_memorial_version"(NEW."memorialId");
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "memorial_timeline_version" AFTER INSERT OR UPDATE OR DELETE ON "memorial_timeline_events"
  FOR EACH ROW EXECUTE FUNCTION "memorial_timeline_moves_version"();
