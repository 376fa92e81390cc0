-- "Take a memorial away" (issue 27 item 3): a ZIP of one memorial, built in the background by whichever
-- instance claims the row first (a conditional UPDATE … FOR UPDATE SKIP LOCKED), its progress shown on
-- /memorials/:id/export, its link emailed when ready, deleted by housekeeping once expired.
--
-- No foreign keys, on purpose: a memorial's deletion is being made soft (a view over its records), and an
-- export must not hold the memorial or its owner in place. Housekeeping deletes the rows (and their
-- stored files) of memorials that are gone, as it does the expired ones.
CREATE TABLE "memorial_exports" (
  "id"          TEXT         NOT NULL DEFAULT (gen_random_uuid())::text,
  "memorialId"  TEXT         NOT NULL,
  "userId"      TEXT         NOT NULL,
  "status"      VARCHAR(20)  NOT NULL DEFAULT 'queued',
  "progress"    INTEGER      NOT NULL DEFAULT 0,
  "attempts"    INTEGER      NOT NULL DEFAULT 0,
  "claimToken"  TEXT,
  "lockedUntil" TIMESTAMP(3),
  "storageKey"  TEXT,
  "fileName"    TEXT,
  "bytes"       BIGINT,
  "error"       TEXT,
  "missingFiles" INTEGER     NOT NULL DEFAULT 0,
  "createdAt"   TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "readyAt"     TIMESTAMP(3),
  "expiresAt"   TIMESTAMP(3),
  "updatedAt"   TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "memorial_exports_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "memorial_exports_status_check" CHECK ("status" IN ('queued', 'building', 'ready', 'failed')),
  CONSTRAINT "memorial_exports_progress_check" CHECK ("progress" BETWEEN 0 AND 100)
);

-- The status page: a memorial's newest export.
CREATE INDEX "memorial_exports_memorialId_createdAt_idx" ON "memorial_exports" ("memorialId", "createdAt");
-- The account export lists a member's.
CREATE INDEX "memorial_exports_userId_idx" ON "memorial_exports" ("userId");
-- The builders' claim: the oldest queued, or a building one whose builder stopped answering.
CREATE INDEX "memorial_exports_status_createdAt_idx" ON "memorial_exports" ("status", "createdAt");
-- One export at a time per memorial: asking again while one is being made joins it.
CREATE UNIQUE INDEX "memorial_exports_one_active_idx" ON "memorial_exports" ("memorialId") WHERE "status" IN ('queued', 'building');
