// How the site says how many: "1 photo", "3 photos", and never a row of zeros — a new memorial or a new
// member is not a list of things they do not have yet.

/** A count with its noun: "1 photo", "1,204 views". */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-GB")} ${n === 1 ? one : many}`;
}

/** The counts that are not zero, joined: "2 photos, 1 video"; "" when all are zero. */
export function nonZeroCounts(parts: [n: number, one: string, many?: string][]): string {
  return parts
    .filter(([n]) => n > 0)
    .map(([n, one, many]) => countOf(n, one, many))
    .join(", ");
}
