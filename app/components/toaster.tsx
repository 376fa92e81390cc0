import { useEffect, useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { useHydrated } from "~/components/forms";

/** `at`: the id of the page section that shows this message in place (ToastInPlace) instead of floating. */
export type ToastView = { type: "success" | "error" | "info"; title: string; description?: string; at?: string };

/**
 * How long a toast stays. Five seconds was too short to read on a phone, so it is longer
 * than that; the clock also stops while the toast is hovered or focused, and with JavaScript it can be
 * dismissed at once.
 */
export const TOAST_SECONDS = 10;

type Shown = { toast: ToastView; key: number };

// One toast at a time, fixed at the bottom of the screen, so it is seen wherever the person has scrolled
// to, in a polite live region. The timer is CSS (.toast-timer in app.css), so it works without
// JavaScript too; with JavaScript the toast is removed when its time is up, or on Dismiss.
export function Toaster({ toast }: { toast: ToastView | null }) {
  const hydrated = useHydrated();
  const [shown, setShown] = useState<Shown | null>(() => floating(toast, 0));
  // The toast the server rendered is already on screen, its clock running: only later ones are new.
  const seen = useRef(toast);
  const count = useRef(0);
  useEffect(() => {
    if (seen.current === toast) return;
    seen.current = toast;
    setShown(floating(toast, ++count.current));
  }, [toast]);
  const tone =
    shown?.toast.type === "error"
      ? "border-red-300 bg-red-50 text-red-900"
      : shown?.toast.type === "info"
        ? "border-stone-300 bg-white text-stone-900"
        : "border-emerald-300 bg-emerald-50 text-emerald-900";
  return (
    <div aria-live="polite" role="status" className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex justify-center px-4">
      {shown ? (
        <div
          key={shown.key}
          data-testid="toast"
          style={{ "--toast-duration": `${TOAST_SECONDS}s` } as React.CSSProperties}
          onAnimationEnd={() => setShown(null)}
          className={`toast-timer pointer-events-auto mb-4 flex w-full max-w-xl items-start justify-between gap-3 rounded-lg border px-4 py-3 shadow-lg ${tone}`}
        >
          <div>
            <p className="font-semibold">{shown.toast.title}</p>
            {shown.toast.description ? <p className="text-sm">{shown.toast.description}</p> : null}
          </div>
          {hydrated ? (
            <button type="button" onClick={() => setShown(null)} className="shrink-0 rounded px-1 text-sm underline">
              Dismiss
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

function floating(toast: ToastView | null, key: number): Shown | null {
  return toast && !toast.at ? { toast, key } : null;
}

/**
 * A confirmation that belongs to one place on the page (the toast's `at`, e.g. "tributes"): shown there,
 * in the page, where the person is looking, and it stays until they move on. The redirect
 * that carries it ends in the same #fragment, so without JavaScript the browser lands on it; with
 * JavaScript it takes the focus, which brings it into view and has it read out.
 */
export function ToastInPlace({ at }: { at: string }) {
  const shell = useRouteLoaderData("root") as { toast: ToastView | null } | undefined;
  const toast = shell?.toast?.at === at ? shell.toast : null;
  const box = useRef<HTMLDivElement>(null);
  // The message the server rendered is where the browser landed: only one that arrives later takes focus.
  const seen = useRef(toast);
  useEffect(() => {
    if (seen.current === toast) return;
    seen.current = toast;
    box.current?.focus();
  }, [toast]);
  if (!toast) return null;
  const tone = toast.type === "error" ? "border-red-300 bg-red-50 text-red-900" : "border-emerald-300 bg-emerald-50 text-emerald-900";
  return (
    <div ref={box} tabIndex={-1} role="status" data-testid="toast-in-place" className={`mt-4 rounded-lg border px-4 py-3 ${tone}`}>
      <p className="font-semibold">{toast.title}</p>
      {toast.description ? <p className="text-sm">{toast.description}</p> : null}
    </div>
  );
}
