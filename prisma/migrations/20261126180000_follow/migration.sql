-- Follow a memorial (issue 28 item 1; docs/decisions/023-follow.md). A member follows with one click
-- ("userId"); a visitor with an email address ("email", stored lower-case) and a confirmation link: until
-- it is used ("confirmedAt" is null) nothing but the confirmation email is sent, and the row is deleted by
-- housekeeping after "expiresAt". Only a hash of the link's token is stored, as for invitations.
-- "anniversaryReminders" is the opt-in for the reminders of issue 28 item 3 (off unless ticked);
-- "showName" lets the family see the follower's name (off unless ticked): otherwise they see a count.
-- The foreign key is to "memorial_records" (the view "memorials" cannot be referenced): a deleted
-- memorial's follows stay while it sits in Recently deleted (the digest finds no memorial and sends
-- nothing) and go when it is purged.

CREATE TABLE "memorial_follows" (
  "id"                   TEXT         NOT NULL DEFAULT (gen_random_uuid())::text,
  "memorialId"           TEXT         NOT NULL,
  "userId"               TEXT,
  "email"                TEXT,
  "showName"             BOOLEAN      NOT NULL DEFAULT false,
  "anniversaryReminders" BOOLEAN      NOT NULL DEFAULT false,
  "tokenHash"            TEXT,
  "createdAt"            TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "confirmedAt"          TIMESTAMP(3),
  "expiresAt"            TIMESTAMP(3),
  CONSTRAINT "memorial_follows_pkey" PRIMARY KEY ("id"),
  -- A member's follow or a visitor's, never both nor neither.
  CONSTRAINT "memorial_follows_who_check" CHECK (("userId" IS NULL) <> ("email" IS NULL)),
  CONSTRAINT "memorial_follows_memorialId_fkey" FOREIGN KEY ("memorialId") REFERENCES "memorial_records"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "memorial_follows_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "memorial_follows_memorialId_userId_key" ON "memorial_follows" ("memorialId", "userId");
CREATE UNIQUE INDEX "memorial_follows_memorialId_email_key" ON "memorial_follows" ("memorialId", "email");
CREATE UNIQUE INDEX "memorial_follows_tokenHash_key" ON "memorial_follows" ("tokenHash");
-- Account → Following lists a member's follows.
CREATE INDEX "memorial_follows_userId_idx" ON "memorial_follows" ("userId");
-- Housekeeping deletes unconfirmed follows past their expiry.
CREATE INDEX "memorial_follows_expiresAt_idx" ON "memorial_follows" ("expiresAt");

-- When a tribute was approved: the followers' digest lists the tributes approved since the last one.
-- Tributes approved before this migration have none and are never "new".
ALTER TABLE "tributes" ADD COLUMN "approvedAt" TIMESTAMP(3);
CREATE INDEX "tributes_memorialId_approvedAt_idx" ON "tributes" ("memorialId", "approvedAt");
