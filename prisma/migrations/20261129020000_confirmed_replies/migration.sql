-- A reply to a memorial's event counts, and hears from the family, only once its address confirmed it
-- (app/models/memorial-events.server.ts): anyone can type any address into the reply form.
--   confirmedAt        when the address's owner confirmed it through the emailed link, or replied signed in
--                      with that address as their account's; null: not counted, not mailed
--   userId             the member who replied signed in with their own address (they change it without a link)
--   pending*           an answer given for an address that already replied, waiting for that address to confirm
--                      it: a reply is never changed by someone who merely knows the address
--   updatesStoppedAt   the person asked for no more of the family's updates about this event
-- Replies made before this asked nobody to confirm: they are not counted as confirmed.
ALTER TABLE "event_rsvps"
  ADD COLUMN "confirmedAt" TIMESTAMP(3),
  ADD COLUMN "userId" TEXT REFERENCES "users"("id") ON DELETE SET NULL,
  ADD COLUMN "pendingName" VARCHAR(100),
  ADD COLUMN "pendingPartySize" INTEGER CHECK ("pendingPartySize" BETWEEN 1 AND 20),
  ADD COLUMN "pendingMessage" VARCHAR(500),
  ADD COLUMN "updatesStoppedAt" TIMESTAMP(3);
-- A member's account going (purged) clears their replies' link to it: found by this index.
CREATE INDEX "event_rsvps_userId_idx" ON "event_rsvps"("userId");
