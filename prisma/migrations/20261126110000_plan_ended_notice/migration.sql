-- When the member was told that their cancelled plan's paid time had run out (issue 27 §2): the notice
-- is claimed once, across instances, by setting this. NULL: not told (or not ended yet).
ALTER TABLE "plan_purchases" ADD COLUMN "endedNoticeAt" TIMESTAMP(3);
