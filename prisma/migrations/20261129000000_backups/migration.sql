-- Backups (app/models/backups): one row per backup made, by the schedule or by hand. A scheduled one
-- carries its slot (the day, week or hour it stands for): the unique slot is the claim that lets one
-- instance alone make it, and a slot with no finished row after downtime is the backup still owed.
CREATE TABLE "backup_runs" (
    "id"         TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "slot"       TEXT,
    -- scheduled | manual
    "kind"       TEXT NOT NULL,
    -- running | succeeded | failed
    "status"     TEXT NOT NULL DEFAULT 'running',
    "attempts"   INTEGER NOT NULL DEFAULT 1,
    "startedAt"  TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    -- the archive's name where it was written (a file in BACKUP_DIR, or a key in BACKUP_S3_BUCKET)
    "location"   TEXT,
    "sizeBytes"  BIGINT,
    -- whether every checksum of the archive was read back and matched once it was written
    "verified"   BOOLEAN NOT NULL DEFAULT false,
    "error"      TEXT,
    CONSTRAINT "backup_runs_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "backup_runs_slot_key" ON "backup_runs"("slot");
CREATE INDEX "backup_runs_startedAt_idx" ON "backup_runs"("startedAt" DESC);
