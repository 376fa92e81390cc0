-- A memorial's events (issue 28 item 4, docs/decisions/026-memorial-events.md): a funeral, a service, a
-- celebration of life, a scattering of ashes, an anniversary gathering. When is written as the family gave it:
-- a local date and time ("startDate", "startTime", optional "endTime" on the same day) in an IANA time zone;
-- "startsAt" and "endsAt" are the same moments in UTC, worked out by the app on every save, for ordering and
-- for telling upcoming events from past ones. Visitors answer (RSVP) once per email address per event: a
-- second answer from the same address replaces the first.
-- The memorial's foreign key is to "memorial_records" (the view "memorials" cannot be referenced): the
-- events stay while the memorial sits in Recently deleted and go when it is purged.

CREATE TABLE "memorial_events" (
  "id"             TEXT          NOT NULL DEFAULT (gen_random_uuid())::text,
  "memorialId"     TEXT          NOT NULL,
  "kind"           VARCHAR(20)   NOT NULL,
  "title"          VARCHAR(120)  NOT NULL,
  "startDate"      DATE          NOT NULL,
  "startTime"      VARCHAR(5)    NOT NULL,
  "endTime"        VARCHAR(5),
  "timeZone"       VARCHAR(64)   NOT NULL,
  "startsAt"       TIMESTAMP(3)  NOT NULL,
  "endsAt"         TIMESTAMP(3),
  "placeName"      VARCHAR(120)  NOT NULL,
  "address"        VARCHAR(300),
  "livestreamUrl"  VARCHAR(500),
  "note"           VARCHAR(1000),
  "createdAt"      TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt"      TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "memorial_events_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "memorial_events_kind_check"
    CHECK ("kind" IN ('funeral', 'service', 'celebration', 'scattering', 'anniversary')),
  CONSTRAINT "memorial_events_time_check" CHECK (
    "startTime" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'
    AND ("endTime" IS NULL OR ("endTime" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$' AND "endTime" > "startTime"))
    AND ("endsAt" IS NULL OR "endsAt" > "startsAt")
  ),
  CONSTRAINT "memorial_events_livestream_check" CHECK ("livestreamUrl" IS NULL OR "livestreamUrl" LIKE 'https://%'),
  CONSTRAINT "memorial_events_memorialId_fkey" FOREIGN KEY ("memorialId") REFERENCES "memorial_records"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- The page, the family's list and the calendar read a memorial's events in time order.
CREATE INDEX "memorial_events_memorialId_startsAt_idx" ON "memorial_events" ("memorialId", "startsAt");

CREATE TABLE "event_rsvps" (
  "id"         TEXT          NOT NULL DEFAULT (gen_random_uuid())::text,
  "eventId"    TEXT          NOT NULL,
  "name"       VARCHAR(100)  NOT NULL,
  "email"      VARCHAR(254)  NOT NULL,
  "partySize"  INTEGER       NOT NULL,
  "message"    VARCHAR(500),
  "createdAt"  TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt"  TIMESTAMP(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "event_rsvps_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "event_rsvps_party_check" CHECK ("partySize" BETWEEN 1 AND 20),
  -- Stored lower-cased by the app; the check keeps "one answer per address" honest whoever writes.
  CONSTRAINT "event_rsvps_email_check" CHECK ("email" = lower("email")),
  CONSTRAINT "event_rsvps_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "memorial_events"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- One answer per address per event; also the index of the foreign key (its first column).
CREATE UNIQUE INDEX "event_rsvps_eventId_email_key" ON "event_rsvps" ("eventId", "email");

-- The events are on the memorial's public page: any change moves its version (20261123000000_memorial_versions),
-- in the same transaction, whichever code made it, so the anonymous page cache never serves a stale list.
-- The answers are not on the page (only the family sees them), so they move nothing.
CREATE FUNCTION "memorial_events_move_version"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "bump_memorial_version"(OLD."memorialId"); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW."memorialId" IS DISTINCT FROM OLD."memorialId") THEN
    PERFORM "bump_memorial_version"(NEW."memorialId");
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "memorial_events_version" AFTER INSERT OR UPDATE OR DELETE ON "memorial_events"
  FOR EACH ROW EXECUTE FUNCTION "memorial_events_move_version"();
