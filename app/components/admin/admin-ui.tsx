import { Form, useNavigation } from "react-router";

// The admin dashboard's shared pieces: a search box (a GET form, so it works without
// JavaScript and the address can be bookmarked), the card a list's item sits in (the list itself is
// PagedList), and a confirmation that needs no script (a <details> that opens onto the warning and the
// real button).

/** A tab of the admin dashboard: one section, named by its heading, with an action beside the heading when there is one. */
export function AdminSection({
  id,
  title,
  action,
  className,
  children,
}: {
  id: string;
  title: string;
  action?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  const heading = (
    <h2 id={id} className="text-xl font-semibold text-stone-900">
      {title}
    </h2>
  );
  return (
    <section aria-labelledby={id} className={className}>
      {action ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          {heading}
          {action}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}

/** ?q= search over the list, keeping the other filters given as hidden fields. */
export function SearchForm({ label, search, hidden = {} }: { label: string; search: string; hidden?: Record<string, string | null> }) {
  return (
    <Form method="get" role="search" aria-label={label} className="flex flex-wrap items-end gap-2">
      {Object.entries(hidden).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      <div className="min-w-0 flex-1">
        <label htmlFor="admin-search" className="block text-sm font-medium text-stone-800">
          {label}
        </label>
        <input
          id="admin-search"
          type="search"
          name="q"
          defaultValue={search}
          maxLength={200}
          className="mt-1 block w-full rounded-md border border-stone-400 px-3 py-2 text-stone-900 shadow-sm"
        />
      </div>
      <button type="submit" className="btn-secondary">
        Search
      </button>
    </Form>
  );
}

/**
 * A destructive or weighty action behind a confirmation that works with and without JavaScript: the
 * summary opens the warning and the real submit button; nothing is sent until that is pressed.
 */
export function ConfirmAction({
  summary,
  warning,
  confirm,
  intent,
  fields,
  danger = true,
  children,
}: {
  summary: string;
  warning: React.ReactNode;
  confirm: string;
  intent: string;
  fields: Record<string, string>;
  danger?: boolean;
  children?: React.ReactNode;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    Object.entries(fields).every(([k, v]) => navigation.formData?.get(k) === v);
  return (
    // min-w-0/max-w-full and wrap-anywhere: a long unbroken name in the warning wraps inside a 390 px phone
    // instead of widening the page.
    <details className="group min-w-0 max-w-full rounded-md">
      <summary className={`btn-secondary cursor-pointer list-none ${danger ? "text-red-800" : ""}`}>{summary}</summary>
      <Form method="post" className="mt-2 space-y-3 rounded-md border border-stone-300 bg-stone-50 p-3 wrap-anywhere">
        <input type="hidden" name="intent" value={intent} />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className="text-sm text-stone-800">{warning}</div>
        {children}
        <button type="submit" className={danger ? "btn bg-red-700 text-white hover:bg-red-800" : "btn-primary"} disabled={busy}>
          {busy ? "Working..." : confirm}
        </button>
      </Form>
    </details>
  );
}

/** A small label (Admin, Draft, a status). */
export function Tag({ children, tone = "muted" }: { children: React.ReactNode; tone?: "muted" | "info" | "success" | "warning" | "danger" }) {
  const tones = {
    muted: "bg-stone-100 text-stone-800 ring-stone-300",
    info: "bg-sky-100 text-sky-900 ring-sky-300",
    success: "bg-emerald-100 text-emerald-900 ring-emerald-300",
    warning: "bg-amber-100 text-amber-900 ring-amber-300",
    danger: "bg-red-100 text-red-900 ring-red-300",
  };
  return <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${tones[tone]}`}>{children}</span>;
}

/** A list item card used by every tab: stacks on a phone, no horizontal scrolling. */
export function Card({ children, label }: { children: React.ReactNode; label?: string }) {
  return (
    <li className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm" aria-label={label}>
      {children}
    </li>
  );
}

export function formatDateTime(iso: string) {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
