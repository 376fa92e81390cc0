import { Form, Link } from "react-router";
import { MemorialPortrait } from "~/components/memorial-portrait";
import type { GalleryCard } from "~/models/memorials/gallery.server";
import { formatShortDate } from "~/utils/dates";
import { EXPORT_MESSAGES } from "~/utils/memorial-export";
import { VISIBILITY_LABELS } from "~/utils/validation/account-rules";
import { MemorialCounts } from "~/components/memorial/memorial-counts";

// The memorial card of My Memorials and the browse page: the
// picture (profile image, else the first photo, else the placeholder — also when it fails to load),
// visibility badge, name, dates when both exist, created date, biography clamped to two lines, tribute
// and view counts, a Draft badge when unpublished; the owner's actions or a single View Memorial.

type Dates = "dateOfBirth" | "dateOfPassing" | "createdAt";

/**
 * What a card shows: the model's gallery card (GalleryCard: its dates arrive as strings once the loader's
 * data is serialised), with the state an owner's own card is badged with.
 */
export type CardMemorial = Omit<GalleryCard, Dates | "title" | "category" | "firstImageUrl"> & { [K in Dates]: Date | string | null } & {
  firstImageUrl?: string | null;
  visibility: string;
  isPublished: boolean;
};

function visibilityLabel(visibility: string) {
  return VISIBILITY_LABELS[visibility as keyof typeof VISIBILITY_LABELS] ?? visibility;
}

/** The one badge a memorial's state gets where only one is shown: Draft, else its visibility. */
export function statusBadge(memorial: { isPublished: boolean; visibility: string }) {
  return memorial.isPublished ? visibilityLabel(memorial.visibility) : "Draft";
}

/** The best small picture for a card: a resized photo where we have one. */
export function cardImage(url: string | null | undefined) {
  if (!url) return null;
  return url.startsWith("/media/memorials/") && /\/original\.\w+$/.test(url) ? url.replace(/\/original\.\w+$/, "/w480.webp") : url;
}

export function MemorialCard({
  memorial,
  actions,
  headingLevel = 3,
  priority = false,
}: {
  memorial: CardMemorial;
  /** Edit, View and delete for the owner (with actions enabled). */
  actions?: boolean;
  headingLevel?: 2 | 3;
  priority?: boolean;
}) {
  const name = `${memorial.firstName} ${memorial.lastName}`;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const image = cardImage(memorial.profileImageUrl) ?? cardImage(memorial.firstImageUrl);
  // A visitor's card on a phone has its picture beside the words, so a screen shows several lives, not one
  // picture; an owner's keeps it above, with the room its four actions need.
  const beside = !actions;
  return (
    <article className={`flex overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm ${beside ? "sm:flex-col" : "flex-col"}`}>
      <div className={`relative ${beside ? "w-28 shrink-0 min-[360px]:w-32 sm:w-full" : ""}`}>
        <MemorialPortrait
          src={image}
          name={name}
          width={480}
          height={320}
          priority={priority}
          className={`h-auto w-full bg-stone-100 ${beside ? "aspect-square sm:aspect-[3/2]" : "aspect-[3/2]"}`}
        />
        <div className="absolute left-2 top-2 flex gap-1">
          <span className="rounded-full bg-white/95 px-2 py-0.5 text-sm font-semibold text-stone-800">{visibilityLabel(memorial.visibility)}</span>
          {!memorial.isPublished ? <span className="rounded-full bg-amber-100 px-2 py-0.5 text-sm font-semibold text-amber-950">Draft</span> : null}
        </div>
      </div>
      <div className={`flex min-w-0 flex-1 flex-col wrap-anywhere ${beside ? "p-3 sm:p-4" : "p-4"}`}>
        <Heading className="text-lg font-semibold text-stone-900">{name}</Heading>
        {memorial.dateOfBirth && memorial.dateOfPassing ? (
          <p className="text-sm text-stone-700">
            {formatShortDate(memorial.dateOfBirth)} – {formatShortDate(memorial.dateOfPassing)}
          </p>
        ) : null}
        <p className="text-sm text-stone-700">Created {formatShortDate(memorial.createdAt)}</p>
        {memorial.biography ? <p className="mt-2 line-clamp-2 text-sm text-stone-700">{memorial.biography}</p> : null}
        <MemorialCounts memorial={memorial} className="mt-3" />
        {/* The owner's four actions sit two by two, so none is left alone on a row of a phone's card. */}
        <div className={`mt-auto gap-2 pt-4 ${actions ? "grid grid-cols-2" : "flex flex-wrap"}`}>
          {actions ? (
            <>
              <Link to={`/memorials/${memorial.id}/edit`} className="btn-secondary">
                Edit<span className="sr-only"> {name}</span>
              </Link>
              <Link to={`/memorials/${memorial.id}`} className="btn-secondary">
                View<span className="sr-only"> {name}</span>
              </Link>
              {/* Prepares a copy and opens its page. */}
              <Form method="post" action={`/memorials/${memorial.id}/export`} className="flex">
                <button type="submit" className="btn-secondary w-full px-2">
                  {EXPORT_MESSAGES.action}
                  <span className="sr-only"> of {name}</span>
                </button>
              </Form>
              <Link to={`/memorials/${memorial.id}/delete`} className="btn-ghost text-red-800 hover:bg-red-50 hover:text-red-900">
                Delete<span className="sr-only"> {name}</span>
              </Link>
            </>
          ) : (
            <Link to={`/memorials/${memorial.id}`} className="btn-primary">
              View Memorial<span className="sr-only"> of {name}</span>
            </Link>
          )}
        </div>
      </div>
    </article>
  );
}
