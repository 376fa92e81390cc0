import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { MemorialPortrait } from "~/components/memorial-portrait";
import { useHydrated } from "~/components/forms";
import { cardImage } from "~/components/memorial/memorial-card";
import { MemorialCounts } from "~/components/memorial/memorial-counts";
import type { GalleryMemorial } from "~/components/memorial/gallery-results";

// The browse page's Featured carousel: the 3 most viewed memorials. Without
// JavaScript it is a plain row that scrolls sideways. With JavaScript the row moves on by one every 4
// seconds, stopping while the pointer is over it or the keyboard is in it, when paused with its button,
// and always for people who ask their system for reduced motion (WCAG 2.2.2).
// Hydrating moves nothing (Lighthouse measured a layout shift of 0.62 on a phone when the row became one
// slide and the controls appeared above it): with JavaScript the same row is scrolled from slide to slide,
// and the controls take the place of the row's hint under it, which has their height in both states.

export const CAROUSEL_INTERVAL_MS = 4000;

function usePrefersReducedMotion() {
  const [reduced, setReduced] = useState(false);
  useEffect(() => {
    const query = window.matchMedia("(prefers-reduced-motion: reduce)");
    setReduced(query.matches);
    const onChange = () => setReduced(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return reduced;
}

export function FeaturedCarousel({ memorials }: { memorials: GalleryMemorial[] }) {
  const hydrated = useHydrated();
  const reducedMotion = usePrefersReducedMotion();
  const [current, setCurrent] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [paused, setPaused] = useState(false);
  const count = memorials.length;
  const rotating = hydrated && count > 1 && !paused && !reducedMotion;
  const list = useRef<HTMLUListElement>(null);

  // The current slide is scrolled into the row's view (a scroll is no layout shift).
  useEffect(() => {
    const ul = list.current;
    const li = ul?.children[current] as HTMLElement | undefined;
    if (!ul || !li || Math.abs(ul.scrollLeft - li.offsetLeft) < 2) return;
    ul.scrollTo({ left: li.offsetLeft, behavior: reducedMotion ? "auto" : "smooth" });
  }, [current, reducedMotion]);

  // A swipe or scroll by hand that takes the current slide out of view makes the slide it settles on the
  // current one (at the row's end several slides are in view, and the current one stays).
  const currentRef = useRef(current);
  currentRef.current = current;
  useEffect(() => {
    const ul = list.current;
    if (!ul || !hydrated) return;
    const settle = () => {
      const slides = Array.from(ul.children) as HTMLElement[];
      const inView = (li: HTMLElement) => li.offsetLeft >= ul.scrollLeft - 2 && li.offsetLeft + li.offsetWidth <= ul.scrollLeft + ul.clientWidth + 2;
      if (slides[currentRef.current] && inView(slides[currentRef.current])) return;
      let nearest = 0;
      slides.forEach((li, i) => {
        if (Math.abs(li.offsetLeft - ul.scrollLeft) < Math.abs(slides[nearest].offsetLeft - ul.scrollLeft)) nearest = i;
      });
      setCurrent(nearest);
    };
    ul.addEventListener("scrollend", settle);
    return () => ul.removeEventListener("scrollend", settle);
  }, [hydrated]);

  useEffect(() => {
    if (!rotating || hovered || focused) return;
    const timer = setInterval(() => setCurrent((i) => (i + 1) % count), CAROUSEL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [rotating, hovered, focused, count]);

  return (
    <section
      aria-labelledby="featured-heading"
      aria-roledescription="carousel"
      className="mt-8"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="featured-heading" className="text-2xl font-semibold text-stone-900">
          Featured
        </h2>
      </div>
      {/* Polite while it only moves when asked; silent while it moves by itself (no constant chatter). */}
      <ul
        ref={list}
        aria-live={hydrated && !rotating ? "polite" : "off"}
        // `relative`: the slides' visually hidden labels (absolutely positioned) stay inside this scroller
        // instead of making the whole page as wide as the row; it also makes the list the
        // slides' offsetParent, so a slide's offsetLeft is where the row scrolls to show it.
        className="relative mt-4 flex snap-x snap-mandatory gap-4 overflow-x-auto pb-2"
        // A row that scrolls sideways must be reachable by keyboard (axe: scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        aria-label="Featured memorials, scroll sideways for more"
      >
        {memorials.map((m, i) => (
          <li
            key={m.id}
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}`}
            aria-current={hydrated && i === current ? "true" : undefined}
            className="w-[85%] shrink-0 snap-start sm:w-[60%] lg:w-[45%]"
          >
            <FeaturedSlide memorial={m} priority={i === 0} />
          </li>
        ))}
      </ul>
      {count > 1 ? (
        <div className="mt-2 flex min-h-10 flex-wrap items-center justify-center gap-2">
          {hydrated ? (
            <>
              <button type="button" className="btn-secondary" onClick={() => setCurrent((i) => (i - 1 + count) % count)}>
                Previous<span className="sr-only"> featured memorial</span>
              </button>
              <span className="px-1 text-sm text-stone-700" aria-hidden="true">
                {current + 1} / {count}
              </span>
              <button type="button" className="btn-secondary" onClick={() => setCurrent((i) => (i + 1) % count)}>
                Next<span className="sr-only"> featured memorial</span>
              </button>
              {!reducedMotion ? (
                <button type="button" className="btn-secondary" aria-pressed={paused} onClick={() => setPaused((p) => !p)}>
                  {paused ? "Play" : "Pause"}
                  <span className="sr-only"> the featured memorials</span>
                </button>
              ) : null}
            </>
          ) : (
            <p className="text-sm text-stone-700" aria-hidden="true">
              Scroll sideways for all {count}
            </p>
          )}
        </div>
      ) : null}
    </section>
  );
}

function FeaturedSlide({ memorial, priority }: { memorial: GalleryMemorial; priority: boolean }) {
  const name = `${memorial.firstName} ${memorial.lastName}`;
  return (
    <article className="grid overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm sm:grid-cols-[2fr_3fr]">
      <MemorialPortrait
        src={cardImage(memorial.profileImageUrl) ?? cardImage(memorial.firstImageUrl)}
        name={name}
        width={480}
        height={360}
        priority={priority}
        className="aspect-[4/3] h-full w-full bg-stone-100"
      />
      <div className="flex min-w-0 flex-col gap-2 p-5 wrap-anywhere">
        <h3 className="text-xl font-semibold text-stone-900">{name}</h3>
        {memorial.title && memorial.title !== name ? <p className="text-sm italic text-stone-700">{memorial.title}</p> : null}
        {memorial.biography ? <p className="line-clamp-3 text-stone-700">{memorial.biography}</p> : null}
        <MemorialCounts memorial={memorial} />
        <Link to={`/memorials/${memorial.id}`} className="btn-primary mt-auto self-start">
          View Memorial<span className="sr-only"> of {name}</span>
        </Link>
      </div>
    </article>
  );
}
