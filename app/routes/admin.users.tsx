import { parseForm } from "~/request/form.server";
import { z } from "~/utils/validation/zod";
import type { Route } from "./+types/admin.users";
import { AdminSection, Card, ConfirmAction, SearchForm, Tag } from "~/components/admin/admin-ui";
import { PagedList } from "~/components/admin/paged-list";
import { RecentlyDeleted } from "~/components/admin/recently-deleted";
import { deleteUserAsAdmin, listUsersForAdmin, setAdminRights, type AdminUserResult } from "~/models/admin.server";
import { listDeletedAccountsForAdmin, restoreAccount } from "~/models/memorials/deletion.server";
import { backWithToast, listQuery, requireAdminActor } from "~/request/admin.server";
import { countOf } from "~/utils/counts";
import { formatShortDate } from "~/utils/dates";
import { RECOVERY_DAYS } from "~/utils/deletion";
import { PLANS, type PlanId } from "~/utils/plans";
import { ADMIN_MESSAGES, recordIdSchema } from "~/utils/validation/admin";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Users tab: search, delete with the
// warning that all their memorials go too, grant or remove administrator rights with a confirmation.
// The last administrator keeps their rights; one's own go only with a tick box; one's own account is
// deleted from Account settings, not here (admin.server.ts).

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("delete"), userId: recordIdSchema }),
  z.object({ intent: z.literal("restore"), userId: recordIdSchema }),
  z.object({ intent: z.literal("grant"), userId: recordIdSchema }),
  z.object({ intent: z.literal("revoke"), userId: recordIdSchema, confirmOwn: z.literal("on").optional() }),
]);

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireAdminActor(request);
  const query = listQuery(request);
  const [list, deleted] = await Promise.all([listUsersForAdmin(query), listDeletedAccountsForAdmin()]);
  return {
    ...list,
    search: query.search,
    me: actor.id,
    deleted: deleted.map((u) => ({ id: u.id, title: u.name, detail: u.email, deletedAt: u.deletedAt, purgeAt: u.purgeAt, restorable: true })),
  };
}

const REFUSALS: Record<Exclude<AdminUserResult, { ok: true }>["reason"], string> = {
  "not-found": ADMIN_MESSAGES.userNotFound,
  "last-admin": ADMIN_MESSAGES.lastAdmin,
  "own-rights": ADMIN_MESSAGES.ownRights,
  "own-account": ADMIN_MESSAGES.ownAccount,
  payments: ADMIN_MESSAGES.paymentsNotStopped,
};

export async function action({ request }: Route.ActionArgs) {
  const actor = await requireAdminActor(request);
  const submission = parseForm(await request.formData(), { schema: actionSchema });
  if (submission.status !== "success")
    return backWithToast(request, { type: "error", title: "Nothing was changed", description: "The form was incomplete. Please try again." });
  const input = submission.value;
  if (input.intent === "restore") {
    if (!(await restoreAccount(input.userId, actor)))
      return backWithToast(request, { type: "error", title: "Not restored", description: ADMIN_MESSAGES.restoreFailed });
    return backWithToast(request, {
      type: "success",
      title: "Account restored",
      description: "The account and the memorials deleted with it are back. The member has been told by email.",
    });
  }
  if (input.intent === "delete") {
    const result = await deleteUserAsAdmin(actor, input.userId);
    if (!result.ok) return backWithToast(request, { type: "error", title: "Failed to delete user", description: REFUSALS[result.reason] });
    return backWithToast(request, {
      type: "success",
      title: "User deleted",
      description: `${result.user.name} (${result.user.email}) has been deleted, with their memorials that had no successor. They can be restored below for ${RECOVERY_DAYS} days.`,
    });
  }
  const result = await setAdminRights(actor, input.userId, input.intent === "grant", { confirmOwn: input.intent === "revoke" && input.confirmOwn === "on" });
  if (!result.ok) return backWithToast(request, { type: "error", title: "Failed to update user privileges", description: REFUSALS[result.reason] });
  // Removing one's own rights ends one's access to this page: go home instead.
  const own = result.user.id === actor.id && !result.user.isAdmin;
  return backWithToast(
    request,
    {
      type: "success",
      title: "User updated",
      description: result.user.isAdmin ? `${result.user.name} is now an administrator.` : `${result.user.name} is no longer an administrator.`,
    },
    own ? "/" : undefined,
  );
}

export default function AdminUsers({ loaderData }: Route.ComponentProps) {
  const { items, total, page, pages, search, me, deleted } = loaderData;
  return (
    <AdminSection id="users-heading" title="Users">
      <div className="mt-4">
        <SearchForm label="Search users by name or email" search={search} />
      </div>
      <PagedList
        items={items}
        empty="No users found."
        summary={{ total, noun: ["user", "users"], search }}
        page={page}
        pages={pages}
        base="/admin/users"
        query={{ q: search }}
      >
        {(u) => (
          <Card label={`${u.name}, ${u.email}`}>
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-48 flex-1">
                <h3 className="font-semibold text-stone-900 wrap-anywhere">
                  {u.name} {u.isAdmin ? <Tag tone="info">Admin</Tag> : null} {u.id === me ? <Tag>You</Tag> : null}
                </h3>
                <p className="text-sm text-stone-700 wrap-anywhere">{u.email}</p>
                <p className="text-sm text-stone-700">
                  {countOf(u.memorials, "memorial")} · plan: {planName(u.subscriptionPlan)} · joined {formatShortDate(u.createdAt)}
                </p>
              </div>
              <div className="flex flex-wrap items-start gap-2">
                {u.isAdmin ? (
                  <ConfirmAction
                    key="revoke"
                    summary="Remove admin rights…"
                    warning={
                      <p>
                        {u.id === me ? ADMIN_MESSAGES.revokeOwnWarning : `Remove ${u.name}'s administrator rights? They will no longer see this dashboard.`}
                      </p>
                    }
                    confirm="Yes, remove admin rights"
                    intent="revoke"
                    fields={{ userId: u.id }}
                    danger={false}
                  >
                    {u.id === me ? (
                      <div className="flex items-start gap-2">
                        <input id={`confirm-own-${u.id}`} type="checkbox" name="confirmOwn" required className="mt-1 h-4 w-4" />
                        <label htmlFor={`confirm-own-${u.id}`} className="text-sm text-stone-800">
                          These are my own rights: I understand I will lose access to the admin dashboard.
                        </label>
                      </div>
                    ) : null}
                  </ConfirmAction>
                ) : (
                  <ConfirmAction
                    key="grant"
                    summary="Make admin…"
                    warning={<p>{`Make ${u.name} an administrator? They will be able to delete memorials, users and products, and see every order.`}</p>}
                    confirm="Yes, make administrator"
                    intent="grant"
                    fields={{ userId: u.id }}
                    danger={false}
                  />
                )}
                {u.id === me ? null : (
                  <ConfirmAction
                    summary="Delete…"
                    warning={<p>{`Delete ${u.name} (${u.email})? ${ADMIN_MESSAGES.deleteUserWarning}`}</p>}
                    confirm="Yes, delete this user"
                    intent="delete"
                    fields={{ userId: u.id }}
                  />
                )}
              </div>
            </div>
          </Card>
        )}
      </PagedList>
      <RecentlyDeleted heading="Recently deleted accounts" field="userId" entries={deleted} />
    </AdminSection>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Users · Admin · Everlight" }];

/** A plan by the name members see ("Forever Plus"), not its id. */
function planName(plan: string): string {
  return PLANS[plan as PlanId]?.name ?? plan;
}
