-- When the member's password last changed (issue 25 §2): a reset link asked for before then is never
-- made, even when the mail worker only gets to the request afterwards. NULL: never changed since sign-up.
ALTER TABLE "users" ADD COLUMN "passwordChangedAt" TIMESTAMP(3);
