// Which pages may be kept between requests, declared by each page's route in its `handle` (beside its
// body limit and its hydration). The visitors' page cache (server/page-cache.ts) keeps one copy of a page
// for every visitor, under its kind, whose versions say when it changed; the members' page cache
// (server/member-page-cache.ts) keeps each signed-in member's own. A page that acts when opened (a
// payment's return, a token's link, a download, a search counted against a limit) declares nothing.

/** The kinds of page kept for visitors: what each shows decides the versions its copies are keyed by. */
export type VisitorPageKind = "memorial" | "landing" | "browse" | "products" | "news" | "endowment" | "document" | "not-found";

export type KeptPageHandle = {
  kept?: {
    /** Kept for visitors as this kind of page. A memorial page's path names the memorial as `:id`. */
    visitors?: VisitorPageKind;
    /** Kept for each signed-in member: with any query string, or only at the address without one. */
    members?: "any" | "none";
    /** Opening the page counts a view of the memorial its `id` names, also when a kept copy answers. */
    countsViews?: boolean;
  };
};

/** What a route module declares about keeping its page, if anything. */
export function keptPolicyOf(module: { handle?: unknown } | undefined): KeptPageHandle["kept"] {
  return (module?.handle as KeptPageHandle | undefined)?.kept;
}
