-- Deletion keeps a 30-day window (issue 27 item 1; docs/decisions/019-recoverable-deletion.md).
--
-- Memorials: the rows move to "memorial_records", and "memorials" becomes a view of the live ones
-- ("deletedAt" IS NULL). Every query the app makes of memorials, through Prisma or in SQL, reads the
-- view, so a deleted memorial is hidden from pages, the /api, browse, search, the page cache, media URLs,
-- exports and friends' views at once, without a condition to forget in each. The view is simple, so
-- PostgreSQL writes through it (INSERT, UPDATE and DELETE reach "memorial_records"; an UPDATE of a
-- deleted memorial finds nothing, as if it were gone). Only app/models/memorial-deletion.server.ts reads
-- "memorial_records" directly: Recently deleted, restore and the purge.
-- A later migration that adds a column to "memorial_records" must create the view again (CREATE OR
-- REPLACE VIEW with the same SELECT), since a view keeps the columns it was made with.
ALTER TABLE "memorials" RENAME TO "memorial_records";
ALTER TABLE "memorial_records"
  ADD COLUMN "deletedAt" TIMESTAMP(3),
  -- Who deleted it (the owner, or an administrator), for the audit and the Recently deleted list.
  ADD COLUMN "deletedById" TEXT,
  -- Deleted together with its owner's account: restored with the account, not on its own.
  ADD COLUMN "deletedWithAccount" BOOLEAN NOT NULL DEFAULT false,
  -- When the owner was told it goes for good in a few days (once, across instances).
  ADD COLUMN "purgeNoticeAt" TIMESTAMP(3);
CREATE INDEX "memorial_records_deletedAt_idx" ON "memorial_records" ("deletedAt") WHERE "deletedAt" IS NOT NULL;
CREATE VIEW "memorials" AS SELECT * FROM "memorial_records" WHERE "deletedAt" IS NULL;

-- Accounts: a deleted account keeps its row (and everything that hangs from it) for 30 days, signed out
-- everywhere and unable to sign in except to restore it; its memorials are deleted with it.
ALTER TABLE "users"
  ADD COLUMN "deletedAt" TIMESTAMP(3),
  ADD COLUMN "purgeNoticeAt" TIMESTAMP(3);
CREATE INDEX "users_deletedAt_idx" ON "users" ("deletedAt") WHERE "deletedAt" IS NOT NULL;
