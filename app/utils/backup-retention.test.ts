import { describe, expect, it } from "vitest";
import { applyRetention, isoWeekOf, parseRetention } from "./backup-retention";

const DAY = 86_400_000;

describe("which scheduled backups are kept", () => {
  it("reads BACKUP_KEEP", () => {
    expect(parseRetention("7d,4w,12m")).toEqual({ daily: 7, weekly: 4, monthly: 12 });
    expect(parseRetention(" 1d , 0w , 3m ")).toEqual({ daily: 1, weekly: 0, monthly: 3 });
  });

  it("counts ISO weeks from Monday, the year being that of the week's Thursday", () => {
    expect(isoWeekOf(new Date("2026-11-28T12:00:00Z"))).toBe("2026-W48"); // a Saturday
    expect(isoWeekOf(new Date("2026-11-30T00:00:00Z"))).toBe("2026-W49"); // the Monday after
    expect(isoWeekOf(new Date("2027-01-01T00:00:00Z"))).toBe("2026-W53"); // a Friday in 2026's last week
    expect(isoWeekOf(new Date("2025-12-29T00:00:00Z"))).toBe("2026-W01"); // a Monday in 2026's first week
  });

  it("across a simulated year of daily backups, keeps exactly 7 daily, 4 weekly and 12 monthly, and every deletion is one the rules allow", () => {
    const keep = { daily: 7, weekly: 4, monthly: 12 };
    const start = Date.UTC(2026, 0, 1, 3, 0, 0);
    let stored: { at: Date }[] = [];
    const removed: Date[] = [];
    for (let day = 0; day < 400; day++) {
      // One scheduled backup a day at 03:00, and some days a second one (a catch-up after a restart).
      stored.push({ at: new Date(start + day * DAY) });
      if (day % 9 === 4) stored.push({ at: new Date(start + day * DAY + 5 * 3600_000) });
      const result = applyRetention(stored, keep);
      removed.push(...result.remove.map((b) => b.at));
      stored = result.keep;
    }
    const newest = new Date(start + 399 * DAY);
    const days = new Set(stored.map((b) => b.at.toISOString().slice(0, 10)));
    const months = new Set(stored.map((b) => b.at.toISOString().slice(0, 7)));
    // The last 7 days, each once (its newest backup).
    for (let d = 0; d < 7; d++) expect(days.has(new Date(newest.getTime() - d * DAY).toISOString().slice(0, 10))).toBe(true);
    expect(stored.filter((b) => newest.getTime() - b.at.getTime() < 7 * DAY - 3600_000)).toHaveLength(7);
    // The newest of each of the last 4 weeks and of each of the last 12 months.
    const weeks = [...new Set(stored.map((b) => isoWeekOf(b.at)))];
    expect(weeks).toEqual(expect.arrayContaining([0, 1, 2, 3].map((w) => isoWeekOf(new Date(newest.getTime() - w * 7 * DAY)))));
    expect(months.size).toBe(12);
    for (const month of months) {
      const inMonth = stored.filter((b) => b.at.toISOString().startsWith(month));
      const newestOfMonth = Math.max(...inMonth.map((b) => b.at.getTime()));
      expect(inMonth.some((b) => b.at.getTime() === newestOfMonth)).toBe(true);
    }
    // Nothing more: each backup kept is the newest of one of the last 7 days, 4 weeks or 12 months.
    const newestOf = (key: (d: Date) => string, value: string) => Math.max(...stored.filter((b) => key(b.at) === value).map((b) => b.at.getTime()));
    const lastDays = new Set(Array.from({ length: 7 }, (_, d) => new Date(newest.getTime() - d * DAY).toISOString().slice(0, 10)));
    const lastWeeks = new Set(Array.from({ length: 4 }, (_, w) => isoWeekOf(new Date(newest.getTime() - w * 7 * DAY))));
    const lastMonths = new Set([...months].sort().slice(-12));
    for (const b of stored) {
      const day = b.at.toISOString().slice(0, 10);
      const month = b.at.toISOString().slice(0, 7);
      const justified =
        (lastDays.has(day) && newestOf((d) => d.toISOString().slice(0, 10), day) === b.at.getTime()) ||
        (lastWeeks.has(isoWeekOf(b.at)) && newestOf(isoWeekOf, isoWeekOf(b.at)) === b.at.getTime()) ||
        (lastMonths.has(month) && newestOf((d) => d.toISOString().slice(0, 7), month) === b.at.getTime());
      expect(justified, b.at.toISOString()).toBe(true);
    }
    expect(stored.length).toBeLessThanOrEqual(7 + 4 + 12);
    // Nothing kept was ever removed, and nothing removed is younger than a week unless a newer one of its day is kept.
    for (const gone of removed) {
      const sameDay = stored.find((b) => b.at.toISOString().slice(0, 10) === gone.toISOString().slice(0, 10));
      if (newest.getTime() - gone.getTime() < 6 * DAY) expect(sameDay && sameDay.at > gone).toBe(true);
    }
  });

  it("keeps the newest backup whatever the settings, and never counts a day with no backup", () => {
    const at = (iso: string) => ({ at: new Date(iso) });
    expect(applyRetention([at("2026-01-01T00:00:00Z"), at("2026-01-02T00:00:00Z")], { daily: 0, weekly: 0, monthly: 0 }).keep).toEqual([
      at("2026-01-02T00:00:00Z"),
    ]);
    // Three backups weeks apart: "2 daily" keeps the two newest days that have one, however far apart.
    const sparse = [at("2026-03-01T00:00:00Z"), at("2026-03-15T00:00:00Z"), at("2026-03-29T00:00:00Z")];
    expect(applyRetention(sparse, { daily: 2, weekly: 0, monthly: 0 }).keep.map((b) => b.at.toISOString().slice(0, 10))).toEqual(["2026-03-29", "2026-03-15"]);
  });
});
