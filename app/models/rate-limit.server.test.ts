import { describe, expect, it } from "vitest";
import { databaseKinds, useAppDatabase } from "../../test/databases";
import { describeRetry, forgiveRateLimitHit, hitRateLimit, resetRateLimit, type RateLimitRule } from "./rate-limit.server";

const rule: RateLimitRule = { name: "test", limit: 3, windowMs: 60_000 };
let n = 0;
const subject = () => `subject-${Date.now()}-${n++}`;

describe.each(databaseKinds)("rate limits on $name", (kind) => {
  const { skip } = kind;
  useAppDatabase(kind);

  it.skipIf(skip)("trips after the stated number of events and recovers after the window", async () => {
    const who = subject();
    const t0 = new Date("2026-11-22T10:00:00Z");
    for (let i = 1; i <= 3; i++) expect((await hitRateLimit(rule, who, t0)).allowed).toBe(true);
    const fourth = await hitRateLimit(rule, who, new Date(t0.getTime() + 10_000));
    expect(fourth).toMatchObject({ allowed: false, count: 4, retryAfterSeconds: 50 });
    // The window is fixed from the first event: a minute later the slate is clean.
    const later = new Date(t0.getTime() + 60_001);
    expect(await hitRateLimit(rule, who, later)).toMatchObject({ allowed: true, count: 1 });
  });

  it.skipIf(skip)("counts the window the same on a server whose clock is not in UTC", async () => {
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      expect(new Date("2026-11-22T10:00:00Z").getTimezoneOffset()).toBe(300);
      const who = subject();
      const t0 = new Date("2026-11-22T10:00:00Z");
      for (let i = 1; i <= 3; i++) expect((await hitRateLimit(rule, who, t0)).allowed).toBe(true);
      expect(await hitRateLimit(rule, who, new Date(t0.getTime() + 10_000))).toMatchObject({ allowed: false, count: 4, retryAfterSeconds: 50 });
      expect(await hitRateLimit(rule, who, new Date(t0.getTime() + 60_001))).toMatchObject({ allowed: true, count: 1 });
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it.skipIf(skip)("keeps subjects apart, ignores case, and can be reset", async () => {
    const a = subject();
    const b = subject();
    for (let i = 0; i < 3; i++) await hitRateLimit(rule, a.toUpperCase());
    expect((await hitRateLimit(rule, a)).allowed).toBe(false);
    expect((await hitRateLimit(rule, b)).allowed).toBe(true);
    await resetRateLimit(rule, a);
    expect((await hitRateLimit(rule, a)).allowed).toBe(true);
  });

  it.skipIf(skip)("takes back one counted event, never below zero", async () => {
    const who = subject();
    await hitRateLimit(rule, who);
    await hitRateLimit(rule, who);
    await forgiveRateLimitHit(rule, who);
    expect((await hitRateLimit(rule, who)).count).toBe(2);
    for (let i = 0; i < 5; i++) await forgiveRateLimitHit(rule, who);
    expect((await hitRateLimit(rule, who)).count).toBe(1);
  });

  it.skipIf(skip)("counts every hit exactly once when many arrive at the same moment", async () => {
    const who = subject();
    const results = await Promise.all(Array.from({ length: 10 }, () => hitRateLimit(rule, who)));
    expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
  });
});

describe("describeRetry", () => {
  it("speaks in seconds under a minute and in whole minutes above", () => {
    expect(describeRetry(1)).toBe("Please try again in 1 second.");
    expect(describeRetry(45)).toBe("Please try again in 45 seconds.");
    expect(describeRetry(61)).toBe("Please try again in 2 minutes.");
    expect(describeRetry(60)).toBe("Please try again in 1 minute.");
  });
});
