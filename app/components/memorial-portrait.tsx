import type { SyntheticEvent } from "react";
import { PLACEHOLDER_PORTRAIT } from "~/utils/site";

// A memorial's profile picture, or the placeholder when there is none or it fails to load: the one
// component for every picture of a person (cards, lists, the memorial page). A picture that fails shows
// the placeholder without JavaScript through CSS (.with-fallback in app.css), and with it by swapping
// the source. Fixed width/height attributes reserve the space before the image arrives (no layout shift
// on slow phones); CSS may still resize it, and object-cover keeps faces undistorted.
type MemorialPortraitProps = {
  src: string | null | undefined;
  /** Resized copies (media.server.ts imageSources), with the sizes the layout shows it at. */
  srcSet?: string;
  sizes?: string;
  /** Describes the person, e.g. "Portrait of Margaret Ellis". */
  alt: string;
  width: number;
  height: number;
  className?: string;
  /** Only for an image that is the largest thing in the first screenful; everything else waits. */
  priority?: boolean;
};

export function MemorialPortrait({ src, srcSet, sizes, alt, width, height, className, priority = false }: MemorialPortraitProps) {
  const given = src?.trim();
  return (
    <img
      src={given || PLACEHOLDER_PORTRAIT}
      srcSet={given ? srcSet : undefined}
      sizes={given && srcSet ? sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={priority ? "high" : undefined}
      className={`with-fallback object-cover ${className ?? ""}`.trim()}
      onError={handleError}
      ref={recoverEarlyFailure}
    />
  );
}

// The DOM is changed directly rather than through state: nothing else depends on it and the
// component stays stateless. Comparing with the placeholder stops a loop if the placeholder fails too.
function showPlaceholder(img: HTMLImageElement) {
  if (img.getAttribute("src") === PLACEHOLDER_PORTRAIT) return;
  // A srcset would still be chosen over the new src.
  img.removeAttribute("srcset");
  img.src = PLACEHOLDER_PORTRAIT;
}

function handleError(event: SyntheticEvent<HTMLImageElement>) {
  showPlaceholder(event.currentTarget);
}

// An image that failed before hydration fired its error event before React listened, so onError
// never runs (react#15446). Such an image is complete with no pixels. decode() tells it apart from
// an SVG that merely has no intrinsic size (resolves) and from a lazy image still waiting (not complete).
function recoverEarlyFailure(img: HTMLImageElement | null) {
  if (!img || !img.complete || img.naturalWidth > 0 || !img.currentSrc) return;
  img.decode().catch(() => showPlaceholder(img));
}
