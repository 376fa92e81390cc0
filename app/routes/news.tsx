import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/news";
import { ToastInPlace } from "~/components/toaster";
import { fetchNews, listNews, newsStatus } from "~/models/news.server";
import { getOptionalUser, requireAdmin } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { formatLongDate } from "~/utils/dates";
import { NEWS_MESSAGES, newsImageSources } from "~/utils/news";
import { PAGE_NUMBER_MESSAGE, parsePageNumber } from "~/utils/paging";
import type { HydrateOnUseHandle } from "~/request/hydrate-on-use.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Complete as plain HTML: its scripts wait for the visitor's first use (app/request/hydrate-on-use.server.ts).
export const handle: HydrateOnUseHandle & KeptPageHandle = { hydrateOnUse: true, kept: { visitors: "news", members: "any" } };

// News: the articles, newest first, 10 a page, each with its title,
// source, date, the person it is about, its description and a link out that hands the other site neither
// this page nor a way back into it (rel="noopener noreferrer"). Pictures are our own resized copies,
// never another site's (app/models/news.server.ts). Administrators also see the fetch: how many articles,
// the last fetch, and Fetch news now (or how to add a feed when none is set up).

const ADMIN_PANEL = "news-fetch";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  const page = parsePageNumber(new URL(request.url).searchParams.get("page"));
  if (page === null) throw data({ message: PAGE_NUMBER_MESSAGE }, { status: 400 });
  const [list, status] = await Promise.all([listNews(page), user?.isAdmin ? newsStatus() : null]);
  return {
    ...list,
    items: list.items.map((a) => ({
      id: a.id,
      title: a.title,
      description: a.description,
      url: a.url,
      image: newsImageSources(a.urlToImage),
      publishedAt: a.publishedAt?.toISOString() ?? null,
      source: a.source,
      personName: a.personName,
    })),
    admin: status && { ...status, lastFetch: status.lastFetch && { ...status.lastFetch, startedAt: status.lastFetch.startedAt.toISOString() } },
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await request.formData();
  if (form.get("intent") !== "fetch") throw data({ message: "Unknown action" }, { status: 400 });
  const result = await fetchNews(admin);
  // With no feed, the panel already says how to add one just above this answer: say what happened, not that again.
  const toast = result.ok
    ? { type: "success" as const, title: NEWS_MESSAGES.fetched, description: describeFetch(result) }
    : result.reason === "no-feeds"
      ? { type: "error" as const, title: "No news feeds", description: "Nothing was fetched. Add a feed as described above, then try again." }
      : { type: "error" as const, title: NEWS_MESSAGES.failed, description: result.failures.join(" ").slice(0, 480) };
  return redirectWithToast(`/news#${ADMIN_PANEL}`, { ...toast, at: ADMIN_PANEL });
}

function describeFetch(result: { added: number; memorials: { name: string }[]; failures: string[] }) {
  const added = result.added === 0 ? "No new articles." : `${result.added} new article${result.added === 1 ? "" : "s"}.`;
  const drafts = result.memorials.length
    ? ` Draft memorial${result.memorials.length === 1 ? "" : "s"} for ${result.memorials.map((m) => m.name).join(" and ")} ${result.memorials.length === 1 ? "is" : "are"} waiting in My Memorials for you to check and publish.`
    : "";
  const failures = result.failures.length ? ` Not read: ${result.failures.join(" ")}` : "";
  return `${added}${drafts}${failures}`.slice(0, 480);
}

export default function NewsPage({ loaderData }: Route.ComponentProps) {
  const { items, page, pages, admin } = loaderData;
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">News</h1>
      <p className="mt-1 text-stone-700">Stories of remembrance, and of the people they honor.</p>
      {admin ? <AdminFetch status={admin} /> : null}
      {items.length === 0 ? (
        <p className="mt-8 rounded-lg border border-dashed border-stone-300 bg-stone-50 p-6 text-center text-stone-700">
          There is no news yet. Please come back soon.
        </p>
      ) : (
        <ul className="mt-8 space-y-6">
          {items.map((article) => (
            <li key={article.id}>
              <article
                aria-labelledby={`article-${article.id}`}
                className="flex flex-col gap-4 overflow-hidden rounded-lg border border-stone-200 bg-white sm:flex-row"
              >
                {article.image ? (
                  <img
                    src={article.image.src}
                    srcSet={article.image.srcSet}
                    sizes="(min-width: 640px) 240px, 100vw"
                    alt=""
                    width={640}
                    height={360}
                    loading="lazy"
                    className="aspect-video w-full object-cover sm:w-60 sm:shrink-0"
                  />
                ) : null}
                <div className="min-w-0 p-4 wrap-anywhere sm:py-5">
                  <p className="text-sm text-stone-700">
                    {article.source ?? "News"}
                    {article.publishedAt ? (
                      <>
                        {" · "}
                        <time dateTime={article.publishedAt}>{formatLongDate(article.publishedAt)}</time>
                      </>
                    ) : null}
                  </p>
                  <h2 id={`article-${article.id}`} className="mt-1 text-lg font-semibold text-stone-900">
                    <a href={article.url} target="_blank" rel="noopener noreferrer" className="hover:text-heather-800 hover:underline">
                      {article.title}
                      <span className="sr-only"> (opens another site in a new tab)</span>
                    </a>
                  </h2>
                  {article.personName ? <p className="mt-1 text-sm font-medium text-heather-800">In memory of {article.personName}</p> : null}
                  {article.description ? <p className="mt-2 text-stone-700">{article.description}</p> : null}
                  <p className="mt-3 text-sm">
                    <a href={article.url} target="_blank" rel="noopener noreferrer" className="link">
                      Read the full story<span className="sr-only">: {article.title}</span>
                      <span aria-hidden="true"> ↗</span>
                    </a>
                  </p>
                </div>
              </article>
            </li>
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <nav aria-label="Pages of news" className="mt-8 flex justify-between gap-3">
          {page > 1 ? (
            <Link to={page === 2 ? "/news" : `/news?page=${page - 1}`} className="btn-secondary">
              Newer news
            </Link>
          ) : (
            <span />
          )}
          {page < pages ? (
            <Link to={`/news?page=${page + 1}`} className="btn-secondary">
              Older news
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}

type AdminStatus = NonNullable<Route.ComponentProps["loaderData"]["admin"]>;

/** For administrators: the fetch, until the dashboard's News tab exists. */
function AdminFetch({ status }: { status: AdminStatus }) {
  const busy = useNavigation().state === "submitting";
  const last = status.lastFetch;
  return (
    <section id={ADMIN_PANEL} aria-labelledby="news-fetch-heading" className="mt-6 scroll-mt-24 rounded-lg border border-heather-200 bg-heather-50 p-4">
      <h2 id="news-fetch-heading" className="font-semibold text-stone-900">
        News fetching (administrators)
      </h2>
      <p className="mt-1 text-sm text-stone-800">
        {status.count} article{status.count === 1 ? "" : "s"}, {status.feeds} feed{status.feeds === 1 ? "" : "s"} set up.
        {last
          ? ` Last fetch ${formatLongDate(last.startedAt)}: ${last.articlesAdded} added, ${last.memorialsCreated} draft memorial${last.memorialsCreated === 1 ? "" : "s"}${last.status === "ok" ? "" : `, ${last.feedsFailed} feed${last.feedsFailed === 1 ? "" : "s"} not read`}.`
          : ""}
      </p>
      {status.feeds === 0 ? <p className="mt-2 text-sm text-stone-800">{NEWS_MESSAGES.noFeeds}</p> : null}
      <ToastInPlace at={ADMIN_PANEL} />
      <Form method="post" className="mt-3">
        <button type="submit" name="intent" value="fetch" className="btn-primary" disabled={busy}>
          {busy ? "Fetching..." : "Fetch news now"}
        </button>
      </Form>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "News · Everlight" },
  { name: "description", content: "Stories of remembrance from across the country, and of the people they honor." },
];
