import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../test/databases";
import { keepHouse } from "./housekeeping.server";
import { hitRateLimit, RATE_LIMITS } from "./rate-limit.server";
import { createSessionRow } from "./accounts/sessions.server";

// Housekeeping: expired sessions and rate-limit windows long over are deleted, and
// nothing still in use is touched, on both databases.

describe.each(databaseKinds)("housekeeping on $name", (kind) => {
  const { skip } = kind;
  const app = useAppDatabase(kind);

  it.skipIf(skip)("deletes expired sessions and day-old rate-limit windows, and keeps live ones", async () => {
    const now = new Date();
    const expired = await createSessionRow({}, new Date(now.getTime() - 60_000));
    const live = await createSessionRow({}, new Date(now.getTime() + 60 * 60_000));
    const address = `10.0.${Date.now() % 250}.1`;
    await hitRateLimit(RATE_LIMITS.contactPerIp, `${address}-old`, new Date(now.getTime() - 25 * 60 * 60_000));
    await hitRateLimit(RATE_LIMITS.contactPerIp, `${address}-now`, now);

    await keepHouse(now);

    const left = await app.db.prisma.session.findMany({ where: { sid: { in: [expired, live] } }, select: { sid: true } });
    expect(left.map((s) => s.sid)).toEqual([live]);
    const rows = await app.db.sql.query<{ key: string }>(`SELECT "key" FROM "rate_limits" WHERE "key" LIKE $1 ORDER BY "key"`, [`%${address}%`]);
    expect(rows.map((r) => r.key.endsWith("-now"))).toEqual([true]);
    // A second round (another instance, or the next hour) finds nothing to do and fails on nothing.
    await expect(keepHouse(now)).resolves.toMatchObject({ sessions: 0, exports: 0 });
  });
});
