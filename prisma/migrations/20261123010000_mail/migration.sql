-- Email (issue 15): a durable outbox that every message is written to inside the transaction of what
-- caused it, delivered by the worker in the server process with retries; and password-reset tokens, of
-- which only a hash is kept.

-- CreateTable
CREATE TABLE "mail_outbox" (
    "id" TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "to" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    -- Messages that must not pile up share a group (one waiting-tributes email per memorial): at most one
    -- of a group waits at a time.
    "groupKey" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sentAt" TIMESTAMP(3),
    CONSTRAINT "mail_outbox_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "mail_outbox_status_check" CHECK ("status" IN ('pending', 'sent', 'skipped', 'failed'))
);

-- The worker's question: what is due now?
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox"("nextAttemptAt") WHERE "status" = 'pending';
-- At most one waiting message per group.
CREATE UNIQUE INDEX "mail_outbox_group_pending_key" ON "mail_outbox"("groupKey") WHERE "status" = 'pending' AND "groupKey" IS NOT NULL;
-- When was the last message of a group sent (the hourly limit of tribute notifications)?
CREATE INDEX "mail_outbox_group_sent_idx" ON "mail_outbox"("groupKey", "sentAt") WHERE "groupKey" IS NOT NULL;

-- CreateTable
CREATE TABLE "password_reset_tokens" (
    "id" TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "userId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "password_reset_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "password_reset_tokens_tokenHash_key" ON "password_reset_tokens"("tokenHash");
CREATE INDEX "password_reset_tokens_userId_idx" ON "password_reset_tokens"("userId");

-- AddForeignKey
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
