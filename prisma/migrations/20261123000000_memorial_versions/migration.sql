-- A memorial's "updatedAt" is the version of its public page: the anonymous page cache keeps a rendered
-- copy per version (server/page-cache.ts) and several app instances agree by reading it. So every change
-- to what that page shows must move it. Edits to the memorial itself move it (Prisma's @updatedAt); its
-- photos and videos and its approved tributes live in other tables, and these triggers move it for them,
-- in the same transaction as the change, whichever code made it (issue 14: stale by omission no more).
-- Versions only ever grow, at least by a millisecond, so two changes in one millisecond stay two versions.

CREATE FUNCTION "bump_memorial_version"(memorial_id TEXT) RETURNS VOID LANGUAGE SQL AS $$
  UPDATE "memorials" SET "updatedAt" = GREATEST(clock_timestamp(), "updatedAt" + INTERVAL '1 millisecond') WHERE "id" = memorial_id;
$$;

-- Photos and videos: any change is on the page.
CREATE FUNCTION "memorial_media_moves_version"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "bump_memorial_version"(OLD."memorialId"); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW."memorialId" IS DISTINCT FROM OLD."memorialId") THEN
    PERFORM "bump_memorial_version"(NEW."memorialId");
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "memorial_media_version" AFTER INSERT OR UPDATE OR DELETE ON "memorial_media"
  FOR EACH ROW EXECUTE FUNCTION "memorial_media_moves_version"();

-- Tributes: only approved ones are on the page, so a tribute that is, or was, approved moves it.
CREATE FUNCTION "tributes_move_version"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD."isApproved" THEN PERFORM "bump_memorial_version"(OLD."memorialId"); END IF;
  IF TG_OP <> 'DELETE' AND NEW."isApproved" AND (TG_OP = 'INSERT' OR NOT OLD."isApproved" OR NEW IS DISTINCT FROM OLD) THEN
    PERFORM "bump_memorial_version"(NEW."memorialId");
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "tributes_version" AFTER INSERT OR UPDATE OR DELETE ON "tributes"
  FOR EACH ROW EXECUTE FUNCTION "tributes_move_version"();
