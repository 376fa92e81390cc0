-- Anniversary reminders (issue 28 item 3, docs/decisions/025-anniversary-reminders.md).

-- One row per reminder queued: a follow, an anniversary (the birthday or the anniversary of the passing) on
-- one date, and the occasion (a week before, or on the day). Written in the same transaction as the outbox
-- row, with ON CONFLICT DO NOTHING: two instances, or a run repeated, queue a reminder once. The rows go
-- with the follow (cascade), and housekeeping deletes those whose date is long past.
CREATE TABLE "anniversary_reminders" (
  "id"       TEXT         NOT NULL DEFAULT (gen_random_uuid())::text,
  "followId" TEXT         NOT NULL,
  "kind"     TEXT         NOT NULL,
  "occursOn" DATE         NOT NULL,
  "occasion" TEXT         NOT NULL,
  "queuedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "anniversary_reminders_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "anniversary_reminders_kind_check" CHECK ("kind" IN ('birthday', 'passing')),
  CONSTRAINT "anniversary_reminders_occasion_check" CHECK ("occasion" IN ('week-before', 'on-the-day')),
  CONSTRAINT "anniversary_reminders_followId_fkey" FOREIGN KEY ("followId") REFERENCES "memorial_follows"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- The one-reminder rule (and the foreign key's index: "followId" leads it).
CREATE UNIQUE INDEX "anniversary_reminders_followId_kind_occursOn_occasion_key"
  ON "anniversary_reminders" ("followId", "kind", "occursOn", "occasion");
-- Housekeeping deletes the rows of dates long past.
CREATE INDEX "anniversary_reminders_occursOn_idx" ON "anniversary_reminders" ("occursOn");

-- The last day a daily job covered (one row per job), so that a job run once a day across instances
-- catches up the days it missed while no instance ran. An instance claims the row for a while
-- ("claimedUntil", a conditional update) before it runs, so two instances do not both do the work; a
-- crashed run's claim runs out and the next check does the days again (the reminders' unique index
-- keeps that from sending twice).
CREATE TABLE "daily_job_days" (
  "job"            TEXT         NOT NULL,
  "coveredThrough" DATE         NOT NULL,
  "claimedUntil"   TIMESTAMP(3),
  CONSTRAINT "daily_job_days_pkey" PRIMARY KEY ("job")
);
