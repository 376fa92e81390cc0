// The public gallery's constants, shared by the model that queries it
// (app/models/memorials/gallery.server.ts) and the page that shows it (app/routes/memorials._index.tsx).

export const BROWSE_PAGE_SIZE = 8;
/** Load More stops somewhere: 50 presses (400 memorials); search narrows beyond that. */
export const BROWSE_MAX_PAGES = 50;
export const BROWSE_SORTS = ["recent", "popular", "alphabetical"] as const;
export const BROWSE_CATEGORIES = ["all", "individual", "organization"] as const;
export type BrowseQuery = { search?: string; category?: (typeof BROWSE_CATEGORIES)[number]; sort?: (typeof BROWSE_SORTS)[number]; page?: number };
export const BROWSE_VIEWS = ["grid", "masonry", "list"] as const;
/** Longer search words are cut to this many characters. */
export const BROWSE_SEARCH_MAX = 100;

/** One of `allowed`, else the first: a hand-edited address never breaks the page. */
function pick<T extends string>(value: string | null, allowed: readonly T[]): T {
  return allowed.includes(value as T) ? (value as T) : allowed[0];
}

/** The query as the gallery understands it, from its address (?search=&category=&sort=&view=&page=). */
export function readBrowseQuery(url: URL) {
  const params = url.searchParams;
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  return {
    search: (params.get("search") ?? "").trim().slice(0, BROWSE_SEARCH_MAX),
    category: pick(params.get("category"), BROWSE_CATEGORIES),
    sort: pick(params.get("sort"), BROWSE_SORTS),
    view: pick(params.get("view"), BROWSE_VIEWS),
    page: Number.isFinite(page) ? Math.min(Math.max(page, 1), BROWSE_MAX_PAGES) : 1,
  };
}
