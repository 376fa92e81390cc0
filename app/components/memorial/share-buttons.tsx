import { useState } from "react";
import { useHydrated } from "~/components/forms";

// Share buttons: Facebook and Twitter as plain links, so they work without
// JavaScript; with it, each share is recorded and "Copy link" copies the address (toast "Link copied").
export function ShareButtons({ memorialId, url, name }: { memorialId: string; url: string; name: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const record = (shareType: string) => {
    const body = new Blob([JSON.stringify({ shareType })], { type: "application/json" });
    if (!navigator.sendBeacon?.(`/api/memorials/${memorialId}/share`, body)) {
      void fetch(`/api/memorials/${memorialId}/share`, { method: "POST", body, headers: { "Content-Type": "application/json" }, keepalive: true }).catch(
        () => {},
      );
    }
  };
  const text = `Remembering ${name}`;
  const linkClass = "btn-secondary";
  return (
    <div className="flex flex-wrap items-center gap-2">
      <a
        className={linkClass}
        href={`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}`}
        target="_blank"
        rel="noopener noreferrer"
        onClick={() => record("facebook")}
      >
        Share on Facebook<span className="sr-only"> (opens in a new tab)</span>
      </a>
      <a
        className={linkClass}
        href={`https://twitter.com/intent/tweet?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`}
        target="_blank"
        rel="noopener noreferrer"
        onClick={() => record("twitter")}
      >
        Share on Twitter<span className="sr-only"> (opens in a new tab)</span>
      </a>
      {hydrated ? (
        <button
          type="button"
          className={linkClass}
          onClick={async () => {
            await navigator.clipboard?.writeText(url).catch(() => {});
            record("copy_link");
            setCopied(true);
            setTimeout(() => setCopied(false), 5000);
          }}
        >
          Copy link
        </button>
      ) : (
        <label className="flex items-center gap-2 text-sm text-stone-700">
          Link
          <input readOnly value={url} className="w-64 rounded-md border border-stone-400 px-2 py-1 text-stone-900" />
        </label>
      )}
      <p role="status" aria-live="polite" className="text-sm font-medium text-emerald-800">
        {copied ? "Link copied" : ""}
      </p>
    </div>
  );
}
