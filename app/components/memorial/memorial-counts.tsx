import { memorialCounts } from "~/utils/counts";

/** A memorial's counts as every card shows them: "5 tributes  240 views", only those it has, nothing when none. */
export function MemorialCounts({ memorial, className = "" }: { memorial: { tributeCount: number; viewCount: number }; className?: string }) {
  const counts = memorialCounts(memorial);
  return counts.length ? (
    <p className={`flex flex-wrap gap-x-4 text-sm text-stone-700 ${className}`}>
      {counts.map((count) => (
        <span key={count}>{count}</span>
      ))}
    </p>
  ) : null;
}
