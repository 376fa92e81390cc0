import { deleteExpiredFollows } from "./community/follows.server";
import { deleteOldReminderRecords } from "./community/anniversary-reminders.server";
import { purgeDeleted } from "./memorials/deletion.server";
import { deleteExpiredExports } from "./memorials/export.server";
import { deleteStaleRateLimits } from "./rate-limit.server";
import { deleteExpiredSessions } from "./accounts/sessions.server";
import { handOverForAbsentOwners } from "./memorials/succession.server";

// Rows that only grow unless someone removes them: sessions past their expiry (a
// signed-out browser's, a member's who never came back), rate-limit windows long over, and memorial
// copies past their seven days, with their stored ZIPs. Every
// instance runs it (server/app.ts, at start and every hour): deleting what another instance already
// deleted is nothing, and a round missed while the server was down is caught up by the next.

// The same round deletes expired memorial copies (memorials/export.server.ts), tells owners of deleted
// memorials and accounts that the 30 days are nearly over, and purges what is past them
// (memorials/deletion.server.ts: once, whichever instance gets there first), and reminds owners long
// away that their memorials will pass to their successors, then hands them on (memorials/succession.server.ts,
// likewise once).

/** Deletes expired sessions, rate-limit windows a day old and expired memorial copies, and purges deletions past their window; says how many went. */
export async function keepHouse(now = new Date()) {
  const sessions = await deleteExpiredSessions(now);
  await deleteStaleRateLimits(now);
  const exports = await deleteExpiredExports(now);
  // Visitors' follows never confirmed within their link's days.
  const follows = await deleteExpiredFollows(now);
  // The records of anniversary reminders whose date is a month past.
  await deleteOldReminderRecords(now);
  const purged = await purgeDeleted(now);
  const succession = await handOverForAbsentOwners(now);
  return { sessions, exports, follows, ...purged, ...succession };
}
