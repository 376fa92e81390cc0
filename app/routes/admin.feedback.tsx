import type { Route } from "./+types/admin.feedback";
import { AdminSection, Card, formatDateTime } from "~/components/admin/admin-ui";
import { PagedList } from "~/components/admin/paged-list";
import { listFeedbackForAdmin } from "~/models/admin.server";
import { listQuery, requireAdminActor } from "~/request/admin.server";
import { RATING_MAX } from "~/utils/feedback";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Feedback tab: the UX answers and
// ratings, newest first, with the average rating over all of them.

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminActor(request);
  return listFeedbackForAdmin(listQuery(request));
}

export default function AdminFeedback({ loaderData }: Route.ComponentProps) {
  const { items, average, rated, total, page, pages } = loaderData;
  return (
    <AdminSection id="feedback-heading" title="Feedback">
      <p className="mt-2 text-stone-800" data-testid="feedback-average">
        {average === null
          ? "No ratings yet."
          : `Average rating ${average.toFixed(1)} out of ${RATING_MAX}, from ${rated} ${rated === 1 ? "rating" : "ratings"}.`}{" "}
        {total} answers in all.
      </p>
      <PagedList items={items} empty="No feedback yet." page={page} pages={pages} base="/admin/feedback">
        {(f) => (
          <Card>
            <h3 className="font-semibold text-stone-900">{f.rating === null ? "No rating" : `${f.rating} out of ${RATING_MAX}`}</h3>
            <p className="text-sm text-stone-700 wrap-anywhere">
              {f.from} · {formatDateTime(f.createdAt)}
            </p>
            {f.answers.features.length ? <p className="mt-1 text-sm text-stone-800">Most helpful: {f.answers.features.join(", ")}</p> : null}
            {f.answers.suggestions ? <p className="mt-1 whitespace-pre-line text-stone-800 wrap-anywhere">{f.answers.suggestions}</p> : null}
          </Card>
        )}
      </PagedList>
    </AdminSection>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Feedback · Admin · Everlight" }];
