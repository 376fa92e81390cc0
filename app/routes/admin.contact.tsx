import { Form, Link, useNavigation } from "react-router";
import { parseForm } from "~/request/form.server";
import { z } from "~/utils/validation/zod";
import type { Route } from "./+types/admin.contact";
import { AdminSection, Card, formatDateTime, SearchForm, Tag } from "~/components/admin/admin-ui";
import { PagedList } from "~/components/admin/paged-list";
import { listContactMessages, setContactStatus } from "~/models/admin.server";
import { backWithToast, listQuery, requireAdminActor } from "~/request/admin.server";
import { CONTACT_STATUSES, contactStatusSchema, recordIdSchema } from "~/utils/validation/admin";
import { CONTACT_TYPE_LABELS, type ContactType } from "~/utils/validation/contact";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Contact tab: messages newest
// first, filtered by status and searched; an administrator sets any of new, read, replied, resolved.

const actionSchema = z.object({ intent: z.literal("status"), messageId: recordIdSchema, status: contactStatusSchema });

const LABELS: Record<string, string> = { new: "New", read: "Read", replied: "Replied", resolved: "Resolved" };

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminActor(request);
  const query = listQuery(request);
  const status = query.status && (CONTACT_STATUSES as readonly string[]).includes(query.status) ? query.status : null;
  const list = await listContactMessages({ ...query, status });
  return { ...list, items: list.items.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })), search: query.search, status };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await requireAdminActor(request);
  const submission = parseForm(await request.formData(), { schema: actionSchema });
  if (submission.status !== "success")
    return backWithToast(request, { type: "error", title: "Error", description: "Failed to update status. Please try again." });
  const updated = await setContactStatus(actor, submission.value.messageId, submission.value.status);
  if (!updated) return backWithToast(request, { type: "error", title: "Error", description: "Failed to update status. Please try again." });
  return backWithToast(request, {
    type: "success",
    title: "Status updated",
    description: `“${updated.subject}” is now ${LABELS[updated.status] ?? updated.status}.`,
  });
}

export default function AdminContact({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pages, search, status } = loaderData;
  const navigation = useNavigation();
  const busyId = navigation.state === "submitting" ? navigation.formData?.get("messageId") : null;
  return (
    <AdminSection id="contact-heading" title="Contact messages">
      <div className="mt-4">
        <SearchForm label="Search messages by sender, email or subject" search={search} hidden={{ status }} />
      </div>
      <nav aria-label="Message status" className="mt-3 flex flex-wrap gap-2 text-sm">
        <Link
          to={search ? `?q=${encodeURIComponent(search)}` : "/admin/contact"}
          className={status ? "link" : "font-semibold text-stone-900"}
          aria-current={status ? undefined : "page"}
        >
          All
        </Link>
        {CONTACT_STATUSES.map((s) => (
          <Link
            key={s}
            to={`?${new URLSearchParams({ ...(search ? { q: search } : {}), status: s })}`}
            className={status === s ? "font-semibold text-stone-900" : "link"}
            aria-current={status === s ? "page" : undefined}
          >
            {LABELS[s]}
          </Link>
        ))}
      </nav>
      <PagedList
        items={items}
        empty="No messages found."
        summary={{ total, noun: ["message", "messages"], search }}
        page={page}
        pages={pages}
        base="/admin/contact"
        query={{ q: search, status }}
      >
        {(m) => (
          <Card label={m.subject}>
            <h3 className="flex flex-wrap items-center gap-2 font-semibold text-stone-900 wrap-anywhere">
              <span className="min-w-0 wrap-anywhere">{m.subject}</span>{" "}
              <Tag tone={m.status === "new" ? "warning" : m.status === "resolved" ? "success" : "info"}>{LABELS[m.status] ?? m.status}</Tag>
            </h3>
            <p className="text-sm text-stone-700 wrap-anywhere">
              {m.name} ·{" "}
              <a href={`mailto:${m.email}`} className="link">
                {m.email}
              </a>{" "}
              · {CONTACT_TYPE_LABELS[m.type as ContactType] ?? m.type} · {formatDateTime(m.createdAt)}
            </p>
            <p className="mt-2 whitespace-pre-line text-stone-800 wrap-anywhere">{m.message}</p>
            <Form method="post" className="mt-3 flex flex-wrap items-end gap-2">
              <input type="hidden" name="intent" value="status" />
              <input type="hidden" name="messageId" value={m.id} />
              <div>
                <label htmlFor={`status-${m.id}`} className="block text-sm font-medium text-stone-800">
                  Status
                </label>
                <select
                  id={`status-${m.id}`}
                  name="status"
                  defaultValue={m.status}
                  className="mt-1 block rounded-md border border-stone-400 bg-white px-3 py-2 text-stone-900"
                >
                  {CONTACT_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {LABELS[s]}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="btn-secondary" disabled={busyId === m.id}>
                Update status<span className="sr-only"> of “{m.subject}”</span>
              </button>
            </Form>
          </Card>
        )}
      </PagedList>
    </AdminSection>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Contact · Admin · Everlight" }];
