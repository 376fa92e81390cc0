import { data } from "react-router";
import { findEditableMemorial } from "~/models/memorials/access.server";
import { requireUser } from "~/request/auth.server";
import { redirectWithToast } from "~/request/toast.server";
import type { ParsedForm } from "~/utils/form-fields";

// The server half of a memorial's own lists that the family keeps with plain forms (its events, its life
// timeline): the same guard and the same add, edit and remove flow, each list with its own use cases and words.

/** The owner or a co-manager, and the memorial; anyone else gets a 404 (they may not learn it exists). */
export async function requireMemorialEditor(request: Request, id: string) {
  const user = await requireUser(request);
  const memorial = await findEditableMemorial(id, user.id);
  if (!memorial) throw data(null, { status: 404 });
  return { user, memorial };
}

type Outcome<Reason extends string> = { ok: true; id: string } | { ok: false; reason: Reason | "not-found" | "gone" };

type EntryList<Input, Values, Errors, Reason extends string> = {
  /** The list's page, where every answer goes back to. */
  here: string;
  messages: { added: string; saved: string; removed: string; gone: string };
  parse: (form: FormData) => ParsedForm<Input, Values, Errors>;
  add: (input: Input) => Promise<Outcome<Reason>>;
  update: (entryId: string, input: Input) => Promise<Outcome<Reason>>;
  remove: (entryId: string) => Promise<Outcome<Reason>>;
  /** The form's errors for a refusal the use case gave (a full list, a photo from elsewhere). */
  refusal: (reason: Reason) => Errors;
  /** Whether a saved entry is scrolled to on the list's page. */
  showSaved?: boolean;
};

/**
 * The list page's action: `intent` is add, edit or remove, `eventId` the entry it acts on. A success or an
 * entry already gone comes back to the list with a toast; a form with errors comes back with status 400,
 * what was typed kept; a memorial the member may not change, a 404.
 */
export async function memorialEntryAction<Input, Values, Errors, Reason extends string>(request: Request, list: EntryList<Input, Values, Errors, Reason>) {
  const { here, messages } = list;
  const form = await request.formData();
  const intent = form.get("intent");
  const eventId = typeof form.get("eventId") === "string" ? String(form.get("eventId")) : "";
  if (intent === "remove") {
    const result = await list.remove(eventId);
    if (!result.ok && result.reason === "not-found") throw data(null, { status: 404 });
    return redirectWithToast(here, result.ok ? { type: "success", title: messages.removed } : { type: "error", title: messages.gone });
  }
  if (intent !== "add" && intent !== "edit") throw data(null, { status: 400 });
  const parsed = list.parse(form);
  const fail = (errors: Errors) => data({ failure: { eventId: intent === "edit" ? eventId : null, values: parsed.values, errors } }, { status: 400 });
  if (!parsed.ok) return fail(parsed.errors);
  const result = intent === "add" ? await list.add(parsed.input) : await list.update(eventId, parsed.input);
  if (result.ok)
    return redirectWithToast(list.showSaved ? `${here}#event-${result.id}` : here, {
      type: "success",
      title: intent === "add" ? messages.added : messages.saved,
    });
  if (result.reason === "not-found") throw data(null, { status: 404 });
  if (result.reason === "gone") return redirectWithToast(here, { type: "error", title: messages.gone });
  return fail(list.refusal(result.reason));
}
