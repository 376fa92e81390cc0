import { Link } from "react-router";

/** Previous and next links with "Page N of M" between them (a plain link each, so it works without JavaScript). */
export function Pager({
  page,
  pages,
  href,
  previous = "Previous page",
  next = "Next page",
}: {
  page: number;
  pages: number;
  href: (page: number) => string;
  previous?: string;
  next?: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pages" className="mt-10 flex items-center justify-between gap-4">
      {page > 1 ? (
        <Link to={href(page - 1)} className="btn-secondary">
          {previous}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-stone-700">
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Link to={href(page + 1)} className="btn-secondary">
          {next}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
