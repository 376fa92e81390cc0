import { Link } from "react-router";
import { ButtonLinks } from "~/components/button-links";
import { Icon, IconBadge } from "~/components/icons";
import { countOf } from "~/utils/counts";
import { MemorialPortrait } from "~/components/memorial-portrait";
import type { MemorialCard } from "~/models/memorials/gallery.server";
import { SITE_NAME } from "~/utils/site";
import { fullName, truncate } from "~/utils/text";

// The visitors' landing page at /; app/routes/_index.tsx
// shows it to visitors and the dashboard to members. Plain links and server-rendered content only, so it
// works in full without JavaScript. The footer comes from root.

export function LandingPage({ memorials }: { memorials: MemorialCard[] }) {
  const [featured, ...others] = memorials;
  return (
    <>
      <Hero />
      {featured && <RecentMemorials featured={featured} others={others} />}
      <Features />
      <Steps />
      <ClosingCallToAction />
    </>
  );
}

const h2Class = "font-serif text-3xl font-semibold tracking-tight text-stone-900 sm:text-4xl";

// ---------------------------------------------------------------------------------------- hero

const CLAIMS = [
  { value: "Unlimited", label: "Memories preserved" },
  { value: "100%", label: "Secure & private" },
  { value: "24/7", label: "Always accessible" },
] as const;

const PREVIEW = [
  {
    icon: "media",
    title: "Media preservation",
    text: "Photographs, videos and voice recordings kept safe in one place.",
  },
  {
    icon: "sparkles",
    title: "AI-powered tributes",
    text: "Gentle help finding the right words, always yours to edit.",
  },
  {
    icon: "lock",
    title: "Privacy controls",
    text: "Public, friends only or private: you decide who visits.",
  },
] as const;

function Hero() {
  return (
    <section aria-labelledby="hero-heading" className="bg-linear-to-b from-amber-50 to-white">
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:py-20 lg:grid-cols-2 lg:py-24">
        <div>
          <h1 id="hero-heading" className="text-4xl font-semibold leading-tight tracking-tight text-stone-900 sm:text-5xl">
            Preserve Digital Legacies That Last Forever
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-stone-700">
            Honor the people you love with a lasting online memorial: a calm place to gather their story, their photographs and the memories of everyone who
            knew them, so they are remembered for generations.
          </p>
          <ButtonLinks
            className="mt-8"
            links={[
              { to: "/login", label: "Create Memorial" },
              { to: "/market", label: "Explore Memorials" },
            ]}
          />
          {/* dt before dd for screen readers ("Secure & private: 100%"); the figure is shown first. */}
          <dl className="mt-10 grid max-w-lg gap-4 border-t border-stone-200 pt-8 sm:grid-cols-3">
            {CLAIMS.map((claim) => (
              <div key={claim.label} className="flex flex-row-reverse items-baseline justify-end gap-3 sm:flex-col-reverse sm:gap-1">
                <dt className="text-sm text-stone-700">{claim.label}</dt>
                <dd className="font-serif text-2xl font-semibold text-heather-800">{claim.value}</dd>
              </div>
            ))}
          </dl>
        </div>
        <div className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8">
          <p className="text-sm font-semibold uppercase tracking-wide text-amber-800">Inside every memorial</p>
          <ul className="mt-6 space-y-6">
            {PREVIEW.map((item) => (
              <li key={item.title} className="flex gap-4">
                <IconBadge name={item.icon} />
                <div>
                  <p className="font-semibold text-stone-900">{item.title}</p>
                  <p className="mt-1 text-sm leading-relaxed text-stone-700">{item.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

// ----------------------------------------------------------------------------- recent memorials

function RecentMemorials({ featured, others }: { featured: MemorialCard; others: MemorialCard[] }) {
  const featuredName = fullName(featured);
  return (
    <section aria-labelledby="recent-heading">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <h2 id="recent-heading" className={h2Class}>
          Recent Memorials
        </h2>
        <p className="mt-4 max-w-2xl text-lg leading-relaxed text-stone-700">{`Lives recently remembered by their families on ${SITE_NAME}.`}</p>
        <div className="mt-10 grid gap-6 lg:grid-cols-2">
          <article className="overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm">
            <MemorialPortrait src={featured.profileImageUrl} name={featuredName} width={640} height={480} className="aspect-4/3 w-full bg-stone-100" />
            <div className="p-6 wrap-anywhere sm:p-8">
              <div className="flex flex-wrap items-center gap-3">
                <h3 className="grow basis-48 text-2xl font-semibold text-stone-900">{featuredName}</h3>
                <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-sm font-semibold text-amber-900">Public</span>
              </div>
              {featured.biography && <p className="mt-3 leading-relaxed text-stone-700">{truncate(featured.biography, 200)}</p>}
              <CardFooter memorial={featured} name={featuredName} />
            </div>
          </article>
          {others.length > 0 && (
            <ul className="grid content-start gap-6">
              {others.map((memorial) => {
                const name = fullName(memorial);
                return (
                  <li key={memorial.id} className="flex gap-3 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:gap-5 sm:p-5">
                    <MemorialPortrait
                      src={memorial.profileImageUrl}
                      name={name}
                      width={96}
                      height={96}
                      className="h-16 w-16 shrink-0 rounded-xl bg-stone-100 min-[360px]:h-20 min-[360px]:w-20 sm:h-24 sm:w-24"
                    />
                    <div className="min-w-0 flex-1 wrap-anywhere">
                      <h3 className="text-lg font-semibold text-stone-900">{name}</h3>
                      {memorial.biography && <p className="mt-1 text-sm leading-relaxed text-stone-700">{truncate(memorial.biography, 120)}</p>}
                      <CardFooter memorial={memorial} name={name} />
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        <p className="mt-10">
          <Link to="/market" className="btn-secondary">
            View All Memorials
          </Link>
        </p>
      </div>
    </section>
  );
}

// The real counts: approved tributes, which a visitor can read, and page views.
function CardFooter({ memorial, name }: { memorial: MemorialCard; name: string }) {
  const id = memorial.id;
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm">
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-stone-600">
        {(
          [
            ["tribute", memorial.tributeCount, "tribute"],
            ["eye", memorial.viewCount, "view"],
          ] as const
        ).map(([icon, n, noun]) =>
          n ? (
            <span key={noun} className="inline-flex items-center gap-1.5 whitespace-nowrap">
              <Icon name={icon} className="h-4 w-4" />
              {countOf(n, noun)}
            </span>
          ) : null,
        )}
      </p>
      {/* Several cards share the visible text, so the name completes each link's accessible name. */}
      <Link to={`/memorials/${encodeURIComponent(id)}`} className="link font-semibold">
        View Memorial<span className="sr-only">{` for ${name}`}</span>
      </Link>
    </div>
  );
}

// ------------------------------------------------------------------------------------- features

const FEATURES = [
  {
    icon: "heart",
    title: "Digital Memorials",
    text: "Create a beautiful memorial page that tells their story, from the dates of their life to the moments that mattered most.",
  },
  {
    icon: "sparkles",
    title: "AI Writing Assistant",
    text: "Find the right words for a biography or tribute with gentle suggestions that you can change as much as you like.",
  },
  {
    icon: "people",
    title: "Family Collaboration",
    text: "Invite family and friends to share their memories and tributes, which appear only once you have approved them.",
  },
  {
    icon: "lock",
    title: "Privacy Controls",
    text: "Choose who can see each memorial, and keep important documents in a secure, encrypted vault that only you can open.",
  },
  {
    icon: "media",
    title: "Media Preservation",
    text: "Keep photographs, videos and recordings together in one safe place, never lost to a broken phone or an old hard drive.",
  },
  {
    icon: "gallery",
    title: "Public Gallery",
    text: "Share a memorial with the wider community and discover the lives that other families have chosen to celebrate.",
  },
] as const;

function Features() {
  return (
    <section aria-labelledby="features-heading" className="bg-stone-50">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <h2 id="features-heading" className={h2Class}>
          Everything You Need to Honor a Life
        </h2>
        <p className="mt-4 max-w-2xl text-lg leading-relaxed text-stone-700">Thoughtful tools to gather, protect and share the story of someone you love.</p>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="rounded-2xl border border-stone-200 bg-white p-6">
              <IconBadge name={feature.icon} />
              <h3 className="mt-4 text-lg font-semibold text-stone-900">{feature.title}</h3>
              <p className="mt-2 leading-relaxed text-stone-700">{feature.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

// ---------------------------------------------------------------------------------------- steps

const STEPS = [
  { title: "Create Account", text: "Sign up for a free account in just a few minutes." },
  { title: "Add Memories", text: "Write their story and add photographs, videos and special moments at your own pace." },
  { title: "Share & Honor", text: "Choose who can visit, then invite family and friends to add their own tributes." },
] as const;

function Steps() {
  return (
    <section aria-labelledby="steps-heading">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <h2 id="steps-heading" className={`${h2Class} text-center`}>
          Simple Steps to Create a Memorial
        </h2>
        <ol className="mt-12 grid gap-10 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="text-center">
              <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-heather-700 font-serif text-xl font-semibold text-white ring-4 ring-amber-100">
                {index + 1}
              </span>
              <h3 className="mt-5 text-lg font-semibold text-stone-900">{step.title}</h3>
              <p className="mx-auto mt-2 max-w-xs leading-relaxed text-stone-700">{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

// ----------------------------------------------------------------------------- call to action

function ClosingCallToAction() {
  return (
    <section aria-labelledby="cta-heading" className="bg-heather-800">
      <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:py-20">
        <h2 id="cta-heading" className="text-3xl font-semibold tracking-tight text-white sm:text-4xl">
          Begin a memorial that will be there for generations
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg leading-relaxed text-heather-100">
          Start for free today, and take all the time you need to tell their story.
        </p>
        {/* The default heather focus ring would vanish on this background, hence the white one. */}
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/login" className="btn bg-white text-heather-800 hover:bg-heather-50 focus-visible:outline-white">
            Create Free Memorial
          </Link>
          <Link to="/market" className="btn border border-white/80 text-white hover:bg-white/10 focus-visible:outline-white">
            Explore Platform
          </Link>
        </div>
      </div>
    </section>
  );
}
