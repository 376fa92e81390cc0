import { useState } from "react";
import { data, Link } from "react-router";
import type { Route } from "./+types/memorials.$id.edit";
import { MemorialNotFound } from "~/components/memorial/lock-panel";
import { ShopOffersSwitch } from "~/components/memorial/shop-offers";
import { DeleteMediaDialog, MediaGalleryEditor, MemorialForm, type DeleteTarget } from "~/components/memorial/memorial-form";
import { imageSources } from "~/models/memorials/media.server";
import { canChangeVisibility, canDeleteOrExport, canManagePeople } from "~/models/memorials/access-rules";
import { findEditableMemorial, memorialExists, roleOnMemorial } from "~/models/memorials/access.server";
import { requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { submitMemorialForm, uploadRules } from "~/routes/memorial-form.server";
import { toIsoDate } from "~/utils/dates";
import { RECOVERY_DAYS } from "~/utils/deletion";
import { MEDIA_LIMITS, type RequestBodyHandle } from "~/utils/upload-limits";
import { MEMORIAL_MESSAGES } from "~/utils/validation/memorial";
import type { Visibility } from "~/utils/validation/account-rules";
import type { KeptPageHandle } from "~/utils/kept-pages";

// Edit Memorial: the create form prefilled, plus the Media Gallery (delete
// one item, with a confirmation) and a danger zone linking to the memorial's delete confirmation.
// The owner and co-managers edit: an editor the content only (no visibility or
// publishing), a manager also who may see it and who helps manage it; only the owner sees the danger
// zone. Anyone else is sent to /memorials with "Access denied".

// One post carries the photos and videos: the server lets this route read that much, once the owner is known.
export const handle: RequestBodyHandle & KeptPageHandle = { body: { maxBytes: MEDIA_LIMITS.requestBytes }, kept: { members: "any" } };

/** The owner's memorial, a 404 when there is none, or a redirect for anyone else. */
async function requireOwnMemorial(request: Request, id: string) {
  const user = await requireUser(request);
  const memorial = await findEditableMemorial(id, user.id);
  if (memorial) return { user, memorial };
  if (!(await memorialExists(id))) return { user, memorial: null };
  throw await redirectWithToast("/memorials", { type: "error", title: "Access denied", description: MEMORIAL_MESSAGES.notAuthorized });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { user, memorial } = await requireOwnMemorial(request, params.id);
  if (!memorial) return data({ status: "not-found" as const }, { status: 404 });
  const name = `${memorial.firstName} ${memorial.lastName}`;
  const role = roleOnMemorial(memorial, user);
  let photos = 0;
  let videos = 0;
  return {
    status: "ok" as const,
    rules: uploadRules(),
    can: { visibility: canChangeVisibility(role), people: canManagePeople(role), delete: canDeleteOrExport(role) },
    memorial: {
      id: memorial.id,
      name,
      isPublished: memorial.isPublished,
      shopOffers: memorial.shopOffers,
      portrait: memorial.profileImageUrl ? imageSources(memorial.profileImageUrl) : null,
      media: memorial.media.map((m) => {
        const kind = m.mediaType.startsWith("video/") ? ("video" as const) : ("image" as const);
        const label = kind === "video" ? `Video ${++videos}` : `Photo ${++photos}`;
        return { id: m.id, kind, label, caption: m.caption, ...(kind === "image" ? imageSources(m.mediaUrl) : { src: m.mediaUrl }) };
      }),
      values: {
        firstName: memorial.firstName,
        lastName: memorial.lastName,
        // A title that is just the names was filled in for the owner: shown empty, so that it
        // follows a corrected name instead of keeping the old one.
        title: memorial.title === name ? "" : memorial.title,
        dateOfBirth: toIsoDate(memorial.dateOfBirth),
        dateOfPassing: toIsoDate(memorial.dateOfPassing),
        biography: memorial.biography ?? "",
        visibility: memorial.visibility as Visibility,
        category: memorial.category as "individual" | "organization",
      },
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const { user, memorial } = await requireOwnMemorial(request, params.id);
  if (!memorial) throw data(null, { status: 404 });
  return submitMemorialForm(request, user, memorial);
}

export default function EditMemorial({ loaderData, actionData }: Route.ComponentProps) {
  const [deleteTarget, setDeleteTarget] = useState<DeleteTarget | null>(null);
  if (loaderData.status === "not-found") return <MemorialNotFound />;
  const { memorial, rules, can } = loaderData;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-3xl font-bold text-stone-900">Edit Memorial</h1>
        <Link to={`/memorials/${memorial.id}`} className="link text-sm">
          View memorial
        </Link>
      </div>
      <p className="mt-2 text-stone-700 wrap-anywhere">
        {memorial.name} · {memorial.isPublished ? "Published" : "Draft"}
      </p>
      {/* On a phone the links wrap: the row gap keeps each one a separate target (WCAG 2.5.8). */}
      <p className="mt-2 flex flex-wrap gap-x-4 gap-y-2">
        <Link to={`/memorials/${memorial.id}/managers`} className="link text-sm">
          {can.people ? "People who manage this memorial" : "Who manages this memorial"}
        </Link>
        <Link to={`/memorials/${memorial.id}/timeline`} className="link text-sm">
          Life timeline
        </Link>
        <Link to={`/memorials/${memorial.id}/events`} className="link text-sm">
          Events
        </Link>
        <Link to={`/memorials/${memorial.id}/qr`} className="link text-sm">
          QR code and permanent link
        </Link>
      </p>
      <div className="mt-8">
        <MemorialForm
          mode="edit"
          rules={rules}
          failure={actionData}
          defaultValue={memorial.values}
          portrait={memorial.portrait}
          existingMediaCount={memorial.media.length}
          published={memorial.isPublished}
          contentOnly={!can.visibility}
          mediaGallery={<MediaGalleryEditor memorialId={memorial.id} items={memorial.media} onDelete={setDeleteTarget} />}
        />
      </div>
      <DeleteMediaDialog memorialId={memorial.id} target={deleteTarget} onClose={() => setDeleteTarget(null)} />
      {can.visibility ? <ShopOffersSwitch memorialId={memorial.id} on={memorial.shopOffers} /> : null}

      {can.delete ? (
        <section aria-labelledby="danger-heading" className="mt-12 rounded-lg border border-red-300 p-6">
          <h2 id="danger-heading" className="text-xl font-semibold text-red-900">
            Danger zone
          </h2>
          <p className="mt-2 text-stone-700">
            Deleting takes the memorial off the site at once, with its photos, videos and tributes. For {RECOVERY_DAYS} days you can restore it from My
            Memorials, as it was; after that it is removed for good.
          </p>
          <Link to={`/memorials/${memorial.id}/delete`} className="btn mt-4 bg-red-700 text-white hover:bg-red-800">
            Delete memorial
          </Link>
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: d?.status === "ok" ? `Edit ${d.memorial.name} · Everlight` : "Memorial Not Found · Everlight" },
  { name: "robots", content: "noindex" },
];
