-- The audit log refuses TRUNCATE as it refuses UPDATE and DELETE (issue 25 §9): a row trigger does not
-- see TRUNCATE, so a statement trigger raises the same error.
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_is_append_only"();
