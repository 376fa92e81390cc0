import { Link } from "react-router";

/** "View memorial · Edit memorial" under the heading of a memorial's own pages (its people, its timeline). */
export function MemorialSubpageLinks({ memorialId }: { memorialId: string }) {
  return (
    <p className="mt-2 flex flex-wrap gap-x-4 gap-y-2 text-sm">
      <Link to={`/memorials/${memorialId}`} className="link">
        View memorial
      </Link>
      <Link to={`/memorials/${memorialId}/edit`} className="link">
        Edit memorial
      </Link>
    </p>
  );
}
