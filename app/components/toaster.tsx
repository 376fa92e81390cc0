import { useEffect, useState } from "react";

export type ToastView = { type: "success" | "error" | "info"; title: string; description?: string };

const TOAST_MS = 5000; // memorial-core.md §9: one toast at a time, 5000 ms

// One toast at a time in a polite live region at the top of the page. With JavaScript it closes after
// 5 seconds or on "Dismiss"; without, it is simply part of the page the server rendered.
export function Toaster({ toast }: { toast: ToastView | null }) {
  const [shown, setShown] = useState(toast);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    setShown(toast);
    if (!toast) return;
    const timer = setTimeout(() => setShown(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);
  const tone =
    shown?.type === "error"
      ? "border-red-300 bg-red-50 text-red-900"
      : shown?.type === "info"
        ? "border-slate-300 bg-white text-slate-900"
        : "border-emerald-300 bg-emerald-50 text-emerald-900";
  return (
    <div aria-live="polite" role="status" className="mx-auto flex max-w-6xl justify-center px-4 empty:hidden">
      {shown ? (
        <div data-testid="toast" className={`mt-4 flex w-full max-w-xl items-start justify-between gap-3 rounded-lg border px-4 py-3 shadow-sm ${tone}`}>
          <div>
            <p className="font-semibold">{shown.title}</p>
            {shown.description ? <p className="text-sm">{shown.description}</p> : null}
          </div>
          {hydrated ? (
            <button type="button" onClick={() => setShown(null)} className="rounded px-1 text-sm underline">
              Dismiss
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
