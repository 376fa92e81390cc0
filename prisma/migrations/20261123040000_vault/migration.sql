-- The vault (issue 17 §7–10). Ciphertext lives in the storage service (disk or S3) under "storageKey",
-- never in the database; "encryptedData" stays for the spec's column list and is no longer filled.
ALTER TABLE "vault_files" ALTER COLUMN "encryptedData" DROP NOT NULL;
ALTER TABLE "vault_files" ADD COLUMN "storageKey" TEXT;
ALTER TABLE "vault_files" ADD CONSTRAINT "vault_files_category_check" CHECK ("category" IN ('document', 'image', 'video', 'other'));

-- A vault with a password is open only to a session that gave it: one row per unlocked session, gone
-- with the session (sign-out) and ignored once idle for 15 minutes.
CREATE TABLE "vault_unlocks" (
    "sid" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "lastUsedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "vault_unlocks_pkey" PRIMARY KEY ("sid")
);
ALTER TABLE "vault_unlocks" ADD CONSTRAINT "vault_unlocks_sid_fkey" FOREIGN KEY ("sid") REFERENCES "sessions"("sid") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "vault_unlocks" ADD CONSTRAINT "vault_unlocks_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "vault_unlocks_userId_idx" ON "vault_unlocks"("userId");
