-- Co-managers by invitation (issue 27 item 4). The owner (or a manager) invites someone by email with a
-- role: editor (edits the content, moderates tributes) or manager (also invites and removes people and
-- changes who may see the memorial). The link in the email is the credential: single use, 7 days.
-- Both tables reference "memorial_records" (the view "memorials" cannot be referenced): a memorial's
-- managers and invitations stay while it sits in Recently deleted and go when it is purged.

CREATE TABLE "memorial_managers" (
  "id"          TEXT         NOT NULL DEFAULT (gen_random_uuid())::text,
  "memorialId"  TEXT         NOT NULL,
  "userId"      TEXT         NOT NULL,
  "role"        VARCHAR(20)  NOT NULL,
  "invitedById" TEXT,
  "createdAt"   TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "memorial_managers_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "memorial_managers_role_check" CHECK ("role" IN ('editor', 'manager')),
  CONSTRAINT "memorial_managers_memorialId_fkey" FOREIGN KEY ("memorialId") REFERENCES "memorial_records"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "memorial_managers_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "memorial_managers_invitedById_fkey" FOREIGN KEY ("invitedById") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "memorial_managers_memorialId_userId_key" ON "memorial_managers" ("memorialId", "userId");
-- My Memorials lists what a member co-manages; visibleWhere asks the same.
CREATE INDEX "memorial_managers_userId_idx" ON "memorial_managers" ("userId");
CREATE INDEX "memorial_managers_invitedById_idx" ON "memorial_managers" ("invitedById");

CREATE TABLE "memorial_invitations" (
  "id"          TEXT         NOT NULL DEFAULT (gen_random_uuid())::text,
  "memorialId"  TEXT         NOT NULL,
  "email"       TEXT         NOT NULL,
  "role"        VARCHAR(20)  NOT NULL,
  "tokenHash"   TEXT         NOT NULL,
  "invitedById" TEXT,
  "createdAt"   TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "expiresAt"   TIMESTAMP(3) NOT NULL,
  "acceptedAt"  TIMESTAMP(3),
  "acceptedById" TEXT,
  "declinedAt"  TIMESTAMP(3),
  "revokedAt"   TIMESTAMP(3),
  CONSTRAINT "memorial_invitations_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "memorial_invitations_role_check" CHECK ("role" IN ('editor', 'manager')),
  CONSTRAINT "memorial_invitations_memorialId_fkey" FOREIGN KEY ("memorialId") REFERENCES "memorial_records"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "memorial_invitations_invitedById_fkey" FOREIGN KEY ("invitedById") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE,
  CONSTRAINT "memorial_invitations_acceptedById_fkey" FOREIGN KEY ("acceptedById") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "memorial_invitations_tokenHash_key" ON "memorial_invitations" ("tokenHash");
CREATE INDEX "memorial_invitations_memorialId_createdAt_idx" ON "memorial_invitations" ("memorialId", "createdAt");
CREATE INDEX "memorial_invitations_invitedById_idx" ON "memorial_invitations" ("invitedById");
CREATE INDEX "memorial_invitations_acceptedById_idx" ON "memorial_invitations" ("acceptedById");
