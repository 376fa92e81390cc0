import { Link } from "react-router";
import { parseForm } from "~/request/form.server";
import { z } from "~/utils/validation/zod";
import type { Route } from "./+types/admin._index";
import { AdminSection, Card, ConfirmAction, SearchForm, Tag } from "~/components/admin/admin-ui";
import { PagedList } from "~/components/admin/paged-list";
import { RecentlyDeleted } from "~/components/admin/recently-deleted";
import { deleteMemorialAsAdmin, listMemorialsForAdmin } from "~/models/admin.server";
import { listDeletedMemorialsForAdmin, restoreMemorial } from "~/models/memorials/deletion.server";
import { backWithToast, listQuery, requireAdminActor } from "~/request/admin.server";
import { countsOf } from "~/utils/counts";
import { formatShortDate } from "~/utils/dates";
import { RECOVERY_DAYS, RESTORE_MESSAGES } from "~/utils/deletion";
import { ADMIN_MESSAGES, recordIdSchema } from "~/utils/validation/admin";
import { VISIBILITY_LABELS } from "~/utils/validation/account";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Memorials tab: every memorial with its owner, visibility, state and counts, newest first,
// searched and paged; open one (administrators may see any: memorials/access-rules.ts), or delete it after a
// confirmation: hidden at once, kept 30 days. Recently deleted memorials are listed under the others,
// with Restore (audited), until the purge removes them.

const actionSchema = z.object({ intent: z.enum(["delete", "restore"]), memorialId: recordIdSchema });

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminActor(request);
  const query = listQuery(request);
  const [list, deleted] = await Promise.all([listMemorialsForAdmin(query), listDeletedMemorialsForAdmin()]);
  return {
    ...list,
    search: query.search,
    deleted: deleted.map((m) => ({
      id: m.id,
      title: m.title,
      detail: `Owner: ${m.ownerEmail}${m.moderated ? " · removed by an administrator" : ""}`,
      deletedAt: m.deletedAt,
      purgeAt: m.purgeAt,
      restorable: !m.withAccount,
      note: m.withAccount ? "Deleted with its owner's account: restore the account (Users tab) to bring it back." : undefined,
    })),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await requireAdminActor(request);
  const submission = parseForm(await request.formData(), { schema: actionSchema });
  if (submission.status !== "success")
    return backWithToast(request, { type: "error", title: "Nothing was changed", description: "The form was incomplete. Please try again." });
  if (submission.value.intent === "restore") {
    const restored = await restoreMemorial(submission.value.memorialId, actor);
    if (!restored.ok)
      return backWithToast(request, {
        type: "error",
        title: "Not restored",
        description: restored.reason === "with-account" ? ADMIN_MESSAGES.restoreWithAccount : ADMIN_MESSAGES.restoreFailed,
      });
    return backWithToast(request, { type: "success", title: "Memorial restored", description: RESTORE_MESSAGES.restored(restored.title) });
  }
  const result = await deleteMemorialAsAdmin(actor, submission.value.memorialId);
  if (!result.ok) return backWithToast(request, { type: "error", title: "Error", description: ADMIN_MESSAGES.memorialNotFound });
  return backWithToast(request, {
    type: "success",
    title: "Memorial deleted",
    description: `The memorial of ${result.name} has been deleted. It can be restored below for ${RECOVERY_DAYS} days.`,
  });
}

export default function AdminMemorials({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pages, search, deleted } = loaderData;
  return (
    <AdminSection id="memorials-heading" title="Memorials">
      <div className="mt-4">
        <SearchForm label="Search memorials by name, title or owner's email" search={search} />
      </div>
      <PagedList
        items={items}
        empty="No memorials found."
        summary={{ total, noun: ["memorial", "memorials"], search }}
        page={page}
        pages={pages}
        base="/admin"
        query={{ q: search }}
      >
        {(m) => (
          <Card>
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-48 flex-1">
                <h3 className="font-semibold text-stone-900 wrap-anywhere">
                  <Link to={`/memorials/${m.id}`} className="link">
                    {m.name}
                  </Link>
                </h3>
                {m.title && m.title !== m.name ? <p className="text-sm text-stone-700 italic wrap-anywhere">{m.title}</p> : null}
                <p className="text-sm text-stone-700 wrap-anywhere">
                  Owner: {m.owner.name} ({m.owner.email}) {m.owner.isAdmin ? <Tag tone="info">Admin</Tag> : null}
                </p>
                <p className="mt-1 flex flex-wrap gap-2 text-sm text-stone-700">
                  <Tag>{VISIBILITY_LABELS[m.visibility as keyof typeof VISIBILITY_LABELS] ?? m.visibility}</Tag>
                  <Tag tone={m.state === "Draft" ? "warning" : "success"}>{m.state}</Tag>
                  <span>
                    {[
                      ...countsOf([
                        [m.tributes, "tribute"],
                        [m.media, "photo or video", "photos and videos"],
                        [m.views, "view"],
                      ]),
                      `created ${formatShortDate(m.createdAt)}`,
                    ].join(" · ")}
                  </span>
                </p>
              </div>
              <ConfirmAction
                summary="Delete…"
                warning={<p>{`Delete the memorial of ${m.name}? ${ADMIN_MESSAGES.deleteMemorialWarning}`}</p>}
                confirm="Yes, delete this memorial"
                intent="delete"
                fields={{ memorialId: m.id }}
              />
            </div>
          </Card>
        )}
      </PagedList>
      <RecentlyDeleted heading="Recently deleted memorials" field="memorialId" entries={deleted} />
    </AdminSection>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Memorials · Admin · Everlight" }];
