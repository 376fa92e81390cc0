import { deleteExpiredExports } from "./memorial-export.server";
import { deleteStaleRateLimits } from "./rate-limit.server";
import { deleteExpiredSessions } from "./session.server";

// Rows that only grow unless someone removes them (issue 26 item 7): sessions past their expiry (a
// signed-out browser's, a member's who never came back), rate-limit windows long over, and memorial
// copies past their seven days (issue 27 item 3), with their stored ZIPs. Every
// instance runs it (server/app.ts, at start and every hour): deleting what another instance already
// deleted is nothing, and a round missed while the server was down is caught up by the next.

/** Deletes expired sessions, rate-limit windows a day old and expired memorial copies; says how many sessions and copies went. */
export async function keepHouse(now = new Date()) {
  const sessions = await deleteExpiredSessions(now);
  await deleteStaleRateLimits(now);
  const exports = await deleteExpiredExports(now);
  return { sessions, exports };
}
