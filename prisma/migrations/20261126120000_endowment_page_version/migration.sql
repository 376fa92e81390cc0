-- The endowment fund's public report (/endowment, issue 27 §6) is kept rendered like the other public
-- pages (20261124000000_page_versions): its version moves at the commit of any change to a plan payment
-- or a plan refund, the two tables it is computed from.
INSERT INTO "page_versions" ("name") VALUES ('endowment');

CREATE CONSTRAINT TRIGGER "plan_payments_page_version" AFTER INSERT OR UPDATE OR DELETE ON "plan_payments"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_version"('endowment');

CREATE CONSTRAINT TRIGGER "plan_refunds_page_version" AFTER INSERT OR UPDATE OR DELETE ON "plan_refunds"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "bump_page_version"('endowment');
