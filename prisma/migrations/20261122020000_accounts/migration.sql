-- Accounts: privacy and notification settings (the /account tabs the spec leaves open) and the
-- rate-limit counters shared by every app instance.

-- AlterTable
ALTER TABLE "users" ADD COLUMN "defaultVisibility" TEXT NOT NULL DEFAULT 'public';
ALTER TABLE "users" ADD COLUMN "discoverable" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "users" ADD COLUMN "notificationPreferences" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "users" ADD CONSTRAINT "users_defaultVisibility_check" CHECK ("defaultVisibility" IN ('public', 'friends', 'private'));

-- CreateTable
CREATE TABLE "rate_limits" (
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "rate_limits_windowStart_idx" ON "rate_limits"("windowStart");
