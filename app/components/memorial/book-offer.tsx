import { Form } from "react-router";
import { formatPence } from "~/utils/money";
import { MEMORIAL_ITEM } from "~/utils/shop";

// The printed memorial book on the memorial page: shown to the owner, co-managers and the
// owner's friends while the family offers it (never to a visitor, so the anonymous page cache holds none).
// A plain form posted to /memorials/:id/book: it works without JavaScript and lands in the basket.

export type BookOfferState = { canPreview: boolean } | null;

export function BookOffer({ memorialId, name, offer }: { memorialId: string; name: string; offer: BookOfferState }) {
  if (!offer) return null;
  return (
    <section id="memorial-book" aria-labelledby="memorial-book-heading" className="rounded-lg border border-stone-200 p-4" data-print="hide">
      <h2 id="memorial-book-heading" className="font-semibold text-stone-900">
        A printed memorial book
      </h2>
      <p className="mt-1 text-sm text-stone-700 wrap-anywhere">
        The life story, timeline, photos and tributes of {name}, printed as an A4 book and posted to you. {formatPence(MEMORIAL_ITEM.price)}.
      </p>
      <Form method="post" action={`/memorials/${memorialId}/book`} className="mt-3">
        <button type="submit" name="intent" value="order" className="btn-primary w-full">
          Add the book to your basket
        </button>
      </Form>
      {offer.canPreview ? (
        <p className="mt-3 text-sm">
          <a href={`/memorials/${memorialId}/book`} className="link">
            Preview the book (PDF)
          </a>
        </p>
      ) : null}
    </section>
  );
}
