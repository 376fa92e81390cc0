import { Form } from "react-router";
import { Tick } from "~/components/forms";

// The family's switch on the memorial's edit page, for the owner and managers: whether
// the printed memorial book (and any product) is offered beside the memorial. A plain form posted to
// /memorials/:id/book; it works without JavaScript. Everlight shows no advertising anywhere (the Terms).

export function ShopOffersSwitch({ memorialId, on }: { memorialId: string; on: boolean }) {
  return (
    <section id="shop-offers" aria-labelledby="shop-offers-heading" className="mt-12 rounded-lg border border-stone-200 p-6">
      <h2 id="shop-offers-heading" className="text-xl font-semibold text-stone-900">
        What is offered beside this memorial
      </h2>
      <p className="mt-2 text-stone-700">
        Family and friends can order a printed book of this memorial from its page. You can turn this off: then nothing is offered for sale on the memorial, and
        the book cannot be ordered. Everlight never shows advertising.
      </p>
      <Form method="post" action={`/memorials/${memorialId}/book`} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="offers" />
        <Tick key={String(on)} name="shopOffers" id="shop-offers-on" label="Offer the printed memorial book on this memorial" defaultChecked={on} />
        <button type="submit" className="btn-secondary">
          Save this choice
        </button>
      </Form>
    </section>
  );
}
