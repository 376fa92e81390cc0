import { Link } from "react-router";
import { MemorialPortrait } from "~/components/memorial-portrait";
import { cardImage, MemorialCard, type CardMemorial } from "~/components/memorial/memorial-card";
import { MemorialCounts } from "~/components/memorial/memorial-counts";
import { formatShortDate } from "~/utils/dates";

// The browse page's results in its three views: a grid of
// the shared memorial cards, a masonry of taller cards (labelled Featured above 10 views), and a
// compact list. Each result carries an id (result-1, result-2…) so Load More can bring the reader to
// the first new one, with or without JavaScript.

export type GalleryView = "grid" | "masonry" | "list";
export type GalleryMemorial = CardMemorial & { title: string };

/** The gallery marks a memorial Featured once its viewCount is above this. */
export const FEATURED_VIEWS = 10;

export function GalleryResults({ view, memorials }: { view: GalleryView; memorials: GalleryMemorial[] }) {
  if (view === "list") {
    return (
      <ul className="mt-6 divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white" data-view="list">
        {memorials.map((m, i) => (
          <li key={m.id} id={`result-${i + 1}`} tabIndex={-1}>
            <ListRow memorial={m} />
          </li>
        ))}
      </ul>
    );
  }
  if (view === "masonry") {
    return (
      <ul className="mt-6 gap-6 sm:columns-2 lg:columns-3" data-view="masonry">
        {memorials.map((m, i) => (
          <li key={m.id} id={`result-${i + 1}`} tabIndex={-1} className="mb-6 break-inside-avoid">
            <MasonryCard memorial={m} tall={i % 3 === 0} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul className="mt-6 grid gap-4 sm:grid-cols-2 sm:gap-6 lg:grid-cols-4" data-view="grid">
      {memorials.map((m, i) => (
        <li key={m.id} id={`result-${i + 1}`} tabIndex={-1} className="flex">
          <div className="flex w-full flex-col [&>article]:flex-1">
            <MemorialCard memorial={m} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function Dates({ memorial }: { memorial: GalleryMemorial }) {
  if (!memorial.dateOfBirth || !memorial.dateOfPassing) return null;
  return (
    <p className="text-sm text-stone-700">
      {formatShortDate(memorial.dateOfBirth)} – {formatShortDate(memorial.dateOfPassing)}
    </p>
  );
}

function MasonryCard({ memorial, tall }: { memorial: GalleryMemorial; tall: boolean }) {
  const name = `${memorial.firstName} ${memorial.lastName}`;
  const featured = memorial.viewCount > FEATURED_VIEWS;
  return (
    <article className="overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm">
      <div className="relative">
        <MemorialPortrait
          src={cardImage(memorial.profileImageUrl) ?? cardImage(memorial.firstImageUrl)}
          name={name}
          width={480}
          height={tall ? 600 : 360}
          className={`h-auto w-full bg-stone-100 ${tall ? "aspect-[4/5]" : "aspect-[4/3]"}`}
        />
        {featured ? <span className="absolute left-2 top-2 rounded-full bg-amber-300 px-2 py-0.5 text-sm font-semibold text-amber-950">Featured</span> : null}
      </div>
      <div className="space-y-2 p-4 wrap-anywhere">
        <h3 className="text-lg font-semibold text-stone-900">{name}</h3>
        {memorial.title && memorial.title !== name ? <p className="text-sm italic text-stone-700">{memorial.title}</p> : null}
        <Dates memorial={memorial} />
        {memorial.biography ? <p className="line-clamp-5 text-sm text-stone-700">{memorial.biography}</p> : null}
        <MemorialCounts memorial={memorial} />
        <Link to={`/memorials/${memorial.id}`} className="btn-primary">
          View Memorial<span className="sr-only"> of {name}</span>
        </Link>
      </div>
    </article>
  );
}

function ListRow({ memorial }: { memorial: GalleryMemorial }) {
  const name = `${memorial.firstName} ${memorial.lastName}`;
  return (
    <article className="flex gap-4 p-4">
      <MemorialPortrait
        src={cardImage(memorial.profileImageUrl) ?? cardImage(memorial.firstImageUrl)}
        name={name}
        width={96}
        height={96}
        className="h-20 w-20 shrink-0 rounded-lg bg-stone-100 sm:h-24 sm:w-24"
      />
      <div className="min-w-0 flex-1 space-y-1 wrap-anywhere">
        <h3 className="text-lg font-semibold text-stone-900">
          <Link to={`/memorials/${memorial.id}`} className="hover:underline">
            {name}
          </Link>
        </h3>
        <Dates memorial={memorial} />
        {memorial.biography ? <p className="line-clamp-2 text-sm text-stone-700">{memorial.biography}</p> : null}
        <MemorialCounts memorial={memorial} />
      </div>
    </article>
  );
}
