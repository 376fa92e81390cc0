import { Link } from "react-router";
import { Icon, IconBadge, type IconName } from "~/components/icons";
import { MemorialPortrait } from "~/components/memorial-portrait";
import { cardImage, statusBadge } from "~/components/memorial/memorial-card";
import { countOf } from "~/utils/counts";
import type { MemorialCard } from "~/models/memorials/gallery.server";
import { formatShortDate } from "~/utils/dates";
import type { FeedbackView } from "~/utils/feedback";
import { fullName } from "~/utils/text";
import { FeedbackPopup } from "./feedback-popup";

// The signed-in member's home at /: greeting, counters, actions, the
// pending-tributes notice, their newest memorials (or the first-memorial invitation), the community's
// newest public memorials, and the UX feedback popup. Links only: it works without JavaScript.

export type DashboardProps = {
  firstName: string;
  counts: { total: number; published: number; drafts: number; pendingTributes: number };
  recent: {
    id: string;
    firstName: string;
    lastName: string;
    profileImageUrl: string | null;
    visibility: string;
    isPublished: boolean;
    createdAt: Date | string;
  }[];
  highlights: MemorialCard[];
  feedback: FeedbackView | null;
};

const h2Class = "font-serif text-2xl font-semibold text-stone-900";

export function Dashboard({ firstName, counts, recent, highlights, feedback }: DashboardProps) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="min-w-0 wrap-anywhere">
          {/* A member who has made nothing yet (as anyone just registered) is new here, not back. */}
          <h1 className="text-3xl font-bold text-stone-900">{counts.total === 0 ? `Welcome, ${firstName}!` : `Welcome back, ${firstName}!`}</h1>
          <p className="mt-1 text-stone-700">Manage your digital memorials and keep the stories of your loved ones alive.</p>
        </div>
        <Link to="/vault" className="btn-secondary">
          <Icon name="lock" className="h-4 w-4" />
          Vault
        </Link>
      </div>

      <FeedbackPopup view={feedback} />

      {/* A member with no memorial yet is not shown four zeros: the invitation below says what to do. */}
      {counts.total > 0 ? <Counters counts={counts} /> : null}

      {counts.pendingTributes > 0 ? (
        <div className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-orange-300 bg-orange-50 p-4">
          <p className="font-medium text-orange-950">You have {countOf(counts.pendingTributes, "tribute")} waiting for your approval</p>
          <Link to="/my-memorials" className="btn bg-orange-700 text-white hover:bg-orange-800">
            Review Tributes
          </Link>
        </div>
      ) : null}

      <QuickActions />

      {counts.total > 0 ? (
        <RecentMemorials recent={recent} />
      ) : (
        <section aria-labelledby="first-memorial-heading" className="mt-10 rounded-xl border border-dashed border-stone-300 p-10 text-center">
          <h2 id="first-memorial-heading" className={h2Class}>
            Create Your First Memorial
          </h2>
          <p className="mx-auto mt-2 max-w-lg text-stone-700">
            Gather their story, photographs and the memories of everyone who knew them in one lasting place.
          </p>
          <Link to="/memorials/create" className="btn-primary mt-5">
            Create Memorial
          </Link>
        </section>
      )}

      <CommunityHighlights highlights={highlights} />
    </div>
  );
}

function Counters({ counts }: { counts: DashboardProps["counts"] }) {
  const items = [
    { label: "Your Memorials", value: counts.total },
    { label: "Published", value: counts.published },
    { label: "Drafts", value: counts.drafts },
    { label: "Pending Tributes", value: counts.pendingTributes },
  ];
  return (
    <section aria-labelledby="overview-heading" className="mt-8">
      <h2 id="overview-heading" className="sr-only">
        Overview
      </h2>
      {/* dt before dd for screen readers ("Published: 2"); the figure is shown first. */}
      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {items.map((item) => (
          <div key={item.label} className="flex flex-col-reverse rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-stone-700">{item.label}</dt>
            <dd className="font-serif text-3xl font-semibold text-heather-800">{item.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

// My Memorials' View All could have led to /memorials (the public gallery); it goes to the member's own
// list, /my-memorials, as its name promises (README "Dashboard and feedback popup").
const ACTIONS: { icon: IconName; title: string; text: string; to: string; label: string }[] = [
  { icon: "plus", title: "Create Memorial", text: "Begin a new memorial for someone you love.", to: "/memorials/create", label: "Get Started" },
  { icon: "list", title: "My Memorials", text: "See, edit and share the memorials you have created.", to: "/my-memorials", label: "View All" },
  { icon: "compass", title: "Explore", text: "Discover the memorials families have shared with everyone.", to: "/market", label: "Explore Memorials" },
];

function QuickActions() {
  return (
    <section aria-labelledby="actions-heading" className="mt-10">
      <h2 id="actions-heading" className="sr-only">
        Quick actions
      </h2>
      <ul className="grid gap-4 md:grid-cols-3">
        {ACTIONS.map((action) => (
          <li key={action.title} className="flex flex-col rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
            <IconBadge name={action.icon} />
            <h3 className="mt-3 text-lg font-semibold text-stone-900">{action.title}</h3>
            <p className="mt-1 flex-1 text-sm text-stone-700">{action.text}</p>
            <Link to={action.to} className="btn-secondary mt-4 self-start">
              {action.label}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A section of the dashboard whose heading has a link beside it to the whole list. */
function LinkedSection({ id, title, to, link, children }: { id: string; title: string; to: string; link: React.ReactNode; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className={h2Class}>
          {title}
        </h2>
        <Link to={to} className="link font-semibold">
          {link}
        </Link>
      </div>
      {children}
    </section>
  );
}

function RecentMemorials({ recent }: { recent: DashboardProps["recent"] }) {
  return (
    <LinkedSection
      id="recent-heading"
      title="Your Recent Memorials"
      to="/my-memorials"
      link={
        <>
          View All<span className="sr-only"> your memorials</span>
        </>
      }
    >
      <ul className="mt-4 divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
        {recent.map((memorial, index) => {
          const name = fullName(memorial);
          return (
            <li key={memorial.id} className="flex flex-wrap items-center gap-4 p-4">
              <MemorialPortrait
                src={cardImage(memorial.profileImageUrl)}
                name={name}
                width={64}
                height={64}
                priority={index === 0}
                className="h-16 w-16 shrink-0 rounded-lg bg-stone-100"
              />
              {/* At least 10 rem for the name and date: on a phone the buttons go to the next line rather
                  than squeezing the name until its words break. */}
              <div className="min-w-0 grow basis-40 wrap-anywhere">
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="font-semibold text-stone-900">{name}</h3>
                  <span className="rounded-full bg-stone-100 px-2 py-0.5 text-sm font-semibold text-stone-800">{statusBadge(memorial)}</span>
                </div>
                <p className="text-sm text-stone-700">Created {formatShortDate(memorial.createdAt)}</p>
              </div>
              <div className="flex gap-2">
                <Link to={`/memorials/${memorial.id}`} className="btn-secondary">
                  View<span className="sr-only"> {name}</span>
                </Link>
                <Link to={`/memorials/${memorial.id}/edit`} className="btn-secondary">
                  Edit<span className="sr-only"> {name}</span>
                </Link>
              </div>
            </li>
          );
        })}
      </ul>
    </LinkedSection>
  );
}

function CommunityHighlights({ highlights }: { highlights: DashboardProps["highlights"] }) {
  return (
    <LinkedSection id="highlights-heading" title="Community Highlights" to="/market" link="Explore More">
      {highlights.length ? (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {highlights.map((memorial) => {
            const name = fullName(memorial);
            return (
              <li key={memorial.id} className="flex flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm">
                <MemorialPortrait
                  src={cardImage(memorial.profileImageUrl)}
                  name={name}
                  width={480}
                  height={320}
                  className="aspect-3/2 h-auto w-full bg-stone-100"
                />
                <div className="flex flex-1 flex-col p-4 wrap-anywhere">
                  <h3 className="font-semibold text-stone-900">{name}</h3>
                  {memorial.biography ? <p className="mt-1 line-clamp-2 text-sm text-stone-700">{memorial.biography}</p> : null}
                  <Link to={`/memorials/${memorial.id}`} className="link mt-auto pt-3 text-sm font-semibold">
                    Visit Memorial<span className="sr-only"> of {name}</span>
                  </Link>
                </div>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="mt-4 text-stone-700">No memorials have been shared with the community yet.</p>
      )}
    </LinkedSection>
  );
}
