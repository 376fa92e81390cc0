import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { ErrorList } from "~/components/forms";

// The pieces a memorial's own lists share on their family pages (its events, its life timeline): each entry's
// Edit link and remove button, and the form that adds an entry or edits the one chosen (?edit=<id>). Plain forms
// that post `intent` and `eventId`, so the pages work without JavaScript.

/** An entry's buttons: any of the list's own first, then Edit (opens the form below) and the remove button. */
export function EntryActions({
  entryId,
  title,
  formId,
  removeLabel,
  children,
}: {
  entryId: string;
  title: string;
  formId: string;
  removeLabel: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      {children}
      <Link to={`?edit=${entryId}#${formId}`} className="btn-secondary text-sm">
        Edit<span className="sr-only"> {title}</span>
      </Link>
      <Form method="post">
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="eventId" value={entryId} />
        <button type="submit" className="btn-secondary text-sm text-red-800">
          {removeLabel}
          <span className="sr-only"> {title}</span>
        </button>
      </Form>
    </div>
  );
}

/** The section with the form: "Add an event", or "Edit an event" with the chosen one; a full list says so. */
export function EntryFormSection({
  id,
  editId,
  full,
  fullMessage,
  children,
}: {
  id: string;
  editId: string | null;
  full: boolean;
  fullMessage: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} id={id} className="mt-10">
      <h2 id={`${id}-heading`} className="text-xl font-semibold text-stone-900">
        {editId ? "Edit an event" : "Add an event"}
      </h2>
      {full && !editId ? <p className="mt-2 text-stone-700">{fullMessage}</p> : null}
      {children}
    </section>
  );
}

/** The form itself: what it does (add, or edit which entry), the list's fields, then Add or Save, and Cancel while editing. */
export function EntryForm({ editId, children }: { editId: string | null; children: ReactNode }) {
  return (
    <Form method="post" noValidate className="mt-4 space-y-4">
      <input type="hidden" name="intent" value={editId ? "edit" : "add"} />
      {editId ? <input type="hidden" name="eventId" value={editId} /> : null}
      {children}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className="btn-primary">
          {editId ? "Save event" : "Add event"}
        </button>
        {editId ? (
          <Link to="." className="link text-sm">
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** A labelled list to choose from, its hint and errors tied to it like a Field's. */
export function EntrySelect({
  id,
  name,
  label,
  hint,
  defaultValue,
  errors,
  children,
}: {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  defaultValue: string;
  errors?: string[];
  children: ReactNode;
}) {
  const invalid = Boolean(errors?.length);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-stone-600">
          {hint}
        </p>
      ) : null}
      <select
        id={id}
        name={name}
        defaultValue={defaultValue}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={[invalid ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined}
        className={`mt-1 block w-full rounded-md border bg-white px-3 py-2 text-stone-900 shadow-sm ${invalid ? "border-red-600" : "border-stone-400"}`}
      >
        {children}
      </select>
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  );
}
