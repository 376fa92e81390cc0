-- Issue 29 item 2: a fourth visibility, "unlisted" (docs/decisions/027-sharing-and-unlisted.md): anyone with
-- the link may read the memorial, but it is in no list, no search and no sitemap. Members may also choose it
-- as the visibility preselected for their new memorials (Privacy tab).
ALTER TABLE "memorial_records" DROP CONSTRAINT "memorials_visibility_check";
ALTER TABLE "memorial_records" ADD CONSTRAINT "memorials_visibility_check" CHECK ("visibility" IN ('public', 'unlisted', 'friends', 'private'));

ALTER TABLE "users" DROP CONSTRAINT "users_defaultVisibility_check";
ALTER TABLE "users" ADD CONSTRAINT "users_defaultVisibility_check" CHECK ("defaultVisibility" IN ('public', 'unlisted', 'friends', 'private'));
