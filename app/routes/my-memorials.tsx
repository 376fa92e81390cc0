import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/my-memorials";
import { MemorialCard } from "~/components/memorial/memorial-card";
import { countOf } from "~/utils/counts";
import { ModerationActions } from "~/components/memorial/moderation-actions";
import type { Actor } from "~/models/audit.server";
import { listRecentlyDeleted, restoreMemorial } from "~/models/memorials/deletion.server";
import { listCoManagedMemorials } from "~/models/memorials/managers.server";
import { CO_MANAGER_ROLE_LABELS } from "~/utils/co-managers";
import { listOwnMemorials } from "~/models/memorials/own-memorials.server";
import { listPendingForOwner, moderateTribute, moderationToast } from "~/models/tributes/tributes.server";
import { actorOf, requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { formatLongDate, formatShortDate } from "~/utils/dates";
import { RECOVERY_DAYS, RESTORE_MESSAGES } from "~/utils/deletion";
import { FREE_MEMORIAL_LIMIT } from "~/utils/plans";
import { PAGE_NUMBER_MESSAGE, parsePageNumber } from "~/utils/paging";
import type { KeptPageHandle } from "~/utils/kept-pages";

const PENDING_SECTION = "pending-tributes";
const DELETED_SECTION = "recently-deleted";

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const search = url.searchParams.get("search")?.trim() ?? "";
  const page = parsePageNumber(url.searchParams.get("page"));
  if (page === null) throw data({ message: PAGE_NUMBER_MESSAGE }, { status: 400 });
  const [memorials, pending, deleted, shared] = await Promise.all([
    listOwnMemorials(user.id, { search, page }),
    listPendingForOwner(user.id),
    listRecentlyDeleted(user.id),
    listCoManagedMemorials(user.id),
  ]);
  return {
    search,
    memorials,
    shared,
    deleted: deleted.map((m) => ({ id: m.id, title: m.title, deletedAt: m.deletedAt, purgeAt: m.purgeAt, moderated: m.moderated })),
    pending: pending.map((t) => ({ id: t.id, authorName: t.authorName, content: t.content, createdAt: t.createdAt, memorial: t.memorial })),
  };
}

// Approve or reject a pending tribute from this list, so an owner can moderate without opening each
// memorial; the model checks that the tribute is on one of the member's memorials.
// Restore brings back a memorial from Recently deleted, within the free plan's limit.
export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "restore") return restore(String(form.get("memorialId") ?? ""), actorOf(user, request));
  if (intent !== "approve" && intent !== "reject") throw data({ message: "Unknown action" }, { status: 400 });
  const result = await moderateTribute(intent, String(form.get("tributeId") ?? ""), actorOf(user, request));
  const toast = moderationToast(intent, result);
  // Back to the list, not the top of the page (without JavaScript); the toast floats where they look.
  return redirectWithToast(`/my-memorials${new URL(request.url).search}#${PENDING_SECTION}`, toast);
}

async function restore(memorialId: string, actor: Actor) {
  const result = await restoreMemorial(memorialId, actor);
  if (result.ok)
    return redirectWithToast("/my-memorials", { type: "success", title: "Memorial restored", description: RESTORE_MESSAGES.restored(result.title) });
  const description =
    result.reason === "limit"
      ? RESTORE_MESSAGES.limit(FREE_MEMORIAL_LIMIT)
      : result.reason === "moderated"
        ? RESTORE_MESSAGES.moderated
        : RESTORE_MESSAGES.notFound;
  return redirectWithToast(`/my-memorials#${DELETED_SECTION}`, { type: "error", title: "Not restored", description });
}

export default function MyMemorialsPage({ loaderData }: Route.ComponentProps) {
  const { memorials, pending, deleted, search, shared } = loaderData;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-stone-900">My Memorials</h1>
          <p className="mt-1 text-stone-700">Manage and view your created memorials</p>
        </div>
        <Link to="/memorials/create" className="btn-primary">
          Create Memorial
        </Link>
      </div>

      <section aria-labelledby="activity-heading" className="mt-8 rounded-lg border border-stone-200 bg-white p-4">
        <h2 id="activity-heading" className="font-semibold text-stone-900">
          Recent Activity
        </h2>
        <p className="mt-1 text-stone-700">
          {memorials.totalOwned === 0
            ? "Welcome! Create your first memorial to honor someone you love."
            : `You have ${countOf(memorials.totalOwned, "memorial")} created`}
        </p>
      </section>

      {pending.length ? <PendingTributes pending={pending} /> : null}

      <Form method="get" role="search" className="mt-8 flex max-w-xl gap-2">
        <label htmlFor="my-search" className="sr-only">
          Search your memorials
        </label>
        <input
          id="my-search"
          type="search"
          name="search"
          defaultValue={search}
          placeholder="Search your memorials..."
          className="block w-full rounded-md border border-stone-400 px-3 py-2 text-stone-900"
        />
        <button type="submit" className="btn-secondary">
          Search
        </button>
      </Form>

      <section aria-labelledby="memorials-heading" className="mt-6">
        <h2 id="memorials-heading" className="sr-only">
          Your memorials
        </h2>
        {memorials.items.length ? (
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {memorials.items.map((m, i) => (
              <li key={m.id}>
                <MemorialCard memorial={m} actions priority={i < 3} />
              </li>
            ))}
          </ul>
        ) : search ? (
          <div className="rounded-lg border border-dashed border-stone-300 p-10 text-center">
            <p className="text-lg font-semibold text-stone-900">No memorials found</p>
            <p className="mt-1 text-stone-700">Try adjusting your search terms.</p>
            <Link to="/my-memorials" className="link mt-3 inline-block">
              Clear search
            </Link>
          </div>
        ) : (
          <div className="rounded-lg border border-dashed border-stone-300 p-10 text-center">
            <p className="text-lg font-semibold text-stone-900">No memorials yet</p>
            <p className="mt-1 text-stone-700">A memorial keeps their story, photos and the words of those who loved them.</p>
            <Link to="/memorials/create" className="btn-primary mt-4">
              Create Your First Memorial
            </Link>
          </div>
        )}
        {memorials.pages > 1 ? (
          <nav aria-label="Pages" className="mt-6 flex items-center justify-between text-sm">
            {memorials.page > 1 ? <PageLink search={search} page={memorials.page - 1} label="Previous page" /> : <span />}
            <span className="text-stone-700">
              Page {memorials.page} of {memorials.pages}
            </span>
            {memorials.page < memorials.pages ? <PageLink search={search} page={memorials.page + 1} label="Next page" /> : <span />}
          </nav>
        ) : null}
      </section>

      {shared.length ? <SharedWithMe shared={shared} /> : null}

      {deleted.length ? <RecentlyDeleted deleted={deleted} /> : null}
    </div>
  );
}

/** The memorials the member helps manage, with their role. */
function SharedWithMe({ shared }: { shared: Route.ComponentProps["loaderData"]["shared"] }) {
  return (
    <section aria-labelledby="shared-heading" className="mt-10">
      <h2 id="shared-heading" className="text-xl font-semibold text-stone-900">
        Shared with me
      </h2>
      <p className="mt-1 text-stone-700">Memorials you help manage.</p>
      <ul className="mt-4 divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white">
        {shared.map((m) => (
          <li key={m.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
            <div className="min-w-0">
              <Link to={`/memorials/${m.id}`} className="link font-medium wrap-anywhere">
                {m.name}
              </Link>
              <p className="text-sm text-stone-700 wrap-anywhere">
                {CO_MANAGER_ROLE_LABELS[m.role]} · owned by {m.ownerName} · {m.isPublished ? "Published" : "Draft"}
              </p>
            </div>
            <Link to={`/memorials/${m.id}/edit`} className="btn-secondary text-sm">
              Edit<span className="sr-only"> {m.name}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

type Deleted = Route.ComponentProps["loaderData"]["deleted"][number];

/** Deleted memorials still in their 30 days: hidden from everyone, back with one button. */
function RecentlyDeleted({ deleted }: { deleted: Deleted[] }) {
  const navigation = useNavigation();
  return (
    <section id={DELETED_SECTION} aria-labelledby="deleted-heading" className="mt-10 rounded-lg border border-stone-300 bg-white p-4">
      <h2 id="deleted-heading" className="font-semibold text-stone-900">
        Recently deleted ({deleted.length})
      </h2>
      <p className="mt-1 text-sm text-stone-700">
        Nobody can see these. Each is kept for {RECOVERY_DAYS} days after it was deleted, then removed for good with its photos, videos and tributes.
      </p>
      <ul className="mt-3 divide-y divide-stone-200 wrap-anywhere">
        {deleted.map((m) => {
          const busy = navigation.state !== "idle" && navigation.formData?.get("memorialId") === m.id;
          return (
            <li key={m.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-medium text-stone-900">{m.title}</p>
                <p className="text-sm text-stone-700">
                  {m.moderated ? "Removed by our moderators" : "Deleted"} {formatShortDate(m.deletedAt)} · removed for good on {formatLongDate(m.purgeAt)}
                </p>
                {m.moderated ? (
                  <p className="mt-1 max-w-prose text-sm text-stone-700">
                    It broke the site&apos;s rules, so it cannot be restored from here. If you think this is a mistake,{" "}
                    <Link to="/contact" className="link">
                      write to us
                    </Link>{" "}
                    before that date and we will look at it again.
                  </p>
                ) : null}
              </div>
              {m.moderated ? null : (
                <Form method="post">
                  <input type="hidden" name="intent" value="restore" />
                  <input type="hidden" name="memorialId" value={m.id} />
                  <button type="submit" className="btn-secondary" disabled={busy} aria-label={`Restore ${m.title}`}>
                    {busy ? "Restoring..." : "Restore"}
                  </button>
                </Form>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function PageLink({ search, page, label }: { search: string; page: number; label: string }) {
  const params = new URLSearchParams({ ...(search ? { search } : {}), page: String(page) });
  return (
    <Link to={`/my-memorials?${params}`} className="link">
      {label}
    </Link>
  );
}

type Pending = Route.ComponentProps["loaderData"]["pending"][number];

function PendingTributes({ pending }: { pending: Pending[] }) {
  const navigation = useNavigation();
  return (
    <section id={PENDING_SECTION} aria-labelledby="pending-heading" className="mt-6 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h2 id="pending-heading" className="font-semibold text-amber-950">
        Pending Tributes ({pending.length})
      </h2>
      <ul className="mt-3 space-y-3 wrap-anywhere">
        {pending.map((t) => {
          const busy = navigation.state !== "idle" && navigation.formData?.get("tributeId") === t.id;
          return (
            <li key={t.id} className="rounded-md border border-amber-200 bg-white p-3">
              <p className="text-sm text-stone-700">
                On{" "}
                <Link to={`/memorials/${t.memorial.id}`} className="link">
                  {t.memorial.firstName} {t.memorial.lastName}
                </Link>{" "}
                · {t.authorName} · {formatShortDate(t.createdAt)}
              </p>
              <p className="mt-1 whitespace-pre-line text-stone-800">{t.content}</p>
              <ModerationActions tributeId={t.id} authorName={t.authorName} busy={busy} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "My Memorials · Everlight" }];
