// How the site says how many: "1 photo", "3 photos", and never a row of zeros — a new memorial or a new
// member is not a list of things they do not have yet.

/** A count with its noun: "1 photo", "1,204 views". */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-GB")} ${n === 1 ? one : many}`;
}

type Part = [n: number, one: string, many?: string];

/** The counts that are not zero, each with its noun, in the order given. */
export function countsOf(parts: Part[]): string[] {
  return parts.filter(([n]) => n > 0).map(([n, one, many]) => countOf(n, one, many));
}

/** The counts that are not zero, joined: "2 photos, 1 video"; "" when all are zero. */
export function nonZeroCounts(parts: Part[]): string {
  return countsOf(parts).join(", ");
}

/**
 * A memorial's counts as every card says them: tributes, then views, only those there are. A new memorial
 * has none to show.
 */
export function memorialCounts(memorial: { tributeCount: number; viewCount: number }): string[] {
  return countsOf([
    [memorial.tributeCount, "tribute"],
    [memorial.viewCount, "view"],
  ]);
}
