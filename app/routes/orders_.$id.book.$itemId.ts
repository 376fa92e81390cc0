import type { Route } from "./+types/orders_.$id.book.$itemId";
import { orderBook } from "~/models/memorials/book.server";
import { bookResponse } from "~/request/book-response.server";
import { requireUser } from "~/request/auth.server";
import { resourceNotFound } from "~/request/not-found.server";

// The printed book of one line of an order: the book as it was when it was paid for.
// Its buyer previews it from My Orders; an administrator downloads it from the admin order view to send it
// to the printer (?download). Anyone else: 404, whether or not the order exists.
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const book = await orderBook(params.id, params.itemId, user);
  if (!book) return resourceNotFound();
  return bookResponse(book, new URL(request.url).searchParams.has("download") ? "attachment" : "inline");
}
