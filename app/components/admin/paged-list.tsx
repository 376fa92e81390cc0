import { Fragment, type ReactNode } from "react";
import { Pager } from "~/components/pager";

// An admin tab's list, a page at a time: how many there are (and what was searched for), the
// items or a sentence saying there are none, and the previous/next links that keep the search and filters.
// Every admin list is this; what an item shows is the tab's own.

// "cards": each item a Card of its own; "log": one bordered list of rows (the audit log, in order).
const LIST_CLASS = {
  cards: "mt-4 space-y-3",
  log: "mt-4 divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white",
} as const;

type PagedListProps<T extends { id: string }> = {
  items: readonly T[];
  /** Said in place of the list when there is nothing on it, e.g. "No users found." */
  empty: string;
  /** "12 users matching …" above the list; left out where the page states its totals itself. */
  summary?: { total: number; noun: [string, string]; search: string };
  page: number;
  pages: number;
  /** The tab's address and the search and filters its pager links keep. */
  base: string;
  query?: Record<string, string | null>;
  look?: keyof typeof LIST_CLASS;
  /** One item, as an <li> (a Card for "cards"). */
  children: (item: T) => ReactNode;
};

export function PagedList<T extends { id: string }>({ items, empty, summary, page, pages, base, query = {}, look = "cards", children }: PagedListProps<T>) {
  // The audit log is a record in order, so an ordered list; the other tabs' lists are sets of things.
  const List = look === "log" ? "ol" : "ul";
  return (
    <>
      {summary ? <ListSummary total={summary.total} noun={summary.noun} search={summary.search} /> : null}
      {items.length === 0 ? (
        <Empty>{empty}</Empty>
      ) : (
        <List className={LIST_CLASS[look]}>
          {items.map((item) => (
            <Fragment key={item.id}>{children(item)}</Fragment>
          ))}
        </List>
      )}
      <AdminPager page={page} pages={pages} base={base} query={query} />
    </>
  );
}

/** "Showing N" and, for a search, what was searched for. */
function ListSummary({ total, noun, search }: { total: number; noun: [string, string]; search: string }) {
  return (
    <p className="mt-4 text-sm text-stone-700" role="status">
      {total} {total === 1 ? noun[0] : noun[1]}
      {search ? ` matching “${search}”` : ""}
    </p>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="mt-6 rounded-md border border-dashed border-stone-300 p-6 text-center text-stone-700">{children}</p>;
}

/** Previous/next links that keep the list's search and filters. */
function AdminPager({ page, pages, base, query }: { page: number; pages: number; base: string; query: Record<string, string | null> }) {
  const href = (p: number) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v) params.set(k, v);
    if (p > 1) params.set("page", String(p));
    const q = params.toString();
    return `${base}${q ? `?${q}` : ""}`;
  };
  return <Pager page={page} pages={pages} href={href} />;
}
