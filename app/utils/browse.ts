// The public gallery's constants (memorial-core.md §9 "Browse"), shared by the model that queries it
// (app/models/memorial.server.ts) and the page that shows it (app/routes/memorials._index.tsx).

export const BROWSE_PAGE_SIZE = 8;
/** Load More stops somewhere: 50 presses (400 memorials); search narrows beyond that. */
export const BROWSE_MAX_PAGES = 50;
export const BROWSE_SORTS = ["recent", "popular", "alphabetical"] as const;
export const BROWSE_CATEGORIES = ["all", "individual", "organization"] as const;
export type BrowseQuery = { search?: string; category?: (typeof BROWSE_CATEGORIES)[number]; sort?: (typeof BROWSE_SORTS)[number]; page?: number };
