// Which scheduled backups to keep: the newest backup of each of the last N days, of each of the last N weeks
// (ISO weeks, Monday first) and of each of the last N months, all in UTC, as restic's `forget --keep-daily
// --keep-weekly --keep-monthly` and most backup tools count. A day, week or month with no backup is not
// counted: seven kept days are the seven newest days that have one. Everything else may be deleted.

export type Retention = { daily: number; weekly: number; monthly: number };

/** BACKUP_KEEP as written ("7d,4w,12m"). */
export function parseRetention(text: string): Retention {
  const [daily, weekly, monthly] = text.split(",").map((part) => Number.parseInt(part.trim(), 10));
  return { daily, weekly, monthly };
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/** The ISO week of a moment in UTC, as "2026-W48" (its year is the year of the week's Thursday). */
export function isoWeekOf(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${day.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

/** Splits backups (any objects with a date) into those the retention keeps and those it lets go. */
export function applyRetention<T extends { at: Date }>(backups: T[], keep: Retention): { keep: T[]; remove: T[] } {
  const newestFirst = [...backups].sort((a, b) => b.at.getTime() - a.at.getTime());
  const kept = new Set<T>();
  for (const [count, period] of [
    [keep.daily, dayOf],
    [keep.weekly, isoWeekOf],
    [keep.monthly, monthOf],
  ] as const) {
    const seen = new Set<string>();
    for (const backup of newestFirst) {
      if (seen.size >= count) break;
      const key = period(backup.at);
      if (seen.has(key)) continue;
      seen.add(key);
      kept.add(backup);
    }
  }
  // The newest is kept whatever the settings say (0d,0w,0m would otherwise delete the backup just made).
  if (newestFirst[0]) kept.add(newestFirst[0]);
  return { keep: newestFirst.filter((b) => kept.has(b)), remove: newestFirst.filter((b) => !kept.has(b)) };
}
