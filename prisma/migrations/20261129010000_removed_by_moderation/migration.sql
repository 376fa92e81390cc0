-- Removed by moderation: an administrator deleting someone else's memorial or account. Kept its 30 days as
-- any deletion is, but not undone by its owner: the owner is told why and how to appeal, and only an
-- administrator brings it back (audited). Set by app/models/memorial-deletion.server.ts, cleared on restore.
ALTER TABLE "memorial_records" ADD COLUMN "removedByModeration" BOOLEAN NOT NULL DEFAULT false;
-- "memorials" keeps the columns it was made with: made again to show the new one.
CREATE OR REPLACE VIEW "memorials" AS SELECT * FROM "memorial_records" WHERE "deletedAt" IS NULL;
ALTER TABLE "users" ADD COLUMN "removedByModeration" BOOLEAN NOT NULL DEFAULT false;
