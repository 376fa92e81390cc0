import { Form, Link, useNavigation } from "react-router";
import { parseForm } from "~/request/form.server";
import { z } from "~/utils/validation/zod";
import type { Route } from "./+types/admin.tributes";
import { AdminSection, Card, ConfirmAction, formatDateTime, SearchForm } from "~/components/admin/admin-ui";
import { PagedList } from "~/components/admin/paged-list";
import { listPendingTributesForAdmin } from "~/models/admin.server";
import { moderateTribute } from "~/models/tributes/tributes.server";
import { backWithToast, listQuery, requireAdminActor } from "~/request/admin.server";
import { ADMIN_MESSAGES, recordIdSchema } from "~/utils/validation/admin";
import { TRIBUTE_MESSAGES } from "~/utils/validation/tribute-rules";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Tributes tab: pending tributes across the site.
// Approve or delete only where the memorial's creator is an administrator; otherwise the actions are
// not offered and a note says why. The rule is canModerate (tributes/tributes.server.ts), the one the
// memorial page and the /api use, and the use case applies it again whatever the form sends.

const actionSchema = z.object({ intent: z.enum(["approve", "delete"]), tributeId: recordIdSchema });

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireAdminActor(request);
  const query = listQuery(request);
  return { ...(await listPendingTributesForAdmin(actor, query)), search: query.search, restricted: TRIBUTE_MESSAGES.adminRestricted };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await requireAdminActor(request);
  const submission = parseForm(await request.formData(), { schema: actionSchema });
  if (submission.status !== "success")
    return backWithToast(request, { type: "error", title: "Nothing was changed", description: "The form was incomplete. Please try again." });
  const { intent, tributeId } = submission.value;
  const result = await moderateTribute(intent === "approve" ? "approve" : "reject", tributeId, actor);
  if (result === "ok") {
    return backWithToast(
      request,
      intent === "approve"
        ? { type: "success", title: "Tribute approved", description: "The tribute has been approved and is now visible." }
        : { type: "success", title: "Tribute deleted", description: "The tribute has been deleted." },
    );
  }
  const description =
    result === "forbidden" ? TRIBUTE_MESSAGES.adminRestricted : intent === "approve" ? ADMIN_MESSAGES.approveFailed : ADMIN_MESSAGES.deleteTributeFailed;
  return backWithToast(request, { type: "error", title: "Error", description });
}

export default function AdminTributes({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pages, search, restricted } = loaderData;
  const navigation = useNavigation();
  const busyId = navigation.state === "submitting" ? navigation.formData?.get("tributeId") : null;
  return (
    <AdminSection id="tributes-heading" title="Pending tributes">
      <p className="mt-1 text-stone-700">Administrators moderate tributes only on memorials an administrator created; families moderate their own.</p>
      <div className="mt-4">
        <SearchForm label="Search pending tributes by author, words or memorial" search={search} />
      </div>
      <PagedList
        items={items}
        empty="No tributes are waiting."
        summary={{ total, noun: ["pending tribute", "pending tributes"], search }}
        page={page}
        pages={pages}
        base="/admin/tributes"
        query={{ q: search }}
      >
        {(t) => (
          <Card label={`Tribute by ${t.authorName} on ${t.memorial.title}`}>
            <p className="text-sm text-stone-700">
              On{" "}
              <Link to={`/memorials/${t.memorial.id}`} className="link">
                {t.memorial.title}
              </Link>{" "}
              (owner {t.memorial.ownerEmail}) · {formatDateTime(t.createdAt)}
            </p>
            <h3 className="mt-2 font-semibold text-stone-900 wrap-anywhere">
              {t.authorName}
              {t.authorEmail ? <span className="font-normal text-stone-700"> ({t.authorEmail})</span> : null}
            </h3>
            <p className="mt-1 whitespace-pre-line text-stone-800 wrap-anywhere">{t.content}</p>
            {t.canAct ? (
              <div className="mt-3 flex flex-wrap items-start gap-2">
                <Form method="post">
                  <input type="hidden" name="intent" value="approve" />
                  <input type="hidden" name="tributeId" value={t.id} />
                  <button type="submit" className="btn-primary" disabled={busyId === t.id}>
                    Approve<span className="sr-only"> the tribute by {t.authorName}</span>
                  </button>
                </Form>
                <ConfirmAction
                  summary="Delete…"
                  warning={<p>Delete this tribute? It cannot be brought back.</p>}
                  confirm="Yes, delete this tribute"
                  intent="delete"
                  fields={{ tributeId: t.id }}
                />
              </div>
            ) : (
              <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">{restricted}</p>
            )}
          </Card>
        )}
      </PagedList>
    </AdminSection>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Tributes · Admin · Everlight" }];
