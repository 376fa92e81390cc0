import type { SyntheticEvent } from "react";
import { PLACEHOLDER_PRODUCT } from "~/utils/site";

// A product's picture, or the product placeholder when there is none or it fails to load (§2 "Cart page":
// "A broken image falls back to a placeholder picture"), without JavaScript through CSS (img.with-fallback
// with .product-fallback in app.css) and with it by swapping the source, as MemorialPortrait does for people.
type ProductImageProps = {
  src: string | null | undefined;
  srcSet?: string;
  sizes?: string;
  alt: string;
  width: number;
  height: number;
  className?: string;
};

export function ProductImage({ src, srcSet, sizes, alt, width, height, className }: ProductImageProps) {
  const given = src?.trim();
  return (
    <img
      src={given || PLACEHOLDER_PRODUCT}
      srcSet={given ? srcSet : undefined}
      sizes={given && srcSet ? sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      loading="lazy"
      decoding="async"
      className={`with-fallback product-fallback object-cover ${className ?? ""}`.trim()}
      onError={handleError}
      ref={recoverEarlyFailure}
    />
  );
}

function showPlaceholder(img: HTMLImageElement) {
  if (img.getAttribute("src") === PLACEHOLDER_PRODUCT) return;
  img.removeAttribute("srcset");
  img.src = PLACEHOLDER_PRODUCT;
}

function handleError(event: SyntheticEvent<HTMLImageElement>) {
  showPlaceholder(event.currentTarget);
}

// An image that failed before hydration fired its error event before React listened (react#15446).
function recoverEarlyFailure(img: HTMLImageElement | null) {
  if (!img || !img.complete || img.naturalWidth > 0 || !img.currentSrc) return;
  img.decode().catch(() => showPlaceholder(img));
}
