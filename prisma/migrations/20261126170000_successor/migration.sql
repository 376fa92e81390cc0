-- A successor (issue 27 item 5; docs/decisions/021-successor.md). The owner names one co-manager of a
-- memorial (or invites someone by email to be one) as its successor. When the owner deletes their
-- account, or has not been seen for the period they chose (after two reminder emails), the memorial
-- passes to the successor instead of going with the account.

-- At most one successor per memorial, always one of its co-managers: removing the co-manager removes it.
ALTER TABLE "memorial_managers" ADD COLUMN "isSuccessor" BOOLEAN NOT NULL DEFAULT false;
CREATE UNIQUE INDEX "memorial_managers_one_successor_key" ON "memorial_managers" ("memorialId") WHERE "isSuccessor";

-- An invitation that makes whoever accepts it the successor too.
ALTER TABLE "memorial_invitations" ADD COLUMN "asSuccessor" BOOLEAN NOT NULL DEFAULT false;

-- When the member was last seen (sign-in, or a page while signed in; moved at most once a day), the
-- months of absence after which their memorials pass to their successors (0: never, only when the account
-- is deleted), and how many reminders have gone out since they were last seen. Everyone starts as seen
-- today: nobody is handed on because of the time before this existed.
ALTER TABLE "users" ADD COLUMN "lastActiveAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "users" ADD COLUMN "handOverAfterMonths" INTEGER NOT NULL DEFAULT 12;
ALTER TABLE "users" ADD COLUMN "inactivityReminders" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "users" ADD COLUMN "inactivityReminderAt" TIMESTAMP(3);
ALTER TABLE "users" ADD CONSTRAINT "users_handOverAfterMonths_check" CHECK ("handOverAfterMonths" IN (0, 6, 12, 24));
-- The hourly round looks for the members absent longest who chose a period.
CREATE INDEX "users_lastActiveAt_idx" ON "users" ("lastActiveAt") WHERE "deletedAt" IS NULL AND "handOverAfterMonths" > 0;
