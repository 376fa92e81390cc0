import { recordView } from "~/models/memorials/views.server";
import { isPrefetch } from "./facts.server";

// A memorial page counts one view each time it is opened, with or without JavaScript, whoever answers:
// the page's loader, or a kept copy of the page that answers without running it (the visitors' and the
// members' page caches in server/). A link prefetch (Sec-Purpose or Purpose: prefetch) is not a visit.
// Counting never fails and never delays the page (app/models/memorials/views.server.ts).

/** Counts the opening of a memorial page, unless the request is a prefetch. `header` reads a request header by its lower-case name. */
export function countOpening(memorialId: string, header: (name: string) => string | null | undefined): Promise<void> {
  return isPrefetch(header("sec-purpose") ?? header("purpose")) ? Promise.resolve() : recordView(memorialId);
}
