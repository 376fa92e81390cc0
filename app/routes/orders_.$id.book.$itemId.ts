import type { Route } from "./+types/orders_.$id.book.$itemId";
import { bookFileName, orderBook } from "~/models/memorial-book.server";
import { requireUser } from "~/request/auth.server";
import { resourceNotFound } from "~/request/not-found.server";

// The printed book of one line of an order (issue 29 item 5): the book as it was when it was paid for.
// Its buyer previews it from My Orders; an administrator downloads it from the admin order view to send it
// to the printer (?download). Anyone else: 404, whether or not the order exists.
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const book = await orderBook(params.id, params.itemId, user);
  if (!book) return resourceNotFound();
  const disposition = new URL(request.url).searchParams.has("download") ? "attachment" : "inline";
  return new Response(book.pdf, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `${disposition}; filename="${bookFileName(book.name)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
