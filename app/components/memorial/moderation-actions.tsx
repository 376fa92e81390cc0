import { Form } from "react-router";

/**
 * Approve and Reject for one pending tribute, on the memorial page and in My Memorials. Rejecting deletes
 * a stranger's words for good, so it is confirmed first: Reject opens a disclosure holding the
 * button that deletes, which works the same without JavaScript. Both forms post `intent` and
 * `tributeId` to the page's own action, which answers with a toast.
 */
export function ModerationActions({ tributeId, authorName, busy }: { tributeId: string; authorName: string; busy: boolean }) {
  return (
    <div className="mt-2 flex flex-wrap items-start gap-2">
      <Form method="post" preventScrollReset>
        <input type="hidden" name="tributeId" value={tributeId} />
        <button type="submit" name="intent" value="approve" className="btn-primary" disabled={busy}>
          Approve<span className="sr-only"> tribute from {authorName}</span>
        </button>
      </Form>
      <details className="min-w-0 flex-1">
        <summary className="btn-secondary cursor-pointer list-none [&::-webkit-details-marker]:hidden">
          Reject<span className="sr-only"> tribute from {authorName}</span>
        </summary>
        <Form method="post" preventScrollReset className="mt-2 rounded-md border border-red-200 bg-red-50 p-3">
          <p className="text-sm text-red-900">Rejecting deletes this tribute for good. It cannot be brought back.</p>
          <input type="hidden" name="tributeId" value={tributeId} />
          <button type="submit" name="intent" value="reject" className="btn mt-2 bg-red-700 text-white hover:bg-red-800" disabled={busy}>
            Delete tribute<span className="sr-only"> from {authorName}</span>
          </button>
        </Form>
      </details>
    </div>
  );
}
