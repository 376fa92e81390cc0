import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/admin.news";
import { AdminSection, formatDateTime } from "~/components/admin/admin-ui";
import { fetchNewsAsAdmin } from "~/models/admin.server";
import { NEWS_MESSAGES, newsStatus } from "~/models/news.server";
import { backWithToast, requireAdminActor } from "~/request/admin.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// News tab: how many articles
// there are, what the last fetch did, and Fetch news now with its result (the same use case as
// POST /api/admin/news/fetch).

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminActor(request);
  const status = await newsStatus();
  return { ...status, lastFetch: status.lastFetch && { ...status.lastFetch, startedAt: status.lastFetch.startedAt.toISOString() } };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await requireAdminActor(request);
  const result = await fetchNewsAsAdmin(actor);
  if (!result.ok)
    return backWithToast(request, {
      type: "error",
      title: "Error",
      description: result.reason === "no-feeds" ? result.message : `${NEWS_MESSAGES.failed} ${result.failures.join(" ")}`,
    });
  const failed = result.failures.length ? ` Not read: ${result.failures.join(" ")}` : "";
  return backWithToast(request, {
    type: "success",
    title: NEWS_MESSAGES.fetched,
    description: `${result.added} new ${result.added === 1 ? "article" : "articles"} from ${result.feedsRead} ${result.feedsRead === 1 ? "feed" : "feeds"}; ${result.memorials.length} draft ${result.memorials.length === 1 ? "memorial" : "memorials"} created.${failed}`,
  });
}

export default function AdminNews({ loaderData }: Route.ComponentProps) {
  const { count, feeds, lastFetch } = loaderData;
  const busy = useNavigation().state === "submitting";
  return (
    <AdminSection id="news-heading" title="News" className="space-y-4">
      <dl className="grid max-w-md grid-cols-2 gap-2 text-stone-800">
        <dt className="font-medium">Articles</dt>
        <dd data-testid="news-count" className="tabular-nums">
          {count}
        </dd>
        <dt className="font-medium">Feeds set up</dt>
        <dd className="tabular-nums">{feeds}</dd>
      </dl>
      {lastFetch ? (
        <div className="rounded-md border border-stone-200 bg-white p-4 text-sm text-stone-800">
          <h3 className="font-semibold text-stone-900">Last fetch</h3>
          <p>
            {formatDateTime(lastFetch.startedAt)}: {lastFetch.status}. {lastFetch.articlesAdded} articles added, {lastFetch.memorialsCreated} memorials drafted,{" "}
            {lastFetch.feedsRead} feeds read, {lastFetch.feedsFailed} failed.
          </p>
          {lastFetch.messages.length ? (
            <ul className="mt-2 list-disc pl-5">
              {lastFetch.messages.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : (
        <p className="text-stone-700">News has not been fetched yet.</p>
      )}
      <Form method="post">
        <input type="hidden" name="intent" value="fetch" />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Fetching..." : "Fetch news now"}
        </button>
      </Form>
    </AdminSection>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "News · Admin · Everlight" }];
