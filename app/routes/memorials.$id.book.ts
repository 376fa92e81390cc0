import { data } from "react-router";
import type { Route } from "./+types/memorials.$id.book";
import { addToCart } from "~/models/commerce/cart.server";
import { BOOK_MESSAGES, previewBook, setShopOffers } from "~/models/memorials/book.server";
import { bookResponse } from "~/request/book-response.server";
import { actorOf, getOptionalUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import { SHOP_MESSAGES } from "~/utils/shop";
import { resourceNotFound } from "~/request/not-found.server";

// The printed memorial book of one memorial (docs/decisions/029-memorial-book.md).
// GET: the family's preview, the book as it would print now (the owner and co-managers; 404 for anyone
// else). POST, plain forms that work without JavaScript: "order" puts the book in the basket (the owner,
// co-managers and the owner's friends, while the family offers it); "offers" is the family's switch on the
// edit page (the owner and managers).

export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = await getOptionalUser(request);
  const book = await previewBook(params.id, viewer);
  if (!book) return resourceNotFound();
  return bookResponse(book, "inline");
}

export async function action({ request, params }: Route.ActionArgs) {
  const page = `/memorials/${params.id}`;
  const viewer = await getOptionalUser(request);
  if (!viewer) {
    return redirectWithToast(`/login?${new URLSearchParams({ redirectTo: `${page}#memorial-book` })}`, { type: "info", title: SHOP_MESSAGES.loginToAdd });
  }
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "offers") {
    const result = await setShopOffers(params.id, actorOf(viewer, request), form.get("shopOffers") === "on");
    if (!result.ok) throw data(null, { status: 404 });
    return redirectWithToast(`${page}/edit#shop-offers`, {
      type: "success",
      title: "Saved",
      description: result.on ? BOOK_MESSAGES.switchedOn : BOOK_MESSAGES.switchedOff,
    });
  }
  if (intent !== "order") throw data(null, { status: 400 });
  const result = await addToCart(viewer, { memorialId: params.id, quantity: 1 });
  if (!result.ok) {
    if (result.reason === "not-found") throw data(null, { status: 404 });
    return redirectWithToast(`${page}#memorial-book`, { type: "error", title: SHOP_MESSAGES.addFailed, description: result.message });
  }
  return redirectWithToast("/basket", { type: "success", title: SHOP_MESSAGES.added, description: `${result.name} is in your basket (${result.quantity}).` });
}
