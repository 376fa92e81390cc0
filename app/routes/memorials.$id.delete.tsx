import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/memorials.$id.delete";
import { FormAlert } from "~/components/forms";
import { deleteMemorial } from "~/models/memorials/deletion.server";
import { actorOf, requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { findDeletableMemorial } from "~/models/memorials/access.server";
import { safeRedirect } from "~/utils/validation/account";
import { MEMORIAL_MESSAGES } from "~/utils/validation/memorial";

// Deleting a memorial asks for confirmation first, as a page of its own so it
// works without JavaScript. Only the owner or an administrator may see or use it; to anyone else it
// does not exist (404), which also does not tell a stranger that the memorial is there.

async function requireDeletable(request: Request, id: string) {
  const user = await requireUser(request);
  const memorial = await findDeletableMemorial(id, user);
  if (!memorial) throw data(null, { status: 404 });
  return { user, memorial };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { memorial } = await requireDeletable(request, params.id);
  return { id: memorial.id, name: `${memorial.firstName} ${memorial.lastName}`, cancelTo: cancelPath(request, memorial.id) };
}

/**
 * Cancel goes back where the member came from: a `?returnTo=` path, else the page that linked
 * here (the Referer, this site only), else the memorial. Never off-site, and never this page itself (a
 * refused post reloads it).
 */
function cancelPath(request: Request, id: string) {
  const url = new URL(request.url);
  let from = url.searchParams.get("returnTo");
  if (!from) {
    const referer = URL.parse(request.headers.get("Referer") ?? "");
    if (referer && referer.host === url.host) from = `${referer.pathname}${referer.search}`;
  }
  const path = safeRedirect(from, "");
  return path && !path.startsWith(`/memorials/${id}/delete`) ? path : `/memorials/${id}`;
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user, memorial } = await requireDeletable(request, params.id);
  let deleted: boolean;
  try {
    // Hidden at once and kept 30 days (deleteMemorial records an administrator's deletion in the audit log).
    deleted = await deleteMemorial(memorial.id, actorOf(user, request));
  } catch (error) {
    console.error("Deleting a memorial failed:", error);
    return data({ failed: MEMORIAL_MESSAGES.deleteFailed }, { status: 500 });
  }
  // Deleted meanwhile (a second click): nothing left to delete.
  if (!deleted) throw data(null, { status: 404 });
  // Back to the list the memorial was in, which then shows the change.
  const own = user.id === memorial.userId;
  return redirectWithToast(own ? "/my-memorials#recently-deleted" : "/admin", {
    type: "success",
    title: "Memorial deleted",
    description: `The memorial has been successfully deleted. ${own ? "You can restore it from Recently deleted" : "It can be restored from the dashboard"} for 30 days.`,
  });
}

export default function DeleteMemorial({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const deleting = navigation.state === "submitting";
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-2xl font-bold text-stone-900">Delete memorial</h1>
      <p className="mt-2 text-lg font-medium text-stone-900 wrap-anywhere">{loaderData.name}</p>
      {actionData?.failed ? (
        <div className="mt-4">
          <FormAlert title="Error">{actionData.failed}</FormAlert>
        </div>
      ) : null}
      <p className="mt-4 text-stone-700">{MEMORIAL_MESSAGES.deleteConfirm}</p>
      <p className="mt-2 text-stone-700">Its photos, videos and tributes go with it, and come back with it if you restore it.</p>
      <Form method="post" className="mt-6 flex flex-wrap gap-3">
        <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800" disabled={deleting}>
          {deleting ? "Deleting..." : "Delete"}
        </button>
        <Link to={loaderData.cancelTo} className="btn-secondary">
          Cancel
        </Link>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Delete memorial · Everlight" }, { name: "robots", content: "noindex" }];
