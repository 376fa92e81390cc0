import { useCallback, type SyntheticEvent } from "react";

// A picture that shows a placeholder when there is none or it fails to load: the one place this logic
// lives, for people (MemorialPortrait) and products (ProductImage). A picture that fails shows the
// placeholder without JavaScript through CSS (.with-fallback in app.css, with a modifier class naming a
// placeholder other than the portrait's), and with it by swapping the source. Fixed width/height
// attributes reserve the space before the image arrives (no layout shift on slow phones); CSS may still
// resize it, and object-cover keeps it undistorted.
export type ImageWithFallbackProps = {
  src: string | null | undefined;
  /** Resized copies (memorials/media.server.ts imageSources), with the sizes the layout shows it at. */
  srcSet?: string;
  sizes?: string;
  alt: string;
  width: number;
  height: number;
  className?: string;
  /** Only for an image that is the largest thing in the first screenful; everything else waits. */
  priority?: boolean;
};

type Placeholder = {
  /** The placeholder picture's address, shown in place of a broken one (and of a missing one, unless `empty`). */
  placeholder: string;
  /** What to show when there is no picture at all, if not the placeholder. */
  empty?: string;
  /** The app.css class that makes the CSS fallback draw the same placeholder (none: the portrait's). */
  fallbackClass?: string;
};

export function ImageWithFallback({
  src,
  srcSet,
  sizes,
  alt,
  width,
  height,
  className,
  priority = false,
  placeholder,
  empty,
  fallbackClass,
}: ImageWithFallbackProps & Placeholder) {
  const given = src?.trim();
  // Kept the same from render to render: a new ref callback would be detached and called again each time.
  const onError = useCallback((event: SyntheticEvent<HTMLImageElement>) => showPlaceholder(event.currentTarget, placeholder), [placeholder]);
  const ref = useCallback((img: HTMLImageElement | null) => recoverEarlyFailure(img, placeholder), [placeholder]);
  return (
    <img
      src={given || empty || placeholder}
      srcSet={given ? srcSet : undefined}
      sizes={given && srcSet ? sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      decoding="async"
      fetchPriority={priority ? "high" : undefined}
      className={["with-fallback", fallbackClass, "object-cover", className].filter(Boolean).join(" ")}
      onError={onError}
      ref={ref}
    />
  );
}

// The DOM is changed directly rather than through state: nothing else depends on it and the
// component stays stateless. Comparing with the placeholder stops a loop if the placeholder fails too.
function showPlaceholder(img: HTMLImageElement, placeholder: string) {
  if (img.getAttribute("src") === placeholder) return;
  // A srcset would still be chosen over the new src.
  img.removeAttribute("srcset");
  img.src = placeholder;
}

// An image that failed before hydration fired its error event before React listened, so onError
// never runs (react#15446). Such an image is complete with no pixels. decode() tells it apart from
// an SVG that merely has no intrinsic size (resolves) and from a lazy image still waiting (not complete).
function recoverEarlyFailure(img: HTMLImageElement | null, placeholder: string) {
  if (!img || !img.complete || img.naturalWidth > 0 || !img.currentSrc) return;
  img.decode().catch(() => showPlaceholder(img, placeholder));
}
