import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/memorials.$id.media.$mediaId.delete";
import { MEDIA_GALLERY_HEADING, VideoIcon } from "~/components/memorial/memorial-form";
import { deleteMediaItem, imageSources } from "~/models/memorials/media.server";
import { findEditableMemorial } from "~/models/memorials/access.server";
import { requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";

// Deleting one photo or video of a memorial ("Media deleted", or "Failed to delete media."). This page
// is the confirmation without JavaScript; with JavaScript the edit
// screen's dialog posts the same form here. Only the memorial's owner may use it (others: 404).

const MEDIA_DELETE_FAILED = "Failed to delete media.";

async function requireOwnMedia(request: Request, memorialId: string, mediaId: string) {
  const user = await requireUser(request);
  const memorial = await findEditableMemorial(memorialId, user.id);
  if (!memorial) throw data(null, { status: 404 });
  return { user, memorial, item: memorial.media.find((m) => m.id === mediaId) ?? null };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { memorial, item } = await requireOwnMedia(request, params.id, params.mediaId);
  if (!item) throw data(null, { status: 404 });
  const isVideo = item.mediaType.startsWith("video/");
  const sources: { src: string; srcSet?: string } = isVideo ? { src: item.mediaUrl } : imageSources(item.mediaUrl);
  return {
    memorialId: memorial.id,
    name: `${memorial.firstName} ${memorial.lastName}`,
    item: { kind: isVideo ? ("video" as const) : ("image" as const), caption: item.caption, src: sources.src, srcSet: sources.srcSet },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user, memorial, item } = await requireOwnMedia(request, params.id, params.mediaId);
  // Back to the gallery the photo was in, not the top of the edit page ("Media deleted" is
  // seen where the owner was looking, the toast floating over it).
  const back = `/memorials/${memorial.id}/edit#${MEDIA_GALLERY_HEADING}`;
  let deleted = false;
  try {
    // Gone already (a second click) counts as a failure: the visitor is told, and sees the gallery.
    deleted = !!item && (await deleteMediaItem(item.id, user));
  } catch (error) {
    console.error("Deleting a media item failed:", error);
  }
  const toast = deleted ? { type: "success" as const, title: "Media deleted" } : { type: "error" as const, title: "Error", description: MEDIA_DELETE_FAILED };
  return redirectWithToast(back, toast);
}

export default function DeleteMedia({ loaderData }: Route.ComponentProps) {
  const { memorialId, name, item } = loaderData;
  const navigation = useNavigation();
  const noun = item.kind === "video" ? "video" : "photo";
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-2xl font-bold text-stone-900">Delete this {noun}?</h1>
      <p className="mt-2 text-stone-700 wrap-anywhere">From the memorial of {name}. This cannot be undone.</p>
      <div className="mt-6 max-w-xs">
        {item.kind === "image" ? (
          <img
            src={item.src}
            srcSet={item.srcSet}
            sizes="320px"
            alt={item.caption || `The ${noun} to delete`}
            width={320}
            height={240}
            className="aspect-[4/3] h-auto w-full rounded-lg object-cover"
          />
        ) : (
          <div className="flex aspect-[4/3] w-full flex-col items-center justify-center gap-2 rounded-lg bg-stone-100 text-stone-700">
            <VideoIcon className="h-10 w-10" />
            <span className="text-sm">{item.caption || "Video"}</span>
          </div>
        )}
      </div>
      <Form method="post" className="mt-6 flex flex-wrap gap-3">
        <button type="submit" className="btn bg-red-700 text-white hover:bg-red-800" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Deleting..." : "Delete"}
        </button>
        <Link to={`/memorials/${memorialId}/edit#${MEDIA_GALLERY_HEADING}`} className="btn-secondary">
          Cancel
        </Link>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Delete media · Everlight" }, { name: "robots", content: "noindex" }];
