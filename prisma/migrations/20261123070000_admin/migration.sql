-- The admin dashboard (issue 19).
--
-- An audit log of every administrator's action: who (their id and email as they were, kept when the
-- account is later deleted: no foreign key), what, on which record, when, from which address. Nothing on
-- the site edits or deletes it, and the database refuses to: rows are only ever added.
CREATE TABLE "audit_log" (
    "id" TEXT NOT NULL DEFAULT (gen_random_uuid())::text,
    "actorId" TEXT,
    "actorEmail" TEXT NOT NULL,
    "action" VARCHAR(60) NOT NULL,
    "targetType" VARCHAR(40) NOT NULL,
    "targetId" TEXT,
    "summary" TEXT NOT NULL DEFAULT '',
    "ip" VARCHAR(64),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "audit_log_createdAt_idx" ON "audit_log"("createdAt" DESC);
CREATE INDEX "audit_log_actorId_createdAt_idx" ON "audit_log"("actorId", "createdAt");

CREATE FUNCTION "audit_log_is_append_only"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the audit log cannot be changed';
END $$;
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_is_append_only"();

-- A paid order an administrator cancels is refunded once: the provider's refund id is kept on the order,
-- and a second cancellation finds it there.
ALTER TABLE "orders" ADD COLUMN "refundId" TEXT;
ALTER TABLE "orders" ADD COLUMN "refundedAt" TIMESTAMP(3);

-- Analytics (30 days, per day) count rows by the day they were made: each table's createdAt is indexed
-- (memorials had only partial and per-owner ones), and paid plan payments by when they were paid.
CREATE INDEX "users_createdAt_idx" ON "users"("createdAt");
CREATE INDEX "memorials_createdAt_idx" ON "memorials"("createdAt");
CREATE INDEX "tributes_createdAt_idx" ON "tributes"("createdAt");
CREATE INDEX "plan_payments_paidAt_idx" ON "plan_payments"("paidAt") WHERE "status" = 'succeeded';
