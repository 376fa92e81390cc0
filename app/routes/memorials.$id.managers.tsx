import { parseForm } from "~/request/form.server";
import { data, Form, Link } from "react-router";
import { MemorialSubpageLinks } from "~/components/memorial/memorial-subpage-links";
import type { Route } from "./+types/memorials.$id.managers";
import { ErrorList, Field } from "~/components/forms";
import { listMemorialAudit } from "~/models/audit.server";
import { canDeleteOrExport, canManagePeople, isCoManagerRole } from "~/models/memorials/access-rules";
import { followerSummary } from "~/models/community/follows.server";
import { changeCoManagerRole, inviteCoManager, listMemorialPeople, removeCoManager, revokeInvitation } from "~/models/memorials/managers.server";
import { memorialRole } from "~/models/memorials/access.server";
import { clearSuccessor, handOverPeriodOf, nameSuccessor } from "~/models/memorials/succession.server";
import { actorOf, requireUser } from "~/request/auth.server";
import { rateLimitedInit } from "~/request/rate-limited.server";
import { redirectWithToast } from "~/request/toast.server";
import { CO_MANAGER_MESSAGES, CO_MANAGER_ROLE_HINTS, CO_MANAGER_ROLE_LABELS, INVITATION_VALID_DAYS, inviteSchema } from "~/utils/co-managers";
import { formatLongDate } from "~/utils/dates";
import { HAND_OVER_PERIOD_LABELS, isHandOverPeriod, SUCCESSION_MESSAGES } from "~/utils/succession";
import { z } from "~/utils/validation/zod";
import type { KeptPageHandle } from "~/utils/kept-pages";

// "People who manage this memorial": the owner, the managers and editors, and
// the invitations waiting for an answer. The owner and managers invite (email and role), change roles,
// remove people and revoke invitations, with plain forms; an editor sees the list and may leave. The owner
// alone names the successor (one of the co-managers, or someone invited to be it). The memorial's
// co-manager history (the audit entries) is listed below. Anyone else: 404.

// A ticked box posts "on" and an unticked one posts nothing; any other value counts as not ticked
// rather than refusing the invitation.
const inviteFormSchema = inviteSchema.extend({ successor: z.boolean().catch(false) });

async function requireManagerView(request: Request, id: string) {
  const user = await requireUser(request);
  const role = await memorialRole(id, user);
  if (role === "none") throw data(null, { status: 404 });
  return { user, role };
}

export const handle: KeptPageHandle = { kept: { members: "any" } };

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user, role } = await requireManagerView(request, params.id);
  const people = await listMemorialPeople(params.id);
  if (!people) throw data(null, { status: 404 });
  const manages = canManagePeople(role);
  const owns = canDeleteOrExport(role);
  const period = owns ? await handOverPeriodOf(user.id) : 0;
  return {
    owns,
    handOverAfter: owns && isHandOverPeriod(period) ? HAND_OVER_PERIOD_LABELS[period] : null,
    memorialId: params.id,
    me: user.id,
    role,
    manages,
    owner: people.owner,
    coManagers: people.coManagers.map((m) => ({ ...m, since: formatLongDate(m.since) })),
    pending: manages ? people.pending.map((p) => ({ ...p, expiresOn: formatLongDate(p.expiresAt) })) : [],
    history: manages ? await listMemorialAudit(params.id) : [],
    // How many follow; names only of members who agreed to show theirs.
    followers: await followerSummary(params.id),
  };
}

type InviteFailure = { values: { email: string; role: string; successor: boolean }; errors: { email?: string[]; role?: string[] } };

export async function action({ request, params }: Route.ActionArgs) {
  const { user } = await requireManagerView(request, params.id);
  const actor = actorOf(user, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const here = `/memorials/${params.id}/managers`;
  if (intent === "invite") {
    const values = { email: String(form.get("email") ?? ""), role: String(form.get("role") ?? ""), successor: form.get("successor") === "on" };
    const submission = parseForm(form, { schema: inviteFormSchema });
    if (submission.status !== "success") {
      // The form shows messages under two fields: the role's under the role, any other under the email.
      const errors: InviteFailure["errors"] = {};
      for (const [name, messages] of Object.entries(submission.error ?? {})) {
        const key = name === "role" ? "role" : "email";
        if (messages) errors[key] = [...(errors[key] ?? []), ...messages];
      }
      return data({ invite: { values, errors } satisfies InviteFailure }, { status: 400 });
    }
    const invitation = submission.value;
    const result = await inviteCoManager(params.id, actor, invitation);
    if (!result.ok && result.reason === "forbidden") throw data(null, { status: 403 });
    if (!result.ok && result.reason === "rate-limited") {
      const errors: InviteFailure["errors"] = { email: [result.message] };
      return data({ invite: { values, errors } satisfies InviteFailure }, rateLimitedInit(result));
    }
    if (!result.ok) return data({ invite: { values, errors: result.errors } satisfies InviteFailure }, { status: 400 });
    return redirectWithToast(here, { type: "success", title: CO_MANAGER_MESSAGES.invited, description: `We emailed ${invitation.email}.` });
  }
  const target = String(form.get("target") ?? "");
  let result;
  let title: string;
  if (intent === "revoke") {
    result = await revokeInvitation(params.id, target, actor);
    title = CO_MANAGER_MESSAGES.revoked;
  } else if (intent === "remove") {
    result = await removeCoManager(params.id, target, actor);
    title = CO_MANAGER_MESSAGES.removed;
  } else if (intent === "successor") {
    result = await nameSuccessor(params.id, target, actor);
    title = SUCCESSION_MESSAGES.named;
  } else if (intent === "no-successor") {
    result = await clearSuccessor(params.id, actor);
    title = SUCCESSION_MESSAGES.cleared;
  } else if (intent === "role") {
    const role = form.get("role");
    if (!isCoManagerRole(role)) throw data(null, { status: 400 });
    result = await changeCoManagerRole(params.id, target, role, actor);
    title = CO_MANAGER_MESSAGES.roleChanged;
  } else {
    throw data(null, { status: 400 });
  }
  if (!result.ok) throw data(null, { status: result.reason === "forbidden" ? 403 : 404 });
  // Someone who removed themselves no longer sees this page.
  const left = intent === "remove" && target === user.id;
  return redirectWithToast(left ? "/my-memorials" : here, { type: "success", title });
}

export default function MemorialManagers({ loaderData, actionData }: Route.ComponentProps) {
  const { memorialId, me, manages, owns, handOverAfter, owner, coManagers, pending, history, followers } = loaderData;
  const successor = coManagers.find((m) => m.isSuccessor);
  const failure = actionData?.invite;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold text-stone-900">People who manage this memorial</h1>
      <MemorialSubpageLinks memorialId={memorialId} />

      <section aria-labelledby="followers-heading" className="mt-6 rounded-lg border border-stone-200 p-4">
        <h2 id="followers-heading" className="font-semibold text-stone-900">
          Followers
        </h2>
        <p className="mt-1 text-stone-800" data-testid="follower-count">
          {followers.count === 0
            ? "Nobody follows this memorial yet."
            : `${followers.count} ${followers.count === 1 ? "person follows" : "people follow"} this memorial and ${followers.count === 1 ? "hears" : "hear"} of new tributes and photos.`}
        </p>
        {followers.names.length ? (
          <p className="mt-1 text-sm text-stone-700 wrap-anywhere">Among them, who agreed to show their name: {followers.names.join(", ")}.</p>
        ) : followers.count ? (
          <p className="mt-1 text-sm text-stone-700">Followers are not named unless they agree to it.</p>
        ) : null}
      </section>

      <ul className="mt-6 divide-y divide-stone-200 rounded-lg border border-stone-200">
        <li className="p-4">
          <p className="font-medium text-stone-900 wrap-anywhere">{owner.name}</p>
          <p className="text-sm text-stone-700 wrap-anywhere">
            {owner.email} · {CO_MANAGER_ROLE_LABELS.owner}
          </p>
        </li>
        {coManagers.map((m) => (
          <li key={m.userId} className="space-y-2 p-4">
            <p className="font-medium text-stone-900 wrap-anywhere">
              {m.name}
              {m.userId === me ? " (you)" : ""}
            </p>
            <p className="text-sm text-stone-700 wrap-anywhere">
              {m.email} · {CO_MANAGER_ROLE_LABELS[m.role]} since {m.since}
              {m.isSuccessor ? <strong className="font-semibold text-heather-800"> · Successor</strong> : null}
            </p>
            <div className="flex flex-wrap gap-2">
              {owns ? (
                <Form method="post">
                  <input type="hidden" name="intent" value={m.isSuccessor ? "no-successor" : "successor"} />
                  <input type="hidden" name="target" value={m.userId} />
                  <button type="submit" className="btn-secondary text-sm">
                    {m.isSuccessor ? "No longer successor" : "Make successor"}
                    <span className="sr-only"> ({m.name})</span>
                  </button>
                </Form>
              ) : null}
              {manages ? (
                <Form method="post" className="flex flex-wrap items-center gap-2">
                  <input type="hidden" name="intent" value="role" />
                  <input type="hidden" name="target" value={m.userId} />
                  <input type="hidden" name="role" value={m.role === "manager" ? "editor" : "manager"} />
                  <button type="submit" className="btn-secondary text-sm">
                    Make {m.role === "manager" ? "editor" : "manager"}
                    <span className="sr-only"> ({m.name})</span>
                  </button>
                </Form>
              ) : null}
              {manages || m.userId === me ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="target" value={m.userId} />
                  <button type="submit" className="btn-secondary text-sm text-red-800">
                    {m.userId === me ? "Leave this memorial" : "Remove"}
                    {m.userId === me ? null : <span className="sr-only"> {m.name}</span>}
                  </button>
                </Form>
              ) : null}
            </div>
          </li>
        ))}
        {pending.map((p) => (
          <li key={p.id} className="space-y-2 p-4">
            <p className="font-medium text-stone-900 wrap-anywhere">{p.email}</p>
            <p className="text-sm text-stone-700">
              Invited as {CO_MANAGER_ROLE_LABELS[p.role].toLowerCase()}
              {p.asSuccessor ? " and successor" : ""} · waiting for an answer until {p.expiresOn}
            </p>
            <Form method="post">
              <input type="hidden" name="intent" value="revoke" />
              <input type="hidden" name="target" value={p.id} />
              <button type="submit" className="btn-secondary text-sm text-red-800">
                Revoke invitation<span className="sr-only"> of {p.email}</span>
              </button>
            </Form>
          </li>
        ))}
      </ul>

      {owns ? (
        <section aria-labelledby="successor-heading" className="mt-10">
          <h2 id="successor-heading" className="text-xl font-semibold text-stone-900">
            Successor
          </h2>
          <p className="mt-1 text-stone-700">
            {successor
              ? `${successor.name} is the successor: when you delete your account, or are away for the time you chose, this memorial passes to them instead of going with your account.`
              : "Nobody is the successor yet. Choose someone above (Make successor), or invite someone to be it below. Without a successor, you choose what happens to this memorial when you delete your account."}
          </p>
          <p className="mt-2 text-sm text-stone-700">
            If you are away: {handOverAfter ?? "never"}.{" "}
            <Link to="/account/manage" className="link">
              Change this in your account settings
            </Link>
          </p>
        </section>
      ) : null}

      {manages ? (
        <section aria-labelledby="invite-heading" className="mt-10">
          <h2 id="invite-heading" className="text-xl font-semibold text-stone-900">
            Invite someone
          </h2>
          <p className="mt-1 text-sm text-stone-700">
            We email them a link that works once, for {INVITATION_VALID_DAYS} days. They sign in (or create an account) to accept.
          </p>
          {/* Keyed by the waiting invitations: a sent invitation clears the form (with JavaScript too). */}
          <Form key={pending.length} method="post" noValidate className="mt-4 space-y-4">
            <input type="hidden" name="intent" value="invite" />
            <Field
              label="Email address"
              errors={failure?.errors.email}
              inputProps={{ name: "email", type: "email", autoComplete: "off", required: true, defaultValue: failure?.values.email ?? "" }}
            />
            <fieldset aria-describedby={failure?.errors.role?.length ? "invite-role-error" : undefined}>
              <legend className="text-sm font-medium text-stone-800">Role</legend>
              <div className="mt-2 space-y-2">
                {(["editor", "manager"] as const).map((value) => (
                  <div key={value} className="flex items-start gap-3">
                    <input
                      type="radio"
                      id={`invite-role-${value}`}
                      name="role"
                      value={value}
                      defaultChecked={(failure?.values.role ?? "editor") === value}
                      aria-describedby={`invite-role-${value}-hint`}
                      className="mt-1 h-4 w-4 accent-heather-700"
                    />
                    <div>
                      <label htmlFor={`invite-role-${value}`} className="text-sm font-medium text-stone-900">
                        {CO_MANAGER_ROLE_LABELS[value]}
                      </label>
                      <p id={`invite-role-${value}-hint`} className="text-sm text-stone-700">
                        {CO_MANAGER_ROLE_HINTS[value]}
                      </p>
                    </div>
                  </div>
                ))}
              </div>
              <ErrorList id="invite-role-error" errors={failure?.errors.role} />
            </fieldset>
            {owns ? (
              <div className="flex items-start gap-3">
                <input
                  type="checkbox"
                  id="invite-successor"
                  name="successor"
                  defaultChecked={failure?.values.successor ?? false}
                  aria-describedby="invite-successor-hint"
                  className="mt-1 h-4 w-4 accent-heather-700"
                />
                <div>
                  <label htmlFor="invite-successor" className="text-sm font-medium text-stone-900">
                    Also make them the successor
                  </label>
                  <p id="invite-successor-hint" className="text-sm text-stone-700">
                    When they accept, the memorial will pass to them when you go{successor ? `, instead of to ${successor.name}` : ""}.
                  </p>
                </div>
              </div>
            ) : null}
            <button type="submit" className="btn-primary">
              Send invitation
            </button>
          </Form>
        </section>
      ) : null}

      {history.length ? (
        <section aria-labelledby="history-heading" className="mt-10">
          <h2 id="history-heading" className="text-xl font-semibold text-stone-900">
            History
          </h2>
          <ul className="mt-3 space-y-2 text-sm text-stone-700">
            {history.map((h) => (
              <li key={h.id} className="wrap-anywhere">
                <time dateTime={h.createdAt}>{formatLongDate(h.createdAt)}</time> · {h.actorEmail}: {h.label}. {h.summary}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "People who manage this memorial · Everlight" }, { name: "robots", content: "noindex" }];
