import { Form, useNavigation } from "react-router";
import { formatLongDate } from "~/utils/dates";
import { RECOVERY_DAYS } from "~/utils/deletion";

// The dashboard's "Recently deleted": memorials or accounts within their 30 days, each
// with who it belongs to, when it goes for good, and Restore (a plain form: it works without JavaScript).

export type DeletedEntry = { id: string; title: string; detail: string; deletedAt: Date; purgeAt: Date; restorable: boolean; note?: string };

export function RecentlyDeleted({ heading, field, entries }: { heading: string; field: "memorialId" | "userId"; entries: DeletedEntry[] }) {
  const navigation = useNavigation();
  if (!entries.length) return null;
  const id = `deleted-${field}`;
  return (
    <section aria-labelledby={id} className="mt-10">
      <h3 id={id} className="text-lg font-semibold text-stone-900">
        {heading} ({entries.length})
      </h3>
      <p className="mt-1 text-sm text-stone-700">Hidden from everyone. Each is removed for good {RECOVERY_DAYS} days after its deletion.</p>
      <ul className="mt-3 space-y-3">
        {entries.map((e) => {
          const busy = navigation.state !== "idle" && navigation.formData?.get(field) === e.id;
          return (
            <li key={e.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-stone-200 bg-white p-4 wrap-anywhere">
              <div className="min-w-48 flex-1">
                <p className="font-semibold text-stone-900">{e.title}</p>
                <p className="text-sm text-stone-700">{e.detail}</p>
                <p className="text-sm text-stone-700">
                  Deleted {formatLongDate(e.deletedAt)} · removed for good on {formatLongDate(e.purgeAt)}
                </p>
                {e.note ? <p className="text-sm text-stone-700">{e.note}</p> : null}
              </div>
              {e.restorable ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="restore" />
                  <input type="hidden" name={field} value={e.id} />
                  <button type="submit" className="btn-secondary" disabled={busy} aria-label={`Restore ${e.title}`}>
                    {busy ? "Restoring..." : "Restore"}
                  </button>
                </Form>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
