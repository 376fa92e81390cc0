import { Form, Link, useNavigation, useSubmit } from "react-router";
import type { Route } from "./+types/memorials._index";
import { FeaturedCarousel } from "~/components/memorial/featured-carousel";
import { GalleryResults, type GalleryView } from "~/components/memorial/gallery-results";
import { browseMemorials, featuredMemorials, type GalleryCard } from "~/models/memorials/gallery.server";
import { publicUrl } from "~/services/env.server";
import { DEFAULT_SOCIAL_CARD } from "~/utils/site";
import { DEFAULT_SOCIAL_CARD_ALT, socialMeta } from "~/utils/social-meta";
import { BROWSE_CATEGORIES, BROWSE_PAGE_SIZE, BROWSE_SEARCH_MAX, BROWSE_SORTS, BROWSE_VIEWS, readBrowseQuery } from "~/utils/browse";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Complete as plain HTML: its scripts wait for the visitor's first use (app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle & KeptPageHandle = { hydrateOnUse: true, kept: { visitors: "browse", members: "any" } };

// The public gallery at /memorials and /market: published
// public memorials only, searched, filtered, sorted and paged in the database (memorials/gallery.server.ts).
// Every choice lives in the address (?search=&category=&sort=&view=&page=), so the page works without
// JavaScript, can be bookmarked and shared; with JavaScript the selects apply at once.

const VIEWS = BROWSE_VIEWS satisfies readonly GalleryView[];

const CATEGORY_OPTIONS: Record<(typeof BROWSE_CATEGORIES)[number], string> = {
  all: "All Categories",
  individual: "Individuals",
  organization: "Organizations",
};
const SORT_OPTIONS: Record<(typeof BROWSE_SORTS)[number], string> = { recent: "Most Recent", popular: "Most Popular", alphabetical: "Alphabetical" };
const VIEW_LABELS: Record<GalleryView, string> = { grid: "Grid", masonry: "Masonry", list: "List" };

type Query = ReturnType<typeof readBrowseQuery>;

/** The address of this query, leaving out what is the default so links stay short. */
function queryString(query: Query) {
  const params = new URLSearchParams();
  if (query.search) params.set("search", query.search);
  if (query.category !== "all") params.set("category", query.category);
  if (query.sort !== "recent") params.set("sort", query.sort);
  if (query.view !== "grid") params.set("view", query.view);
  if (query.page > 1) params.set("page", String(query.page));
  const s = params.toString();
  return s ? `?${s}` : "?";
}

/** What a public card needs: the gallery holds published public memorials only. */
function toCard(m: GalleryCard) {
  return { ...m, visibility: "public", isPublished: true };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = readBrowseQuery(new URL(request.url));
  // `browseFound`: the page cache looked the memorials up already, for words the address holds a placeholder for.
  const [results, featured] = await Promise.all([browseMemorials(query, context.browseFound), featuredMemorials(3, context.memorialsVersion)]);
  // `site` (PUBLIC_URL): the link preview's and the canonical address, /memorials also when opened as /market.
  return { query, site: publicUrl(), featured: featured.map(toCard), items: results.items.map(toCard), hasMore: results.hasMore, page: results.page };
}

export default function BrowseMemorials({ loaderData }: Route.ComponentProps) {
  const { query, featured, items, hasMore, page } = loaderData;
  const navigation = useNavigation();
  const loadingMore = navigation.state === "loading" && new URLSearchParams(navigation.location.search).get("page") === String(page + 1);
  const filtered = !!query.search || query.category !== "all";
  return (
    <>
      <section aria-labelledby="browse-heading" className="bg-linear-to-b from-amber-50 to-white">
        <div className="mx-auto max-w-6xl px-4 pb-8 pt-12">
          <h1 id="browse-heading" className="text-4xl font-bold tracking-tight text-stone-900">
            Memorial Gallery
          </h1>
          <p className="mt-3 max-w-2xl text-lg text-stone-700">Lives remembered and shared by their families. Read their stories, and leave a tribute.</p>
          <SearchForm query={query} />
        </div>
      </section>

      <div className="mx-auto max-w-6xl px-4 pb-16">
        {/* Someone who searched sees what they asked for first; the featured memorials come after. */}
        {featured.length && !filtered ? <FeaturedCarousel memorials={featured} /> : null}

        <section aria-labelledby="results-heading" className="mt-10">
          <div className="flex flex-wrap items-center justify-between gap-4">
            <h2 id="results-heading" className="text-2xl font-semibold text-stone-900">
              {query.search ? `Memorials matching “${query.search}”` : "All Memorials"}
            </h2>
            <nav aria-label="View" className="flex gap-1 rounded-lg border border-stone-300 bg-white p-1">
              {VIEWS.map((view) => (
                <Link
                  key={view}
                  to={queryString({ ...query, view })}
                  preventScrollReset
                  aria-current={query.view === view ? "true" : undefined}
                  className={`rounded-md px-3 py-1.5 text-sm font-semibold ${query.view === view ? "bg-heather-700 text-white" : "text-stone-800 hover:bg-stone-100"}`}
                >
                  {VIEW_LABELS[view]}
                </Link>
              ))}
            </nav>
          </div>

          {items.length ? (
            <GalleryResults view={query.view} memorials={items} />
          ) : (
            <div className="mt-8 rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center">
              <p className="text-lg font-semibold text-stone-900">No memorials found</p>
              <p className="mt-1 text-stone-700">
                {filtered ? "Try other words, or another category." : "When families share a memorial publicly, it appears here."}
              </p>
              {filtered ? (
                <Link to="?" className="btn-secondary mt-4">
                  Clear search
                </Link>
              ) : null}
            </div>
          )}

          {hasMore ? (
            <div className="mt-8 text-center">
              {/* Page N shows the first N × 8; the anchor brings the reader to the first new card. */}
              <Link
                to={`${queryString({ ...query, page: page + 1 })}#result-${page * BROWSE_PAGE_SIZE + 1}`}
                preventScrollReset
                className="btn-secondary"
                aria-disabled={loadingMore || undefined}
              >
                {loadingMore ? "Loading..." : "Load More"}
              </Link>
            </div>
          ) : null}
        </section>
        {featured.length && filtered ? <FeaturedCarousel memorials={featured} /> : null}
      </div>
    </>
  );
}

/** A GET form: search, category and sort; changing any of them starts again at page 1. */
function SearchForm({ query }: { query: Query }) {
  const submit = useSubmit();
  const selectClass = "mt-1 block w-full rounded-md border border-stone-400 bg-white px-3 py-2 text-stone-900";
  return (
    <Form method="get" role="search" preventScrollReset className="mt-6 grid gap-3 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end">
      <div>
        <label htmlFor="browse-search" className="block text-sm font-medium text-stone-800">
          Search memorials
        </label>
        <input
          id="browse-search"
          type="search"
          name="search"
          defaultValue={query.search}
          maxLength={BROWSE_SEARCH_MAX}
          placeholder="Name, title or words from their story"
          className={selectClass}
        />
      </div>
      <div>
        <label htmlFor="browse-category" className="block text-sm font-medium text-stone-800">
          Category
        </label>
        <select
          id="browse-category"
          name="category"
          defaultValue={query.category}
          onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}
          className={selectClass}
        >
          {BROWSE_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {CATEGORY_OPTIONS[c]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="browse-sort" className="block text-sm font-medium text-stone-800">
          Sort by
        </label>
        <select
          id="browse-sort"
          name="sort"
          defaultValue={query.sort}
          onChange={(e) => submit(e.currentTarget.form, { preventScrollReset: true })}
          className={selectClass}
        >
          {BROWSE_SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_OPTIONS[s]}
            </option>
          ))}
        </select>
      </div>
      {query.view !== "grid" ? <input type="hidden" name="view" value={query.view} /> : null}
      <button type="submit" className="btn-primary">
        Search
      </button>
    </Form>
  );
}

const BROWSE_DESCRIPTION = "Browse memorials that families have shared publicly on Everlight, and leave a tribute.";

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: d?.query.search ? `Memorials matching “${d.query.search}” · Everlight` : "Memorial Gallery · Everlight" },
  { name: "description", content: BROWSE_DESCRIPTION },
  ...(d
    ? socialMeta({
        url: `${d.site}/memorials`,
        title: "Memorial Gallery · Everlight",
        description: BROWSE_DESCRIPTION,
        image: `${d.site}${DEFAULT_SOCIAL_CARD}`,
        imageAlt: DEFAULT_SOCIAL_CARD_ALT,
      })
    : []),
];
