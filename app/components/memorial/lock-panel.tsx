import { Link } from "react-router";
import type { LockReason } from "~/models/memorials/access-rules";

const TITLES: Record<LockReason, string> = {
  private: "Private Memorial",
  friends: "Friends Only Memorial",
  draft: "Draft Memorial",
};
const TEXTS: Record<LockReason, string> = {
  private: "This memorial is private. Only the family member who created it can see it.",
  friends: "This memorial is shared only with the friends of the family member who created it.",
  draft: "This memorial has not been published yet.",
};

/** The memorial page's panel shown when the viewer may not see the memorial. */
export function LockPanel({ reason, signedIn, loginHref }: { reason: LockReason; signedIn: boolean; loginHref: string }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="mx-auto h-12 w-12 text-stone-500" fill="none" stroke="currentColor" strokeWidth="1.5">
        <rect x="5" y="11" width="14" height="10" rx="2" />
        <path d="M8 11V7a4 4 0 0 1 8 0v4" />
      </svg>
      <h1 className="mt-4 text-2xl font-bold text-stone-900">{TITLES[reason]}</h1>
      <p className="mt-2 text-stone-700">{TEXTS[reason]}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {signedIn ? (
          reason === "friends" ? (
            // Friendship is what opens it: the way to ask is one tap away.
            <Link to="/friends/find" className="btn-primary">
              Find Friends
            </Link>
          ) : null
        ) : (
          <Link to={loginHref} className="btn-primary">
            Login to View
          </Link>
        )}
        <Link to="/market" className="btn-secondary">
          Browse Public Memorials
        </Link>
      </div>
    </div>
  );
}

export function MemorialNotFound() {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-2xl font-bold text-stone-900">Memorial Not Found</h1>
      <p className="mt-2 text-stone-700">This memorial does not exist or has been removed.</p>
      <Link to="/market" className="btn-primary mt-6">
        Browse Other Memorials
      </Link>
    </div>
  );
}
