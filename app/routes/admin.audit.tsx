import type { Route } from "./+types/admin.audit";
import { AdminSection, formatDateTime, SearchForm } from "~/components/admin/admin-ui";
import { PagedList } from "~/components/admin/paged-list";
import { listAudit } from "~/models/audit.server";
import { listQuery, requireAdminActor } from "~/request/admin.server";
import type { KeptPageHandle } from "~/utils/kept-pages";

// The audit log: every administrator's action, newest first, searched by who, what or the
// record. Read only: there is no form here, and the database refuses changes to it.

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminActor(request);
  const query = listQuery(request);
  return { ...(await listAudit(query)), search: query.search };
}

export default function AdminAudit({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pages, search } = loaderData;
  return (
    <AdminSection id="audit-heading" title="Audit log">
      <p className="mt-1 text-stone-700">Every administrator&apos;s action, as it happened. It cannot be edited.</p>
      <div className="mt-4">
        <SearchForm label="Search by administrator's email, action or record" search={search} />
      </div>
      <PagedList
        items={items}
        empty="Nothing recorded yet."
        summary={{ total, noun: ["entry", "entries"], search }}
        page={page}
        pages={pages}
        base="/admin/audit"
        query={{ q: search }}
        look="log"
      >
        {(e) => (
          <li className="p-3 text-sm text-stone-800" data-testid="audit-entry">
            <p className="font-semibold text-stone-900">{e.label}</p>
            <p className="break-words">{e.summary}</p>
            <p className="text-stone-700 wrap-anywhere">
              {e.actorEmail} · {formatDateTime(e.createdAt)} · from {e.ip ?? "unknown address"} · {e.targetType}
              {e.targetId ? ` ${e.targetId}` : ""}
            </p>
          </li>
        )}
      </PagedList>
    </AdminSection>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Audit log · Admin · Everlight" }];
